package lmeval

import (
	"bytes"
	"context"
	"io"

	"evalview/loaders/jsonl"
)

// A compressed samples file cannot be entered in the middle: the row
// reader re-streams it from the start for a row behind its cursors, and
// the deep check, which wants every doc's rows from every filter's
// section, would decompress the file again and again (a 100 MB gzip took
// 13 s). streamRecords instead reads the rows in record order with one
// forward-only stream per row position (the harness writes the samples
// filter by filter, so row j of every doc sits in section j, in doc
// order): each stream decompresses the file once, at most up to the end
// of its section, and hands each record's rows to the workers.

// fetchedRecord is a record's rows, read ahead for a worker; a nil row
// could not be read in order (the worker then reads the record itself).
type fetchedRecord struct {
	i    int
	rows [][]byte
}

// forwardStream is a decompressed stream of the samples file at pos.
type forwardStream struct {
	r   io.ReadCloser
	pos int64
}

// streamRecords sends records 0..total-1 with their rows to out, in
// order, and closes out. It stops early when ctx is cancelled.
func (x *index) streamRecords(ctx context.Context, total int, out chan<- fetchedRecord) error {
	defer close(out)
	var streams []*forwardStream
	defer func() {
		for _, s := range streams {
			if s != nil && s.r != nil {
				s.r.Close()
			}
		}
	}()
	for i := 0; i < total; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		x.s.mu.RLock()
		locs := x.s.rowsOf(i)
		x.s.mu.RUnlock()
		rows := make([][]byte, len(locs))
		for j, loc := range locs {
			if data := x.s.inMemory(loc); data != nil {
				rows[j] = data
				continue
			}
			for len(streams) <= j {
				streams = append(streams, &forwardStream{})
			}
			rows[j] = streams[j].read(x.s.path, loc)
		}
		select {
		case out <- fetchedRecord{i: i, rows: rows}:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// read returns the row at loc from the stream, opening it at the start of
// the file on first use; nil when the row lies behind the stream or
// cannot be read (the stream is then dropped).
func (s *forwardStream) read(path string, loc rowLoc) []byte {
	if s.r == nil {
		if s.pos < 0 {
			return nil // broken before
		}
		r, _, err := jsonl.OpenStream(path)
		if err != nil {
			s.pos = -1
			return nil
		}
		s.r, s.pos = r, 0
	}
	if loc.off < s.pos {
		return nil
	}
	if _, err := io.CopyN(io.Discard, s.r, loc.off-s.pos); err != nil {
		s.fail()
		return nil
	}
	buf := make([]byte, loc.size)
	if _, err := io.ReadFull(s.r, buf); err != nil {
		s.fail()
		return nil
	}
	s.pos = loc.off + int64(loc.size)
	return bytes.TrimPrefix(buf, bom)
}

func (s *forwardStream) fail() {
	s.r.Close()
	s.r, s.pos = nil, -1
}
