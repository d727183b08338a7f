package plain

import (
	"errors"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"evalview/loaders/internal/folder"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// The browser opens a plain file in the background (loaders.Options
// Background): indexing a file means reading and checking every line,
// some 10 µs a record, and a 200 MB file of 2 million records showed no
// row for 20 s. Past backgroundSize, the file is indexed on a goroutine of
// its own; the dataset is handed over with the first records the scan
// read (earlyRecords of them at most, whole), which it lists and shows
// while the scan goes on, and takes the whole index, its issues and facts
// when the scan ends (SyncDataset, on the browser's goroutine). The
// commands read the file whole before they go on, as before.

const (
	// backgroundSize is the least size of a file indexed in the
	// background: below it the scan takes a few frames at most.
	backgroundSize = 1 << 20
	// earlyRecords and earlyBytes bound the records kept whole while
	// the scan goes on.
	earlyRecords = 2000
	earlyBytes   = 32 << 20
	// firstWait bounds how long the open waits for the first records.
	firstWait = 60 * time.Millisecond
)

var formatBG = func() folder.Format {
	f := format
	f.OpenFile = openFileBackground
	return f
}()

// OpenBackground is Open for the browser: a large file's dataset is
// handed over while it is still being indexed.
func OpenBackground(path string) ([]*model.Dataset, error) { return formatBG.Open(path) }

// EachBackground is Each for the browser (see OpenBackground).
func EachBackground(path string, fn func(*model.Dataset) error) error {
	return formatBG.Each(path, fn)
}

// openFileBackground opens path as openFile does, a large file's index
// growing in the background.
func openFileBackground(path string) (*model.Dataset, error) {
	// A stat, not an open: a folder of many small files opens each once.
	if st, err := source.Stat(path); err != nil || !st.Mode().IsRegular() || st.Size() < backgroundSize {
		return openFile(path) // which says what is wrong with it
	}
	g := &growing{first: make(chan struct{}), finished: make(chan struct{})}
	go func() {
		ds, err := scanFile(path, g)
		g.end(ds, err)
	}()
	select {
	case <-g.first:
	case <-time.After(firstWait):
	}
	if g.done.Load() && g.err != nil {
		return nil, g.err
	}
	if g.done.Load() {
		return g.final, nil // read whole within the wait
	}
	name := filepath.Base(path)
	ds := &model.Dataset{Kind: model.KindJSONL, Path: path, Title: name, Task: name, Records: g}
	ds.Facts = []model.Fact{
		{Key: "format", Value: "JSON Lines, shown as plain records"},
		{Key: "records", Value: "counting…"},
	}
	if k := g.keys(); k != "" {
		ds.Facts = append(ds.Facts, model.Fact{Key: "fields", Value: k})
	}
	return ds, nil
}

// growing is the model.Index of a plain file being indexed in the
// background: the first records whole while the scan goes on, then the
// file's index.
type growing struct {
	mu    sync.Mutex
	early []*model.Record
	bytes int
	fkeys keyList

	first     chan struct{} // closed at the first record or the end
	firstOnce sync.Once
	finished  chan struct{}
	stop      atomic.Bool

	// done is set once x, final and err are.
	done  atomic.Bool
	x     model.Index
	final *model.Dataset
	err   error
	// synced is set once SyncDataset took final in (the browser's
	// goroutine only).
	synced bool
}

// offer keeps record rec, the latest of x, whole while there is room.
func (g *growing) offer(x *index, l jsonl.Line, rec *model.Record) {
	g.mu.Lock()
	room := len(g.early) < earlyRecords && g.bytes+len(l.Data) <= earlyBytes
	g.mu.Unlock()
	if room {
		full, bad := x.build(l, true)
		if bad != nil {
			full = rec
		}
		g.mu.Lock()
		g.early = append(g.early, full)
		g.bytes += len(l.Data)
		for _, fl := range full.Fields {
			g.fkeys.add(fl.Name)
		}
		g.mu.Unlock()
	}
	g.firstOnce.Do(func() { close(g.first) })
}

// end takes the scan's dataset in.
func (g *growing) end(ds *model.Dataset, err error) {
	g.final, g.err = ds, err
	if ds != nil {
		g.x = ds.Records
	}
	g.done.Store(true)
	// The early records are the index's now: their memory goes back.
	g.mu.Lock()
	g.early, g.bytes = nil, 0
	g.mu.Unlock()
	g.firstOnce.Do(func() { close(g.first) })
	close(g.finished)
}

// earlyRecord is early record i, nil when there is none (the scan ended
// and dropped them, or has not read that far).
func (g *growing) earlyRecord(i int) *model.Record {
	g.mu.Lock()
	defer g.mu.Unlock()
	if i < 0 || i >= len(g.early) {
		return nil
	}
	return g.early[i]
}

// keys lists the fields of the early records.
func (g *growing) keys() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.fkeys.String()
}

// complete is the file's index once the scan is over.
func (g *growing) complete() model.Index {
	if g.done.Load() && g.x != nil {
		return g.x
	}
	return nil
}

// Len returns the records known: the early ones while the scan goes on.
func (g *growing) Len() int {
	if x := g.complete(); x != nil {
		return x.Len()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.early)
}

// Done reports whether the scan is over.
func (g *growing) Done() bool { return g.done.Load() }

// Summary returns record i's list row.
func (g *growing) Summary(i int) model.Summary {
	if x := g.complete(); x != nil {
		return x.Summary(i)
	}
	if r := g.earlyRecord(i); r != nil {
		return r.Summary
	}
	if x := g.complete(); x != nil {
		return x.Summary(i)
	}
	return model.Summary{ID: "record " + strconv.Itoa(i+1), Title: "(not indexed yet)", Status: model.StatusUnscored}
}

// IndexIssues returns record i's issues as indexing found them.
func (g *growing) IndexIssues(i int) []model.Issue {
	if x := g.complete(); x != nil {
		if ii, ok := x.(interface{ IndexIssues(int) []model.Issue }); ok {
			return ii.IndexIssues(i)
		}
		if rec, err := x.Record(i); err == nil {
			return rec.Issues
		}
		return nil
	}
	if r := g.earlyRecord(i); r != nil {
		return r.Issues
	}
	return nil
}

// Record returns record i.
func (g *growing) Record(i int) (*model.Record, error) {
	if x := g.complete(); x != nil {
		return x.Record(i)
	}
	if r := g.earlyRecord(i); r != nil {
		rec := *r
		return &rec, nil
	}
	if x := g.complete(); x != nil {
		return x.Record(i)
	}
	return nil, errors.New("record " + strconv.Itoa(i+1) + " is not indexed yet")
}

// Stop ends the scan at its next record (model.Stopper); what it indexed
// stays readable.
func (g *growing) Stop() { g.stop.Store(true) }

// Wait blocks until the scan is over and returns its error.
func (g *growing) Wait() error {
	<-g.finished
	return g.err
}

// SyncDataset takes the scan's end into ds (its facts and the issues that
// need every line); it must run on the goroutine that owns ds, and
// reports whether ds changed.
func (g *growing) SyncDataset(ds *model.Dataset) bool {
	if g.synced || !g.done.Load() {
		return false
	}
	g.synced = true
	if f := g.final; f != nil {
		ds.Facts = f.Facts
		ds.Issues = append(ds.Issues, f.Issues...)
		// The columns again, from the whole file's first records: a
		// JSON document lists none until its scan ends.
		Present(ds)
	} else if g.err != nil {
		ds.Issues = append(ds.Issues, model.Errorf("read-error", ds.Path, 0, "", "reading stopped: %v", g.err))
	}
	return true
}
