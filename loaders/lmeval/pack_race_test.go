package lmeval

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"

	"evalview/loaders/lmevalgen"
	"evalview/model"
)

// The browser reads an index (Len, Summary, Record) from its event loop
// while the scan appends records and, at its end, packs them. These tests
// read in a loop while files are indexed and packed; run them with -race,
// which reports any read the packing does not order with a lock.

// raceReader reads ds's index until it is complete, as the browser does,
// and checks what it reads: the count never goes down, a record keeps its
// ID and line, and the outcomes of a summary it holds are never changed
// afterwards (copy on write while scanning, immutable once packed). It
// returns the summaries it held, with copies of their outcomes as read.
type held struct {
	i    int
	sum  model.Summary
	outs []model.Outcome
}

func raceRead(t *testing.T, ds *model.Dataset) []held {
	t.Helper()
	x := ds.Records
	ids := map[int]string{}
	lines := map[int]int{}
	var keep []held
	last := 0
	for round := 0; ; round++ {
		done := x.Done()
		n := x.Len()
		if n < last {
			t.Errorf("%s: Len went from %d to %d", ds.Path, last, n)
			return keep
		}
		last = n
		// The records a list window shows: the last ones, and a few
		// spread over those indexed.
		for _, i := range []int{n - 1, n / 2, n / 3, 0} {
			if i < 0 || i >= n {
				continue
			}
			s := x.Summary(i)
			if id, ok := ids[i]; ok && (id != s.ID || lines[i] != s.Line) {
				t.Errorf("%s: record %d was %q on line %d, now %q on line %d", ds.Path, i, id, lines[i], s.ID, s.Line)
			}
			ids[i], lines[i] = s.ID, s.Line
			_ = s.Outcome(len(s.Outcomes) - 1)
			if round%16 == 0 {
				keep = append(keep, held{i: i, sum: s, outs: cloneOutcomes(s.Outcomes)})
			}
		}
		if round%64 == 0 && n > 0 {
			if _, err := x.Record(n - 1); err != nil {
				t.Errorf("%s: record %d: %v", ds.Path, n-1, err)
			}
		}
		if done {
			return keep
		}
	}
}

// cloneOutcomes copies outcomes deeply (their metric lists and values).
func cloneOutcomes(outs []model.Outcome) []model.Outcome {
	c := make([]model.Outcome, len(outs))
	for k, o := range outs {
		c[k] = o
		c[k].Metrics = slices.Clone(o.Metrics)
		c[k].SetValues(slices.Clone(o.Values()))
	}
	return c
}

// checkHeld checks that the summaries a reader held are as it read them,
// and that a summary read once the index was complete is the final one.
func checkHeld(t *testing.T, ds *model.Dataset, hs []held, final []model.Summary) {
	t.Helper()
	for _, h := range hs {
		if !reflect.DeepEqual(h.sum.Outcomes, h.outs) {
			t.Errorf("%s: record %d's outcomes changed under a reader:\n got %+v\nwant %+v", ds.Path, h.i, h.sum.Outcomes, h.outs)
		}
		if h.sum.ID != final[h.i].ID {
			t.Errorf("%s: record %d read as %q, finally %q", ds.Path, h.i, h.sum.ID, final[h.i].ID)
		}
	}
	for i := range final {
		if got := ds.Records.Summary(i); !reflect.DeepEqual(got, final[i]) {
			t.Errorf("%s: record %d after the scan:\n got %+v\nwant %+v", ds.Path, i, got, final[i])
		}
	}
}

func summariesOf(ds *model.Dataset) []model.Summary {
	out := make([]model.Summary, ds.Records.Len())
	for i := range out {
		out[i] = ds.Records.Summary(i)
	}
	return out
}

// TestSummariesWhilePacking: readers of several files' indexes, one a
// file, while the files are indexed and packed in the background (the
// browser's folder open); what they read is consistent, and the indexes
// end as the waiting loader's.
func TestSummariesWhilePacking(t *testing.T) {
	dir := t.TempDir()
	for k, filters := range [][]string{
		{"score-first", "maj@2", "flexible-extract"},
		{"score-first"},
		{"maj@2", "score-first"},
		{"flexible-extract", "score-first"},
	} {
		src := filepath.Dir(genSamples(t, lmevalgen.Config{Docs: 600 + 200*k, Repeats: 2, Filters: filters, Task: "gen" + string(rune('a'+k))}))
		copyDir(t, src, dir)
	}
	want, err := Open(dir)
	if err != nil || len(want) != 4 {
		t.Fatalf("%d datasets, %v", len(want), err)
	}
	release := holdScans()
	got, err := OpenBackground(dir)
	if err != nil || len(got) != len(want) {
		release()
		t.Fatalf("%d datasets, %v", len(got), err)
	}
	held := make([][]held, len(got))
	var wg sync.WaitGroup
	for k, ds := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			held[k] = raceRead(t, ds)
		}()
	}
	release()
	wg.Wait()
	for k, ds := range got {
		ds.Records.(*index).SyncDataset(ds)
		checkHeld(t, ds, held[k], summariesOf(want[k]))
		if !reflect.DeepEqual(ds.Filters, want[k].Filters) || ds.MainMetric != want[k].MainMetric {
			t.Errorf("%s: filters %v main %q, want %v %q", ds.Path, ds.Filters, ds.MainMetric, want[k].Filters, want[k].MainMetric)
		}
	}
}

// TestSummariesWhileFileGrows: follow mode watches a samples file still
// being written and reloads it (a new index) when it grew. An index of
// the file read while rows are appended, half lines included, is read
// safely and holds the file's first records; stopping it (the browser
// stops the index a reload replaces) keeps what it has; the reload of
// the grown file is the index of the whole file.
func TestSummariesWhileFileGrows(t *testing.T) {
	src := genSamples(t, lmevalgen.Config{Docs: 1500, Repeats: 2, Filters: []string{"score-first", "maj@2"}})
	full, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	want := summariesOf(openSingle(t, src))
	dir := t.TempDir()
	copyDir(t, filepath.Dir(src), dir)
	path := filepath.Join(dir, filepath.Base(src))
	cut := len(full) / 4
	if err := os.WriteFile(path, full[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, stop := range []bool{false, true} {
		if err := os.WriteFile(path, full[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		release := holdScans()
		dss, err := OpenBackground(path)
		if err != nil || len(dss) != 1 {
			release()
			t.Fatalf("%d datasets, %v", len(dss), err)
		}
		ds := dss[0]
		var hs []held
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			hs = raceRead(t, ds)
		}()
		release()
		// The writer appends the rest in pieces that cut lines in two.
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		for at := cut; at < len(full); at += 7919 {
			if _, err := f.Write(full[at:min(at+7919, len(full))]); err != nil {
				t.Fatal(err)
			}
			if stop && at > len(full)/2 {
				// Once it has records: a reload's stop may come at any
				// time, but one before the first read leaves nothing to
				// check.
				<-ds.Records.(*index).s.firstRows
				ds.Records.(model.Stopper).Stop()
			}
		}
		f.Close()
		wg.Wait()
		_ = ds.Records.(*index).Wait()
		ds.Records.(*index).SyncDataset(ds)
		got := summariesOf(ds)
		if len(got) == 0 || len(got) > len(want) {
			t.Fatalf("stop %v: %d records while the file grew, of %d", stop, len(got), len(want))
		}
		for i := range got {
			if got[i].ID != want[i].ID || got[i].Line != want[i].Line {
				t.Errorf("stop %v: record %d is %q on line %d, want %q on line %d", stop, i, got[i].ID, got[i].Line, want[i].ID, want[i].Line)
			}
		}
		checkHeld(t, ds, hs, got)
		// Follow mode's reload: a new index of the grown file.
		if again := summariesOf(openSingle(t, path)); !reflect.DeepEqual(again, want) {
			t.Errorf("stop %v: the reload has %d records, want %d, or they differ", stop, len(again), len(want))
		}
	}
}

// copyDir copies the files of src into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
