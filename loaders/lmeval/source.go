package lmeval

import (
	"container/list"
	"fmt"
	"io"
	"sync"

	"evalview/loaders/jsonl"
	"evalview/loaders/source"
)

// rowReader reads rows back from a samples file by (uncompressed) offset.
//
// A plain file is read with ReadAt. A gzip or zstd stream cannot be entered
// in the middle, so a compressed file is re-streamed: a few decompressor
// cursors are kept open at their positions, and a row is read by the
// cursor closest before it, or a new cursor from the start of the file.
// Rows of one doc sit in one section per filter (the harness writes the
// samples filter by filter), so with one cursor per section browsing the
// list in order costs only the bytes between consecutive rows; a jump
// backwards costs decompressing from the start up to the row (about a
// second per 300 MB for gzip, less for zstd). Recently read rows are kept
// in a small LRU so going back and forth between records costs nothing.
type rowReader struct {
	path string
	comp jsonl.Compression

	mu      sync.Mutex
	cursors []*cursor
	cache   *list.List // of *cachedRow, most recent first
	cached  int        // bytes in cache
}

// cursor is a decompressor positioned at pos.
type cursor struct {
	r   io.ReadCloser
	pos int64
}

type cachedRow struct {
	off  int64
	data []byte
}

const (
	maxCursors = 4
	// maxCached bounds the LRU's bytes; a row bigger than this is not kept.
	maxCached = 64 << 20
)

func newRowReader(path string, comp jsonl.Compression) *rowReader {
	return &rowReader{path: path, comp: comp, cache: list.New()}
}

// read returns size bytes at off.
func (rr *rowReader) read(off int64, size int) ([]byte, error) {
	if rr.comp == jsonl.Plain {
		f, err := source.Open(rr.path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		buf := make([]byte, size)
		if _, err := f.ReadAt(buf, off); err != nil {
			return nil, err
		}
		return buf, nil
	}
	rr.mu.Lock()
	defer rr.mu.Unlock()
	for e := rr.cache.Front(); e != nil; e = e.Next() {
		if c := e.Value.(*cachedRow); c.off == off && len(c.data) == size {
			rr.cache.MoveToFront(e)
			return c.data, nil
		}
	}
	cur, err := rr.cursorFor(off)
	if err != nil {
		return nil, err
	}
	if _, err := io.CopyN(io.Discard, cur.r, off-cur.pos); err != nil {
		rr.drop(cur)
		return nil, fmt.Errorf("decompressing up to the row: %w", err)
	}
	buf := make([]byte, size)
	if _, err := io.ReadFull(cur.r, buf); err != nil {
		rr.drop(cur)
		return nil, fmt.Errorf("decompressing the row: %w", err)
	}
	cur.pos = off + int64(size)
	rr.remember(off, buf)
	return buf, nil
}

// cursorFor returns the open cursor closest before off, or a new one from
// the start of the file (closing the least useful one when all are used).
func (rr *rowReader) cursorFor(off int64) (*cursor, error) {
	var best *cursor
	for _, c := range rr.cursors {
		if c.pos <= off && (best == nil || c.pos > best.pos) {
			best = c
		}
	}
	if best != nil {
		return best, nil
	}
	if len(rr.cursors) >= maxCursors {
		// Every cursor is past off: drop the one furthest along, which is
		// the least likely to serve the next read.
		far := rr.cursors[0]
		for _, c := range rr.cursors {
			if c.pos > far.pos {
				far = c
			}
		}
		rr.drop(far)
	}
	r, _, err := jsonl.OpenStream(rr.path)
	if err != nil {
		return nil, err
	}
	c := &cursor{r: r}
	rr.cursors = append(rr.cursors, c)
	return c, nil
}

func (rr *rowReader) drop(c *cursor) {
	c.r.Close()
	for i, x := range rr.cursors {
		if x == c {
			rr.cursors = append(rr.cursors[:i], rr.cursors[i+1:]...)
			return
		}
	}
}

func (rr *rowReader) remember(off int64, data []byte) {
	if len(data) > maxCached {
		return
	}
	rr.cache.PushFront(&cachedRow{off: off, data: data})
	rr.cached += len(data)
	for rr.cached > maxCached {
		e := rr.cache.Back()
		rr.cached -= len(e.Value.(*cachedRow).data)
		rr.cache.Remove(e)
	}
}
