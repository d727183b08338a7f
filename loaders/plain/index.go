package plain

import (
	"bytes"
	lru "container/list"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// A plain file's index keeps where each record's line starts, not its
// records: a file of 10 million short records took 6 GB as summaries and
// lines (issue 30), against a budget of 150 MB and 5% of the file. Lines
// are found again from a block's first offset, and list rows (summaries)
// are built again from the lines of a block at a time, through a cache
// all plain files share. A file whose summaries fit what all plain files
// may keep (keepBudget) keeps them, as before: a folder of small files
// reads no line twice.

const (
	// blockSize is how many records share a starting offset and line
	// number, and are built again together.
	blockSize = 64
	// chunkSize is how many records' offsets one slice holds, so that the
	// table grows a chunk at a time rather than by copying itself.
	chunkSize = 1 << 16
	// cacheBlocks bounds the blocks of summaries built again that are
	// kept, all plain files together: 64 x 1,024 records.
	cacheBlocks = 1024
)

// Limits, variables so tests can lower them.
var (
	// longLine is the longest line read whole: a longer one is walked as
	// a stream and only the head of each of its values is kept.
	longLine = 8 << 20
	// keepBudget bounds the summaries kept in memory, all plain files
	// together (each returns its share when it is dropped): with 64 MB,
	// the indexing of 300,000 records peaked at 200 MB.
	keepBudget int64 = 24 << 20
)

// kept counts the bytes of summaries kept by the open plain files.
var kept atomic.Int64

// reserve takes n bytes of keepBudget, if it has them.
func reserve(n int64) bool {
	if kept.Add(n) > keepBudget {
		kept.Add(-n)
		return false
	}
	return true
}

// sumCost estimates what a kept summary and its issues take.
func sumCost(s *model.Summary, issues []model.Issue) int64 {
	n := int64(200 + len(s.ID) + len(s.Title))
	for k, v := range s.Labels.All() {
		n += int64(32 + len(k) + len(v))
	}
	for _, is := range issues {
		n += int64(160 + len(is.Message))
	}
	return n
}

// blockStart is where a block's first record starts.
type blockStart struct {
	off  int64
	line int32
}

// index is a plain file's model.Index. It is safe for concurrent use.
type index struct {
	id   uint64 // the cache's name for it
	path string
	size int64
	n    int
	// Each record's offset is its block's, plus its own from there (far
	// holds those past 4 GB from their block's).
	blocks []blockStart
	rel    [][]uint32
	far    map[int]int64
	// dupOf maps a record whose id an earlier record gives to that
	// record's line: it is named by its own line.
	dupOf map[int]int
	// keptSums and keptIssues are every record's summary and issues, when
	// they fit keepBudget; nil otherwise.
	keptSums   []model.Summary
	keptIssues map[int][]model.Issue
	keptCost   int64
	lean       bool // no summary is kept
	// doc is set when the records are a JSON document's (document_stream.go):
	// they are read again as its elements, not as lines.
	doc *docRecs
}

// window is how much Record reads at once: the lines that follow the one
// asked for are read with it.
const window = 256 << 10

// lastRead is the window Record read last, all plain files together (one
// each would keep 256 KB for every file a browser has shown a record
// of): of index x, from off.
var lastRead struct {
	mu   sync.Mutex
	x    uint64
	off  int64
	data []byte
}

// near returns the bytes of record i's line and what follows up to the
// next record when they are shorter than window (and than longLine): from
// the window read last, or a new one read from there.
func (x *index) near(i int) ([]byte, bool) {
	off, end := x.off(i), x.end(i)
	if end-off > int64(min(window, longLine)) {
		return nil, false // a long line is walked as a stream
	}
	w := &lastRead
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.x != x.id || off < w.off || end > w.off+int64(len(w.data)) {
		f, err := source.Open(x.path)
		if err != nil {
			return nil, false
		}
		defer f.Close()
		n := min(int64(window), x.size-off)
		if cap(w.data) < int(n) {
			w.data = make([]byte, n)
		}
		w.data = w.data[:n]
		if k, _ := f.ReadAt(w.data, off); int64(k) < end-off {
			w.data, w.x = w.data[:0], 0
			return nil, false
		}
		w.x, w.off = x.id, off
	}
	return bytes.Clone(w.data[off-w.off : end-w.off]), true
}

// firstLine is data up to its first line end, without it.
func firstLine(data []byte) []byte {
	if k := bytes.IndexByte(data, '\n'); k >= 0 {
		data = data[:k]
	}
	return bytes.TrimSuffix(data, []byte{'\r'})
}

// add notes the next record: its line starts at off, on line line.
func (x *index) add(off int64, line int) {
	i := x.n
	x.n++
	if i%blockSize == 0 {
		x.blocks = append(x.blocks, blockStart{off: off, line: int32(min(line, 1<<31-1))})
	}
	if i%chunkSize == 0 {
		x.rel = append(x.rel, make([]uint32, 0, chunkCap(i)))
	}
	d := off - x.blocks[i/blockSize].off
	if d > 1<<32-1 {
		if x.far == nil {
			x.far = map[int]int64{}
		}
		x.far[i] = off
		d = 0
	}
	x.rel[i/chunkSize] = append(x.rel[i/chunkSize], uint32(d))
}

// chunkCap is the capacity of a chunk that starts at record i: the first
// starts small and grows by append, as most files in a folder of many are
// a few records (a full chunk for each of 200,000 one-line files cleared
// gigabytes); the next ones, of a file that filled one, start full.
func chunkCap(i int) int {
	if i == 0 {
		return 8
	}
	return chunkSize
}

// off is where record i's line starts.
func (x *index) off(i int) int64 {
	if o, ok := x.far[i]; ok {
		return o
	}
	return x.blocks[i/blockSize].off + int64(x.rel[i/chunkSize][i%chunkSize])
}

// end is where what follows record i's line ends: the next record's
// start, or the end of the file.
func (x *index) end(i int) int64 {
	if i+1 < x.n {
		return x.off(i + 1)
	}
	return x.size
}

// Len returns the number of records.
func (x *index) Len() int { return x.n }

// Done is true: the file is indexed before it is handed over.
func (x *index) Done() bool { return true }

// Summary returns record i's list row.
func (x *index) Summary(i int) model.Summary {
	s, _ := x.entry(i)
	return s
}

// IndexIssues returns record i's issues as indexing found them, without
// building its record (check reads them so).
func (x *index) IndexIssues(i int) []model.Issue {
	_, is := x.entry(i)
	return is
}

// entry is record i's summary and issues, its id renamed if an earlier
// record gives it.
func (x *index) entry(i int) (model.Summary, []model.Issue) {
	var s model.Summary
	var is []model.Issue
	if x.keptSums != nil {
		s, is = x.keptSums[i], x.keptIssues[i]
	} else {
		b := x.block(i / blockSize)
		k := i % blockSize
		if k >= len(b.sums) {
			s = model.Summary{ID: fmt.Sprintf("record %d", i+1), Title: "(the file changed since it was opened)", Status: model.StatusUnscored, Errors: 1}
			return s, []model.Issue{model.Errorf("read-error", x.path, 0, s.ID, "record %d is no longer where the file had it: the file changed since it was opened", i+1)}
		}
		s, is = b.sums[k], b.issues[k]
	}
	if first, ok := x.dupOf[i]; ok {
		id := s.ID + " (line " + fmt.Sprint(s.Line) + ")"
		dup := model.Warnf("duplicate-id", x.path, s.Line, id, "id %q is also the id of line %d; this record is named by its line", s.ID, first)
		if x.doc != nil {
			id = s.ID + " (record " + fmt.Sprint(x.doc.pos(i)+1) + ")"
			dup = dupPlace(x.path, s.Line, id, s.ID, first)
		}
		is = renamed(is, s.ID, id)
		is = append(is, dup)
		s.ID = id
		s.Errors, s.Warnings = model.CountIssues(is)
	}
	return s, is
}

// renamed is issues with record old named new, in a slice of its own.
func renamed(issues []model.Issue, old, new string) []model.Issue {
	out := make([]model.Issue, len(issues), len(issues)+1)
	copy(out, issues)
	for i := range out {
		if out[i].Record == old {
			out[i].Record = new
		}
	}
	return out
}

// Record reads record i's line again and builds it, with its issues.
func (x *index) Record(i int) (*model.Record, error) {
	if i < 0 || i >= x.n {
		return nil, fmt.Errorf("record %d out of range (0..%d)", i, x.n-1)
	}
	sum, issues := x.entry(i)
	if data, ok := x.near(i); ok {
		// The line is whole in the window read last: export and the
		// deep pass read records in order, and opening the file for
		// each was most of their time.
		rec, bad := x.buildNear(i, sum.Line, data)
		if bad == nil {
			rec.ID, rec.Line, rec.Issues = sum.ID, sum.Line, issues
			rec.Errors, rec.Warnings = model.CountIssues(rec.Issues)
			return rec, nil
		}
	}
	var rec *model.Record
	err := x.lines(i, i+1, sum.Line, func(l jsonl.Line) (bool, error) {
		r, bad := x.buildAt(l, i, true)
		if bad != nil {
			return false, fmt.Errorf("%s: line %d no longer holds a record (file changed since it was opened?)", x.path, l.N)
		}
		rec = r
		return true, errStop
	})
	if rec == nil {
		if err == nil || errors.Is(err, errStop) {
			err = fmt.Errorf("%s: line %d no longer holds a record (file changed since it was opened?)", x.path, sum.Line)
		}
		return nil, err
	}
	rec.ID = sum.ID
	rec.Line = sum.Line
	rec.Issues = issues
	rec.Errors, rec.Warnings = model.CountIssues(rec.Issues)
	return rec, nil
}

// lines reads the lines of records from to to (exclusive) again, the
// first on line first, calling fn for each record line (not for blank or
// broken ones); fn says whether the line was a record, and stops the read
// with errStop.
func (x *index) lines(from, to, first int, fn func(jsonl.Line) (bool, error)) error {
	if x.doc != nil {
		return x.elements(from, to, first, fn)
	}
	f, err := source.Open(x.path)
	if err != nil {
		return fmt.Errorf("%s: cannot read it again: %w", x.path, err)
	}
	defer f.Close()
	start := x.off(from)
	end := x.size
	if to < x.n {
		end = x.off(to)
	}
	sr := io.NewSectionReader(f, start, end-start)
	err = jsonl.ScanLinesMax(sr, longLine, func(l jsonl.Line) error {
		l.N += first - 1
		l.Offset += start
		if !l.Cut && jsonl.IsBlank(l.Data) {
			return nil
		}
		_, err := fn(l)
		return err
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// sumBlock is a block's summaries and issues, built again.
type sumBlock struct {
	sums   []model.Summary
	issues [][]model.Issue
}

// block returns block b's summaries, from the cache or built again.
func (x *index) block(b int) *sumBlock {
	key := cacheKey{x.id, b}
	if s := cache.get(key); s != nil {
		return s
	}
	from, to := b*blockSize, min((b+1)*blockSize, x.n)
	s := &sumBlock{}
	err := x.lines(from, to, int(x.blocks[b].line), func(l jsonl.Line) (bool, error) {
		rec, bad := x.buildAt(l, from+len(s.sums), false)
		if bad != nil {
			return false, nil // a broken line, as indexing found it
		}
		s.sums = append(s.sums, rec.Summary)
		s.issues = append(s.issues, rec.Issues)
		if len(s.sums) == to-from {
			return true, errStop
		}
		return true, nil
	})
	if err == nil && len(s.sums) == to-from {
		cache.put(key, s)
	}
	return s
}

// build builds a record from line l, whole or cut; full asks for its
// detail (fields and raw JSON), not only its list row.
func (x *index) build(l jsonl.Line, full bool) (*model.Record, *model.Issue) {
	if l.Cut {
		return x.buildLong(l, full, "line")
	}
	return build(x.path, l.N, l.Data, full)
}

// buildAt builds record i from l, its line or, in a document, its
// element.
func (x *index) buildAt(l jsonl.Line, i int, full bool) (*model.Record, *model.Issue) {
	if x.doc == nil {
		return x.build(l, full)
	}
	return x.element(l, x.doc.pos(i), full)
}

// buildNear builds record i, on line line, whole from data: its line and
// what follows it up to the next record.
func (x *index) buildNear(i, line int, data []byte) (*model.Record, *model.Issue) {
	if x.doc == nil {
		return build(x.path, line, firstLine(data), true)
	}
	if n, ok := x.doc.sizes[i]; ok && n <= int64(len(data)) {
		data = data[:n]
	} else {
		data = trimSeparator(data)
	}
	return docRecord(x.path, line, x.doc.pos(i), x.off(i), data, x.doc.inList, true)
}

// release returns the kept summaries' share of keepBudget.
func release(n int64) { kept.Add(-n) }

// keep keeps rec's summary, the index's last record's, while keepBudget
// has room for it; once it has not, the summaries kept are dropped, to be
// built again on demand.
func (x *index) keep(rec *model.Record) {
	if x.lean {
		return
	}
	c := sumCost(&rec.Summary, rec.Issues)
	if !reserve(c) {
		release(x.keptCost)
		x.keptSums, x.keptIssues, x.keptCost, x.lean = nil, nil, 0, true
		return
	}
	x.keptCost += c
	x.keptSums = append(x.keptSums, rec.Summary)
	if len(rec.Issues) > 0 {
		if x.keptIssues == nil {
			x.keptIssues = map[int][]model.Issue{}
		}
		x.keptIssues[x.n-1] = rec.Issues
	}
}

// settle ends the indexing: the kept summaries' share of keepBudget is
// given back when x is collected.
func (x *index) settle() {
	if x.keptCost > 0 {
		runtime.AddCleanup(x, release, x.keptCost)
	}
}

// indexes numbers the indexes for the cache, which must not hold one.
var indexes atomic.Uint64

// cacheKey names a block of an index.
type cacheKey struct {
	x uint64
	b int
}

// blockCache holds the blocks built again most recently, all indexes
// together.
type blockCache struct {
	mu    sync.Mutex
	order *lru.List // of cacheKey, most recent first
	at    map[cacheKey]*lru.Element
	sums  map[cacheKey]*sumBlock
}

var cache = &blockCache{order: lru.New(), at: map[cacheKey]*lru.Element{}, sums: map[cacheKey]*sumBlock{}}

func (c *blockCache) get(k cacheKey) *sumBlock {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.at[k]; ok {
		c.order.MoveToFront(e)
		return c.sums[k]
	}
	return nil
}

func (c *blockCache) put(k cacheKey, s *sumBlock) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.at[k]; ok {
		return
	}
	c.at[k] = c.order.PushFront(k)
	c.sums[k] = s
	for c.order.Len() > cacheBlocks {
		e := c.order.Back()
		old := e.Value.(cacheKey)
		c.order.Remove(e)
		delete(c.at, old)
		delete(c.sums, old)
	}
}
