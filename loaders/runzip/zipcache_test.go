package runzip

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"evalview/loaders/internal/zipsafe"
	"evalview/model"
)

// bigRun is the valid run with n samples: sample 1 and its score file
// copied under indexes 1..n.
func bigRun(t testing.TB, n int) runSet {
	t.Helper()
	base := validRun(t)
	rs := runSet{"manifest.json": base["manifest.json"], "generation_summary.json": base["generation_summary.json"]}
	for i := 1; i <= n; i++ {
		for _, f := range []struct{ from, to string }{
			{s1, fmt.Sprintf("samples/%05d_completed_en_chat.json", i)},
			{sc1, fmt.Sprintf("scores/%05d_score.json", i)},
		} {
			rs[f.to] = setIndex(t, base[f.from], i)
		}
	}
	return rs
}

// setIndex rewrites a sample or score file's sample_index.
func setIndex(t testing.TB, data []byte, i int) []byte {
	t.Helper()
	tmp := runSet{"f": data}
	tmp.edit(t, "f", func(m map[string]any) { m["sample_index"] = i })
	return tmp["f"]
}

// A zipped run's records are read back from one open archive, however
// many there are. Opening the zip for each record read its whole central
// directory every time, so reading one record cost more the bigger the
// run, and check and export took time in n² (10,000 samples: minutes).
// Allocations count that work without timing anything: reading a record
// of a run eight times bigger must not allocate more.
func TestZipRecordCostFlat(t *testing.T) {
	perRecord := func(n int) float64 {
		ds := openOne(t, bigRun(t, n).zip(t, "run/"))
		x := ds.Records.(*runIndex)
		i := 0
		return testing.AllocsPerRun(20, func() {
			x.mu.Lock()
			x.cache, x.order = nil, nil // past the record cache: read the zip
			x.mu.Unlock()
			if _, err := x.Record(i % n); err != nil {
				t.Fatal(err)
			}
			i++
		})
	}
	small, big := perRecord(50), perRecord(400)
	if big > small*1.2 {
		t.Errorf("reading a record allocates %.0f times in a run of 400 samples, %.0f in one of 50: it grows with the run", big, small)
	}
}

// All of a run's records, read at once from several goroutines, come from
// the zip opened once.
func TestZipOpenedOnceForAllRecords(t *testing.T) {
	const n = 60
	p := bigRun(t, n).zip(t, "run/")
	ds := openOne(t, p)
	if ds.Records.Len() != n {
		t.Fatalf("%d records, want %d", ds.Records.Len(), n)
	}
	before := zipsafe.Opens()
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < n; i++ {
				r, err := ds.Records.Record(i)
				if err != nil || r.ID != fmt.Sprint(i+1) || len(r.Attempts) != 2 {
					t.Errorf("record %d: %v %+v", i, err, r)
					return
				}
			}
		}()
	}
	wg.Wait()
	if got := zipsafe.Opens() - before; got > 1 {
		t.Errorf("reading %d records opened the zip %d times, want at most once", n, got)
	}
}

// A zip replaced since it was opened is opened again: records come from
// the file as it is now, or fail clearly, never from a stale archive
// whose entries moved.
func TestZipReopenedWhenChanged(t *testing.T) {
	rs := bigRun(t, 3)
	p := rs.zip(t, "")
	ds := openOne(t, p)
	if _, err := ds.Records.Record(0); err != nil {
		t.Fatal(err)
	}
	// The same run with a different response: another size.
	rs.edit(t, "samples/00002_completed_en_chat.json", func(m map[string]any) {
		arr(m["attempts"])[0].(map[string]any)["response"] = "a new and longer response than before"
	})
	data, err := os.ReadFile(rs.zip(t, ""))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	before := zipsafe.Opens()
	r, err := ds.Records.Record(1)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Attempts[0].Text; got != "a new and longer response than before" {
		t.Errorf("record read from the old zip: %q", got)
	}
	if zipsafe.Opens()-before != 1 {
		t.Errorf("the changed zip was not reopened")
	}
}

// More zips than the cache keeps can all be read, in turn and at once.
func TestManyZipsRead(t *testing.T) {
	var dss []*model.Dataset
	for i := 0; i < zipsafe.MaxOpen+4; i++ {
		dss = append(dss, openOne(t, bigRun(t, 2).zip(t, "")))
	}
	var wg sync.WaitGroup
	for round := 0; round < 3; round++ {
		for _, ds := range dss {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < ds.Records.Len(); i++ {
					if _, err := ds.Records.Record(i); err != nil {
						t.Error(err)
					}
				}
			}()
		}
		wg.Wait()
		for _, ds := range dss {
			// Past the record cache, so the zip is read again.
			x := ds.Records.(*runIndex)
			x.mu.Lock()
			x.cache, x.order = nil, nil
			x.mu.Unlock()
		}
	}
	if n := zipsafe.Cached(); n > zipsafe.MaxOpen {
		t.Errorf("%d zips open, want at most %d", n, zipsafe.MaxOpen)
	}
}

// BenchmarkZipRun is what the commands do on a zipped run of n samples:
// check loads it and takes every record's issues from the index; export
// reads every record back from the zip. Time per op grows linearly with n.
func BenchmarkZipRun(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		p := bigRun(b, n).zip(b, "run/")
		b.Run(fmt.Sprintf("check/samples=%d", n), func(b *testing.B) {
			for b.Loop() {
				dss, err := Open(p)
				if err != nil {
					b.Fatal(err)
				}
				x := dss[0].Records.(*runIndex)
				for i := 0; i < x.Len(); i++ {
					_ = x.IndexIssues(i)
				}
			}
		})
		b.Run(fmt.Sprintf("export/samples=%d", n), func(b *testing.B) {
			for b.Loop() {
				dss, err := Open(p)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := dss[0].AllIssues(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
