package lmeval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"evalview/model"
)

// waitAll waits for every dataset's index and syncs it, as the browser's
// poll does.
func waitAll(t *testing.T, dss []*datasetAndIndex) {
	t.Helper()
	for _, d := range dss {
		if err := d.x.Wait(); err != nil && !strings.Contains(err.Error(), "no such file") {
			t.Logf("wait: %v", err)
		}
		d.x.SyncDataset(d.ds)
	}
}

// TestDeferredScans: the browser's folder open (OpenBackground) defers
// each samples file's scan to a queue run in folder order; once they are
// done, the datasets are those Open gives, record for record. A file
// that went away between the listing and its turn is a dataset with a
// read-error issue, not a crash and not a dataset dropped.
func TestDeferredScans(t *testing.T) {
	dir := t.TempDir()
	src := "../../testdata/lmeval/overview/org__base-7b"
	ents, _ := os.ReadDir(src)
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := OpenBackground(dir)
	if err != nil || len(got) != len(want) {
		t.Fatalf("%d datasets (want %d), %v", len(got), len(want), err)
	}
	var all []*datasetAndIndex
	for _, ds := range got {
		all = append(all, &datasetAndIndex{ds, ds.Records.(*index)})
	}
	waitAll(t, all)
	for i := range want {
		if got[i].Task != want[i].Task || got[i].Records.Len() != want[i].Records.Len() || len(got[i].Filters) != len(want[i].Filters) {
			t.Errorf("dataset %d: %s (%d records) vs %s (%d)", i, got[i].Task, got[i].Records.Len(), want[i].Task, want[i].Records.Len())
		}
		for r := 0; r < want[i].Records.Len(); r++ {
			if g, w := got[i].Records.Summary(r), want[i].Records.Summary(r); g.ID != w.ID || g.Status != w.Status {
				t.Errorf("%s record %d: %s %v vs %s %v", want[i].Task, r, g.ID, g.Status, w.ID, w.Status)
			}
		}
	}

	// A file removed before its turn: the queue is held by a scan slot
	// taken here, so the removal comes first.
	for range cap(scanSlots) {
		scanSlots <- struct{}{}
	}
	got, err = OpenBackground(dir)
	gone := filepath.Join(dir, "samples_mmlu_b_2025-06-01T10-00-00.000001.jsonl")
	if rmErr := os.Remove(gone); rmErr != nil {
		t.Fatal(rmErr)
	}
	for range cap(scanSlots) {
		<-scanSlots
	}
	if err != nil || len(got) != 3 {
		t.Fatalf("%d datasets, %v", len(got), err)
	}
	all = all[:0]
	for _, ds := range got {
		all = append(all, &datasetAndIndex{ds, ds.Records.(*index)})
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, d := range all {
		for !d.x.Done() && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitAll(t, all)
	var b *datasetAndIndex
	for _, d := range all {
		if d.ds.Path == gone {
			b = d
		}
	}
	if b == nil || b.ds.Records.Len() != 0 || len(issueCodes(b.ds.Issues)) == 0 || !strings.Contains(strings.Join(issueCodes(b.ds.Issues), " "), "read-error") {
		t.Errorf("the removed file's dataset: %+v", b)
	}
}

type datasetAndIndex struct {
	ds *model.Dataset
	x  *index
}
