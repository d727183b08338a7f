package inspect

import (
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"evalview/model"
)

// Both formats list their samples from a background scan, as lm-eval
// samples files are indexed: the .eval's summaries.json (or journal
// summaries) streamed from the zip, the .json log's samples from the
// file. The browser gets the dataset once the header is read and the
// first rows are listed, and shows rows as the scan finds them; the
// commands wait for the end. A 1 GB log may summarise 50,000 samples,
// whose reading would otherwise delay the first screen by seconds.
//
// A record is listed once all its epochs are read (the config's epochs),
// so no row changes once shown, in the order the log gives them: the
// order samples finished for an .eval's summaries, Inspect's sort
// (epoch, then id) for a .json log, so that with one epoch a sample is
// listed as it is read and with k epochs, in a .json log, during the last
// 1/k of the file. Samples short of epochs are listed at the end. Rows
// are listed as the scan goes only when the header names the scorers
// (its results) before the samples: the rows are reduced with them.
// Otherwise (a running log, a .json log with its results last), and for
// what needs reductions.json (written after the summaries), rows are
// listed, or rewritten, at the end.

// firstRowsWait bounds how long the browser's open waits for the first
// rows, so that its first screen comes up at once even when the first
// sample is hundreds of MB.
const firstRowsWait = 60 * time.Millisecond

// bgScan is a log's background scan.
type bgScan struct {
	stop atomic.Bool
	// head is closed once the header before the samples is read (or the
	// scan ended); first once a row is listed (or the scan ended);
	// finished at the end.
	head, first, finished chan struct{}
	firstOnce             sync.Once
	// ds is the dataset the header gives, set before head is closed;
	// final what the end adds, set before finished is closed.
	ds    *model.Dataset
	final *model.Dataset
	err   error
	// synced is set once SyncDataset took in final.
	synced bool
}

func newScan() *bgScan {
	return &bgScan{head: make(chan struct{}), first: make(chan struct{}), finished: make(chan struct{})}
}

// end marks the scan over.
func (x *index) end() {
	x.done.Store(true)
	x.scan.firstOnce.Do(func() { close(x.scan.first) })
	close(x.scan.finished)
}

// dataset waits for the scan as the caller needs (the header and the
// first rows for the browser, the end for the commands) and returns the
// dataset.
func (x *index) dataset(background bool) (*model.Dataset, error) {
	s := x.scan
	<-s.head
	if !background {
		<-s.finished
	} else {
		select {
		case <-s.first:
		case <-time.After(firstRowsWait):
		}
	}
	if x.Done() && s.err != nil && x.Len() == 0 {
		return nil, s.err
	}
	ds := s.ds
	ds.Records, ds.Deep = x, x.deep
	x.SyncDataset(ds)
	return ds, nil
}

// Stop ends the scan early (the browser dropped the dataset); what it
// read stays readable.
func (x *index) Stop() {
	if x.scan != nil {
		x.scan.stop.Store(true)
	}
}

// wait blocks until the scan is over.
func (x *index) wait() {
	if x.scan != nil {
		<-x.scan.finished
	}
}

// SyncDataset takes what the scan's end learned into ds (filters and
// facts when the header came after the samples, and the issues that need
// every record). It must run on the goroutine that owns ds; it reports
// whether ds changed.
func (x *index) SyncDataset(ds *model.Dataset) bool {
	s := x.scan
	if s == nil || s.synced || !x.Done() {
		return false
	}
	s.synced = true
	if f := s.final; f != nil {
		ds.Filters, ds.MainMetric, ds.Facts, ds.Metrics = f.Filters, f.MainMetric, f.Facts, f.Metrics
		ds.Title, ds.Task = f.Title, f.Task
		ds.Issues = append(ds.Issues, f.Issues...)
	}
	return true
}

// afterSample, when set (by tests), runs after each sample the scan reads.
var afterSample func()

// errStopped ends a scan that Stop asked to end.
var errStopped = errors.New("stopped")

// lister groups a log's samples by id as they are read and lists each
// record once its epochs are all read.
type lister struct {
	x *index
	// stream is set when the header names the scorers before the samples:
	// records are listed as they complete, else at the end.
	stream bool
	groups map[string]*stored
	// seen is the groups in first-seen order, done those complete (in the
	// order they completed) not yet listed.
	seen, done []*stored
	// pos is a listed group's record index.
	pos map[*stored]int
	// scored is set when a row just built made a view continuous.
	scored bool
	count  int
}

func newLister(x *index) *lister {
	return &lister{x: x, groups: map[string]*stored{}, pos: map[*stored]int{}}
}

// wanted is how many epochs a sample has: the config's, else 1.
func (b *lister) wanted() int {
	if e := b.x.ld.header.Eval.Config.Epochs; e != nil && *e > 1 {
		return *e
	}
	return 1
}

// add takes in one sample's summary JSON (NaN and Infinity sanitized); a
// repeated (id, epoch) replaces the earlier one (the last wins, as
// Inspect dedupes summaries). A summary that is not of the expected
// shape is not taken: the error says why.
func (b *lister) add(raw []byte) error {
	s, err := parseSummary(raw)
	if err != nil {
		return err
	}
	b.addParsed(raw, s)
	return nil
}

// addParsed is add with raw already parsed into s.
func (b *lister) addParsed(raw []byte, s *sampleSummary) {
	id := memberID(s.ID)
	g := b.groups[id]
	if g == nil {
		g = &stored{id: id, rawID: s.ID}
		b.groups[id] = g
		b.seen = append(b.seen, g)
	}
	e := storedEpoch{epoch: s.Epoch, raw: raw}
	if i := slices.IndexFunc(g.epochs, func(e storedEpoch) bool { return e.epoch == s.Epoch }); i >= 0 {
		g.epochs[i] = e
		if p, ok := b.pos[g]; ok {
			b.relist(g, p, nil, s)
		}
		return
	}
	b.count++
	i, _ := slices.BinarySearchFunc(g.epochs, s.Epoch, func(e storedEpoch, n int) int { return e.epoch - n })
	g.epochs = slices.Insert(g.epochs, i, e)
	if len(g.epochs) != b.wanted() {
		if p, ok := b.pos[g]; ok {
			b.relist(g, p, nil, s) // an epoch past the config's count
		}
		return
	}
	if b.stream {
		b.list(g, nil, s)
	} else {
		b.done = append(b.done, g)
	}
}

// rowOf builds g's list row; cur, when not nil, is the epoch just parsed.
// A sample whose value under a view is a score makes the view
// continuous (the scan is the one writer of the views; the index reads
// them under rmu), and the rows listed before lose their pass or fail
// under it (list).
func (b *lister) rowOf(g *stored, red map[redKey]json.RawMessage, cur *sampleSummary) row {
	x := b.x
	p := g.parse(cur)
	if vs := scoresIn(x.views, p); len(vs) > 0 {
		x.rmu.Lock()
		for _, vi := range vs {
			x.views[vi].continuous = true
		}
		x.rmu.Unlock()
		b.scored = true
	}
	r := recordOf(x.ld, p, x.views, red, false)
	return row{sum: r.Summary, issues: r.Issues, g: g}
}

// list appends g's record.
func (b *lister) list(g *stored, red map[redKey]json.RawMessage, cur *sampleSummary) {
	x := b.x
	r := b.rowOf(g, red, cur)
	x.rmu.Lock()
	b.pos[g] = len(x.rows)
	x.rows = append(x.rows, r)
	x.rmu.Unlock()
	x.scan.firstOnce.Do(func() { close(x.scan.first) })
	if b.scored {
		// A view turned out to hold scores: the rows listed while its
		// values were all verdicts pass or fail no more.
		b.scored = false
		for o, p := range b.pos {
			if o != g {
				b.relist(o, p, x.red, nil)
			}
		}
	}
}

// relist rebuilds g's record in place.
func (b *lister) relist(g *stored, p int, red map[redKey]json.RawMessage, cur *sampleSummary) {
	x := b.x
	r := b.rowOf(g, red, cur)
	x.rmu.Lock()
	x.rows[p] = r
	x.rmu.Unlock()
	x.mu.Lock()
	delete(x.cache, p)
	x.mu.Unlock()
}

// members are the sample members the summaries name.
func (b *lister) members() map[string]bool {
	out := make(map[string]bool, b.count)
	for _, g := range b.seen {
		for _, e := range g.epochs {
			out[sampleName(g.id, e.epoch)] = true
		}
	}
	return out
}

// summaries are every sample's summaries, deduplicated, in first-seen
// order.
func (b *lister) summaries() []sampleSummary {
	out := make([]sampleSummary, 0, b.count)
	for _, g := range b.seen {
		for _, e := range g.parse(nil).epochs {
			out = append(out, *e)
		}
	}
	return out
}

// finish lists what is left (records held for the end, samples short of
// epochs), rewrites listed records with the reductions, and sets the
// dataset's final issues (and its header, when it was read only now).
func (b *lister) finish() {
	x, ld := b.x, b.x.ld
	ld.count = b.count
	s := x.scan
	if !b.stream {
		ld.summaries = b.summaries()
		x.views = viewsOf(ld)
		ld.summaries = nil
	}
	// Built anew rather than copied from s.ds, which the caller owns
	// (and a .json log's header may go on after its samples).
	final := newDataset(ld, x.views)
	red := indexReductions(ld.reductions)
	if len(red) > 0 {
		x.rmu.Lock()
		x.red = red
		x.rmu.Unlock()
		for g, p := range b.pos {
			b.relist(g, p, red, nil)
		}
	}
	for _, g := range b.done {
		b.list(g, red, nil)
	}
	for _, g := range b.seen {
		if _, ok := b.pos[g]; !ok {
			b.list(g, red, nil)
		}
	}
	x.rmu.RLock()
	sums := make([]model.Summary, len(x.rows))
	for i, r := range x.rows {
		sums[i] = r.sum
	}
	x.rmu.RUnlock()
	final.Issues = datasetIssues(ld, x.views, sums)
	s.final = final
}
