package lmeval

import (
	"bytes"
	"hash/maphash"
	"io"
	"runtime"
	"runtime/debug"
	"sync"

	"evalview/loaders/jsonl"
)

// The JSONL scan is a pipeline: one goroutine reads big blocks and cuts
// them at line ends, GOMAXPROCS workers parse the rows of a block (the
// costly part: splitting, hashes), and the scanning goroutine applies the
// parsed rows in file order under the index's lock, one block at a time.
// File order is kept, so record positions, line numbers and "first row
// wins" rules are those of a one-pass scan, while both cores parse.

// blockSize is the read size; a line longer than a block grows its block.
// 1 MB blocks took a tenth less CPU time than 4 MB ones on the 1 GB
// benchmark file (less system time, and a block is still in cache when a
// worker parses it) while keeping the per-block overhead negligible.
const blockSize = 1 << 20

// scanSlots bounds how many files are scanned at once (a folder of many
// samples files), so their pipelines share the cores instead of fighting
// for them, and their buffers stay bounded. Files wait in open order, so
// the first dataset the browser shows is indexed first.
var scanSlots = make(chan struct{}, max(runtime.GOMAXPROCS(0), 1))

// batch is one block's complete lines on their way through the pipeline.
type batch struct {
	buf   []byte
	locs  []rowLoc
	spans [][2]int // where each loc's bytes are in buf
	rows  []parsedRow
	// lines is the number of the last line the block holds, blank or not;
	// end is the offset just past it.
	lines int
	end   int64
	ready chan struct{}
	// bom is set when the block's line 1 started with a byte-order mark;
	// crlf is its first line that ended in CR LF, 0 when none did.
	bom  bool
	crlf int
	// huge is set when the block holds the pipeline's one huge slot.
	huge bool
}

// blockPool recycles read buffers of blockSize (bigger ones, grown for a
// long line, go back to the garbage collector).
var blockPool = sync.Pool{New: func() any { b := make([]byte, blockSize); return &b }}

// pipeline indexes JSONL from r; ra, when not nil, reads the same bytes
// at their offsets in r (a plain file), which lets cutLines size the
// buffer of a very long line exactly.
func (s *scanned) pipeline(r io.Reader, ra io.ReaderAt) error {
	workers := max(runtime.GOMAXPROCS(0), 1)
	work := make(chan *batch, workers)
	order := make(chan *batch, workers+1)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				b.rows = make([]parsedRow, len(b.locs))
				for i, loc := range b.locs {
					data := b.buf[b.spans[i][0]:b.spans[i][1]]
					b.rows[i] = s.parse(data, loc)
					keepBad(&b.rows[i], data)
				}
				close(b.ready)
				// A block is a millisecond or less of parsing: yield the
				// processor between blocks, so that a goroutine waiting
				// for one (the browser's, a key pressed while a file is
				// indexed on every core) runs at once, not at the
				// runtime's next preemption, up to 10 ms later.
				runtime.Gosched()
			}
		}()
	}
	var readErr error
	huge := make(chan struct{}, 1) // one block of a huge line at a time
	go func() {
		readErr = cutLines(r, ra, huge, func(b *batch) {
			order <- b
			work <- b
		})
		close(work)
		close(order)
	}()
	for b := range order {
		<-b.ready
		s.mu.Lock()
		s.noteLineEnds(b)
		for i := range b.rows {
			s.apply(&b.rows[i])
		}
		s.lines = b.lines
		published := len(s.sums) > 0
		s.mu.Unlock()
		s.indexed.Store(b.end)
		if published {
			s.firstOnce.Do(func() { close(s.firstRows) })
		}
		if cap(b.buf) == blockSize {
			buf := b.buf[:blockSize]
			blockPool.Put(&buf)
		} else if cap(b.buf) >= hugeBlock {
			// A line of hundreds of MB: give its buffer back now rather
			// than when the heap next doubles, which would keep it
			// beside the next long line's.
			b.buf = nil
			debug.FreeOSMemory()
		}
		if b.huge {
			<-huge // cutLines may grow a block for the next one
		}
	}
	wg.Wait()
	return readErr
}

// hugeBlock is the buffer size past which a block's memory is returned
// as soon as the block is indexed, and only one such block is in the
// pipeline at a time.
var hugeBlock = 64 << 20 // a variable for tests

// cutLines reads r in blocks and hands each block's complete lines to
// emit, with 1-based line numbers and byte offsets. It strips a leading
// byte-order mark and CR before LF, and skips blank lines (still counting
// them). A line longer than a block grows the block until it fits: to
// the line's size found ahead through ra when there is one, else by
// doubling. Before growing a block to a line's size past hugeBlock (the
// exact sizing, with ra) it sends to huge (when not nil), and the first
// block it cuts after that is marked batch.huge: the pipeline receives
// from huge once that block is indexed, so that two lines of hundreds of
// MB close together do not hold two such buffers at once. (The slot may
// travel to a later, small block when the huge buffer held no line but
// blank ones; it is given back all the same. Doubling, for a compressed
// stream, takes no slot.)
func cutLines(r io.Reader, ra io.ReaderAt, huge chan struct{}, emit func(*batch)) error {
	buf := *blockPool.Get().(*[]byte)
	var (
		carry int   // bytes of an unfinished line at buf[:carry]
		base  int64 // file offset of buf[0]
		line  int
		held  bool // this buffer holds huge's slot
	)
	for {
		if carry == len(buf) {
			size := 2 * len(buf)
			if ra != nil {
				// Doubling made a 200 MB line hold 256 MB and the 128 MB
				// it grew from at once.
				if end, ok := lineEnd(ra, base+int64(carry)); ok {
					size = max(int(end-base)+blockSize, carry+blockSize)
				}
			}
			if ra != nil && size >= hugeBlock && huge != nil && !held {
				huge <- struct{}{}
				held = true
			}
			grown := make([]byte, size)
			copy(grown, buf)
			buf = grown
		}
		n, err := io.ReadFull(r, buf[carry:])
		end := carry + n
		eof := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !eof {
			return err
		}
		b := &batch{buf: buf, ready: make(chan struct{})}
		start := 0
		for start < end {
			i := bytes.IndexByte(buf[start:end], '\n')
			stop := start + i
			if i < 0 {
				if !eof {
					break
				}
				stop = end // a last line without its newline
			}
			line++
			if i >= 0 && b.crlf == 0 && stop > start && buf[stop-1] == '\r' {
				b.crlf = line // a CR before the LF: noted once a block
			}
			b.add(line, base, start, stop)
			start = min(stop+1, end)
			if i < 0 {
				break
			}
		}
		b.lines, b.end = line, base+int64(start)
		var next []byte
		if !eof {
			next = *blockPool.Get().(*[]byte)
			if end-start > len(next) {
				next = make([]byte, 2*(end-start))
			}
			carry = copy(next, buf[start:end])
			base += int64(start)
		}
		if len(b.locs) > 0 {
			// A huge buffer's slot goes with the first block cut from
			// it (a buffer still without a line end keeps it, its bytes
			// moving on to the next buffer).
			b.huge, held = held, false
			emit(b)
		} else if cap(buf) == blockSize {
			spare := buf // a pointer to buf itself would follow its next value
			blockPool.Put(&spare)
		}
		if eof {
			return nil
		}
		buf = next
	}
}

// lineEnd returns the offset of the first newline at or after off in ra
// (its size when there is none); ok is false on a read error.
func lineEnd(ra io.ReaderAt, off int64) (int64, bool) {
	chunk := make([]byte, blockSize)
	for {
		n, err := ra.ReadAt(chunk, off)
		if i := bytes.IndexByte(chunk[:n], '\n'); i >= 0 {
			return off + int64(i), true
		}
		off += int64(n)
		if err == io.EOF {
			return off, true
		}
		if err != nil {
			return 0, false
		}
	}
}

// add records the line buf[start:stop] (without its LF), dropping a BOM on
// line 1, a CR before the LF, and blank lines.
func (b *batch) add(line int, base int64, start, stop int) {
	if line == 1 && bytes.HasPrefix(b.buf[start:stop], bom) {
		start += len(bom)
		b.bom = true
	}
	if stop > start && b.buf[stop-1] == '\r' {
		stop--
	}
	data := b.buf[start:stop]
	if isBlank(data) {
		return
	}
	b.locs = append(b.locs, rowLoc{line: int32(line), off: base + int64(start), size: uint32(stop - start)})
	b.spans = append(b.spans, [2]int{start, stop})
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// noteLineEnds turns a block's byte-order mark and first CRLF line into
// the file's one bom and one crlf warning. The caller holds mu.
func (s *scanned) noteLineEnds(b *batch) {
	if b.bom {
		s.dsIssue = append(s.dsIssue, jsonl.BOMIssue(s.path))
	}
	if b.crlf > 0 && !s.crlfSeen {
		s.crlfSeen = true
		s.dsIssue = append(s.dsIssue, jsonl.CRLFIssue(s.path, b.crlf))
	}
}

// isBlank reports whether a line holds only white space, without scanning
// a long line whose first byte already says it is not.
func isBlank(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n', '\v', '\f':
		default:
			return false
		}
	}
	return true
}

// claimSet lets the parse workers agree, per doc, which row does the
// doc's once-only work (title, attempt count, labels, the prepared deep
// check): the row earliest in the file. Workers parse blocks in parallel,
// so a doc's later row (another filter's, a few blocks on) may reach the
// set before its first one; the first row then claims the doc again, and
// apply, which runs in file order, uses the first row's work only. Before,
// the row that arrived first won, so what a record showed, and whether
// its deep check was prepared, changed from run to run (the flaky
// TestPreparedLongRowMatches). It also remembers, per doc, a hash
// signature already found right, so a doc's other rows with the same
// hashes skip the sha256 work. Keys are hashed: 24 bytes a doc.
type claimSet struct {
	mu   sync.Mutex
	seed maphash.Seed
	seen map[uint64]claimed
}

// claimed is a doc's entry in a claimSet.
type claimed struct {
	line int32
	// refLine is the line of the doc's first row applied, ref its
	// signature's hash, which the doc's other rows must share (sameDoc).
	refLine int32
	// good is the hash of a signature whose hashes were checked and
	// found right (0 when none is).
	good uint64
	ref  uint64
}

// claim reports whether the row on line is the earliest of its doc seen
// so far (the caller does the doc's once-only work), and whether its
// hash signature sig must be checked (it is not one already found right).
func (c *claimSet) claim(key string, line int32, sig string) (first, check bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil {
		c.seen = map[uint64]claimed{}
		c.seed = maphash.MakeSeed()
	}
	k := maphash.String(c.seed, key)
	e, ok := c.seen[k]
	if !ok || line < e.line {
		e.line = line
		first = true
	}
	c.seen[k] = e
	return first, sig != "" && e.good != c.sigHash(sig)
}

// sameDoc reports whether the row on line of key's doc logs the hashes
// (signature hash sig) of the doc's first row applied, and that row's
// line. Apply calls it in file order, so the first row is the reference.
func (c *claimSet) sameDoc(key string, line int32, sig uint64) (int32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := maphash.String(c.seed, key)
	e := c.seen[k]
	if e.ref == 0 {
		e.ref, e.refLine = sig, line
		c.seen[k] = e
	}
	return e.refLine, e.ref == sig
}

// verified notes that sig's hashes are right for key's doc.
func (c *claimSet) verified(key, sig string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := maphash.String(c.seed, key)
	e := c.seen[k]
	e.good = c.sigHash(sig)
	c.seen[k] = e
}

// release forgets every doc's claim once the scan is over.
func (c *claimSet) release() {
	c.mu.Lock()
	c.seen = nil
	c.mu.Unlock()
}

// sigHash hashes a signature, never to 0 (which means "none").
func (c *claimSet) sigHash(sig string) uint64 {
	return maphash.String(c.seed, sig) | 1
}
