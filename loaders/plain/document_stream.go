package plain

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"

	"evalview/loaders/internal/jsondoc"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// A JSON document larger than maxDocument is indexed as a JSON Lines file
// is (index.go), whatever its size: by where each record starts, 4 bytes a
// record, its list rows built again a block at a time and kept while they
// fit keepBudget. It takes two passes over the file: a walk (jsondoc) that
// finds every element of the lists that may hold the records, keeping
// their offsets only (of two lists at most at once: one that can no
// longer hold the records is dropped as soon as the walk knows it); then,
// the records' list chosen, a read of that list
// in order that builds each record once, for its id, its fields and its
// issues, and its line (the line ends are counted as it goes). A record
// is read back by its offsets: its bytes run to the next record's start,
// the separator between them (white space and a comma) left out; where
// more than that lies between them (a broken element, a long run of white
// space) or the record is longer than longLine, its length is kept. A
// record longer than longLine is walked as a stream, as a long line is.

// maxGap is the most white space between two elements read with them: an
// element followed by more has its length kept.
const maxGap = 4096

// docRecs is what an index of a document's records knows besides their
// offsets and lines.
type docRecs struct {
	// inList tells that the records are a list's elements (the document
	// itself is the one record otherwise): one without an id is named by
	// its place in the list.
	inList bool
	// sizes holds the length of the records not followed by a separator
	// alone (index i: record i).
	sizes map[int]int64
	// skips holds, for each element that is not JSON (no record), how
	// many records come before it: a record's place in the list counts
	// them.
	skips []int32
}

// pos is record i's place in the list: its index, broken elements
// before it counted.
func (d *docRecs) pos(i int) int {
	return i + sort.Search(len(d.skips), func(k int) bool { return int(d.skips[k]) > i })
}

// element builds the record of element pos of the document's list from
// l, its bytes (cut when it is longer than longLine).
func (x *index) element(l jsonl.Line, pos int, full bool) (*model.Record, *model.Issue) {
	if !l.Cut {
		return docRecord(x.path, l.N, pos, l.Offset, l.Data, x.doc.inList, full)
	}
	rec, bad := x.buildLong(l, full, elemName(pos, x.doc.inList))
	if bad != nil {
		return nil, bad
	}
	byPlace(rec, l.N, pos, x.doc.inList)
	return rec, nil
}

// elements reads the records from to to (exclusive) again, the first on
// line first, calling fn with each one's bytes; fn stops the read with
// errStop.
func (x *index) elements(from, to, first int, fn func(jsonl.Line) (bool, error)) error {
	f, err := source.Open(x.path)
	if err != nil {
		return fmt.Errorf("%s: cannot read it again: %w", x.path, err)
	}
	defer f.Close()
	q := newSeq(f, x.off(from), x.end(to-1))
	line := first
	for i := from; i < to; i++ {
		off := x.off(i)
		n, err := q.skip(off)
		if err != nil {
			return err
		}
		line += n
		size, ok := x.doc.sizes[i]
		if !ok {
			size = -1
		}
		l, n, err := q.element(off, size, x.end(i), line)
		if err != nil {
			return err
		}
		line += n
		if _, err := fn(l); err != nil {
			if errors.Is(err, errStop) {
				return nil
			}
			return err
		}
	}
	return nil
}

// trimSeparator is an element's bytes followed by those before the next
// one, without them: white space, a comma, white space.
func trimSeparator(b []byte) []byte {
	b = bytes.TrimRight(b, " \t\r\n")
	b = bytes.TrimSuffix(b, []byte(","))
	return bytes.TrimRight(b, " \t\r\n")
}

// seq reads a file forward, counting the line ends it passes.
type seq struct {
	br  *bufio.Reader
	pos int64
	buf []byte
}

// newSeq reads r from from to to.
func newSeq(r io.ReaderAt, from, to int64) *seq {
	return &seq{br: bufio.NewReaderSize(io.NewSectionReader(r, from, max(to-from, 0)), 64<<10), pos: from}
}

// skip reads on to offset to, and counts the line ends passed.
func (q *seq) skip(to int64) (int, error) {
	n := 0
	for q.pos < to {
		b, err := q.br.Peek(int(min(to-q.pos, int64(q.br.Size()))))
		n += bytes.Count(b, []byte("\n"))
		q.br.Discard(len(b))
		q.pos += int64(len(b))
		if len(b) == 0 && err != nil {
			return n, unexpected(err)
		}
	}
	return n, nil
}

// read reads the next n bytes, into a buffer the next read reuses.
func (q *seq) read(n int64) ([]byte, error) {
	if int64(cap(q.buf)) < n {
		q.buf = make([]byte, n)
	}
	b := q.buf[:n]
	k, err := io.ReadFull(q.br, b)
	q.pos += int64(k)
	if err != nil {
		return nil, unexpected(err)
	}
	return b, nil
}

func unexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("the file ends early (it changed since it was opened?): %w", io.ErrUnexpectedEOF)
	}
	return err
}

// element reads the element at off (where q is), on line line: of size
// bytes, or when size < 0 of what lies before end, a separator left out.
// It returns the element as a line, cut past longLine, valid until the
// next read, and the line ends it passed (the separator's too).
func (q *seq) element(off, size, end int64, line int) (jsonl.Line, int, error) {
	l := jsonl.Line{N: line, Offset: off}
	if size < 0 {
		if end-off > int64(longLine)+maxGap {
			return l, 0, fmt.Errorf("the element at byte %d is longer than it was (the file changed since it was opened?)", off)
		}
		b, err := q.read(end - off)
		if err != nil {
			return l, 0, err
		}
		l.Data = trimSeparator(b)
		l.Size = int64(len(l.Data))
		return l, bytes.Count(b, []byte("\n")), nil
	}
	l.Size = size
	b, err := q.read(min(size, int64(longLine)))
	if err != nil {
		return l, 0, err
	}
	l.Data = b
	n := bytes.Count(b, []byte("\n"))
	if size > int64(longLine) {
		l.Cut = true
		k, err := q.skip(off + size)
		if err != nil {
			return l, 0, err
		}
		n += k
	}
	return l, n, nil
}

// offsets are where a list's elements start, found by the walk: 4 bytes
// each (a chunk's first offset, and each one's distance from it), and the
// length of those not followed by a separator alone (a long element, one
// followed by much white space), and of the last.
type offsets struct {
	n      int
	chunks []offChunk
	far    map[int]int64 // those past 4 GB from their chunk's first
	sizes  map[int]int64
	end    int64 // where the last ends
	size   int64 // the last's length
}

type offChunk struct {
	base int64
	rel  []uint32
}

func (t *offsets) add(off, size int64) {
	if t.n > 0 && off-t.end > maxGap {
		t.setSize(t.n-1, t.size)
	}
	if size > int64(longLine) {
		t.setSize(t.n, size)
	}
	if t.n%chunkSize == 0 {
		t.chunks = append(t.chunks, offChunk{base: off})
	}
	c := &t.chunks[len(t.chunks)-1]
	d := off - c.base
	if d > math.MaxUint32 {
		if t.far == nil {
			t.far = map[int]int64{}
		}
		t.far[t.n] = off
		d = 0
	}
	c.rel = append(c.rel, uint32(d))
	t.n++
	t.end, t.size = off+size, size
}

func (t *offsets) setSize(i int, size int64) {
	if t.sizes == nil {
		t.sizes = map[int]int64{}
	}
	t.sizes[i] = size
}

// at is where element i starts.
func (t *offsets) at(i int) int64 {
	if o, ok := t.far[i]; ok {
		return o
	}
	c := t.chunks[i/chunkSize]
	return c.base + int64(c.rel[i%chunkSize])
}

// sizeOf is element i's length when it is known, else -1; and where what
// follows it up to the next element ends.
func (t *offsets) sizeOf(i int) (int64, int64) {
	if i == t.n-1 {
		return t.size, t.end
	}
	next := t.at(i + 1)
	if s, ok := t.sizes[i]; ok {
		return s, next
	}
	return -1, next
}

// drop lets the chunk of element i go, once read.
func (t *offsets) drop(i int) {
	t.chunks[i/chunkSize].rel = nil
}

// openDocumentStream indexes the records of the JSON document at path
// into ds by their offsets (see above); errNotDocument when it is JSON
// Lines after all.
func openDocumentStream(path string, ds *model.Dataset) error {
	f, err := jsonl.OpenRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	head, err := readSome(f, 0, len(bom))
	if err != nil {
		return err
	}
	start := int64(0)
	if bytes.Equal(head, bom) {
		start = int64(len(bom))
	}
	tables := map[*jsondoc.List]*offsets{}
	d, err := jsondoc.Walk(io.NewSectionReader(f, start, size-start), start, func(l *jsondoc.List, _ int, off, size int64) error {
		t := tables[l]
		if t == nil {
			t = &offsets{}
			tables[l] = t
		}
		t.add(off, size)
		return nil
	}, func(l *jsondoc.List) { delete(tables, l) })
	if err != nil {
		return err
	}
	p, err := planDocument(f, size, d)
	if err != nil {
		return err
	}
	if start > 0 {
		ds.Issues = append(ds.Issues, model.Warnf("bom", path, 1, "", "file starts with a UTF-8 byte-order mark; read past it"))
	}
	t := tables[p.list]
	if p.whole {
		t = &offsets{}
		t.add(d.Start, d.End-d.Start)
		t.setSize(0, d.End-d.Start)
	}
	if t == nil {
		t = &offsets{}
	}
	x := &index{id: indexes.Add(1), path: path, size: size, doc: &docRecs{inList: p.list != nil}}
	ids := newIDSet()
	var keys keyList
	var bad badElements
	if t.n > 0 {
		q := newSeq(f, 0, t.end)
		line := 1
		var last struct {
			end, size int64
			apart     bool // something not a separator follows it
		}
		for e := 0; e < t.n; e++ {
			off := t.at(e)
			n, err := q.skip(off)
			if err != nil {
				return err
			}
			line += n
			size, end := t.sizeOf(e)
			l, n, err := q.element(off, size, end, line)
			if err != nil {
				return err
			}
			rec, is := x.element(l, e, false)
			line += n
			if e%chunkSize == chunkSize-1 {
				t.drop(e)
			}
			if is != nil {
				bad.add(ds, *is)
				x.doc.skips = append(x.doc.skips, int32(min(x.n, math.MaxInt32)))
				last.apart = true
				continue
			}
			if x.n > 0 && (last.apart || off-last.end > maxGap) {
				x.doc.setSize(x.n-1, last.size)
			}
			if l.Size > int64(longLine) {
				x.doc.setSize(x.n, l.Size)
			}
			x.add(off, l.N)
			ids.add(rec.ID)
			for _, fl := range rec.Fields {
				keys.add(fl.Name)
			}
			x.keep(rec)
			last.end, last.size, last.apart = off+l.Size, l.Size, false
		}
		if x.n > 0 {
			x.size = last.end // the last record's bytes end there
		}
	}
	bad.end(ds, path)
	x.settle()
	if dups := ids.repeated(); len(dups) > 0 {
		ds.Issues = append(ds.Issues, x.markDups(dups, ids.seed)...)
	}
	ds.Records = x
	p.describe(ds, path, x.n, &keys)
	return nil
}

func (d *docRecs) setSize(i int, size int64) {
	if d.sizes == nil {
		d.sizes = map[int]int64{}
	}
	d.sizes[i] = size
}
