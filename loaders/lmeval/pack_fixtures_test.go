package lmeval

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"evalview/loaders/jsonl"
	"evalview/loaders/lmevalgen"
	"evalview/model"
)

// TestPackedMatchesUnpackedOnFixtures indexes every lm-eval samples file
// of the fixtures (and of ../shared/data when it is there) twice: as the
// loader does, packed, and again stopped before packing (settle, what
// finish did before the index was packed). Every record the browser and
// check read must be the same field by field: its summary (ID, title,
// labels, status and score, every outcome with its metrics and values,
// attempts, issue counts, line), its rows' locations, its issues, and
// the doc_id lookup. The packed index is also read back through its
// public methods (Len, Summary, IndexIssues).
func TestPackedMatchesUnpackedOnFixtures(t *testing.T) {
	roots := []string{"../../testdata/lmeval"}
	if _, err := os.Stat("../../../shared/data/lm_eval"); err == nil {
		roots = append(roots, "../../../shared/data/lm_eval")
	}
	var dirs []string
	for _, root := range roots {
		ents, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.IsDir() {
				dirs = append(dirs, filepath.Join(root, e.Name()))
			}
		}
	}
	dirs = append(dirs, filepath.Dir(genSamples(t, lmevalgen.Config{Docs: 400, Repeats: 3, Filters: []string{"score-first", "maj@3", "flexible-extract"}})))
	files, records := 0, 0
	for _, dir := range dirs {
		dss, err := Open(dir)
		if err != nil {
			t.Logf("%s: %v", dir, err)
			continue
		}
		for _, ds := range dss {
			x, ok := ds.Records.(*index)
			if !ok {
				continue
			}
			files++
			records += comparePacked(t, x)
		}
	}
	if files < 30 || records < 500 {
		t.Fatalf("compared %d files, %d records: the fixtures were not found", files, records)
	}
	t.Logf("%d samples files, %d records", files, records)
}

// comparePacked scans x's file again without packing it and compares
// each record with x's; it returns the number of records.
func comparePacked(t *testing.T, x *index) int {
	t.Helper()
	p := x.s
	if err := x.Wait(); err != nil {
		t.Logf("%s: %v", p.path, err)
	}
	u := newScanned(p.path, p.reported)
	u.known, u.inferred, u.inferWhy = p.known, p.inferred, p.inferWhy
	r, comp, err := jsonl.OpenStream(p.path)
	if err != nil {
		t.Fatal(err)
	}
	u.comp, u.rd = comp, newRowReader(p.path, comp)
	u.err = u.scan(r)
	r.Close()
	u.mu.Lock()
	defer u.mu.Unlock()
	u.settle()
	if u.packed != nil {
		t.Fatalf("%s: settle packed the index", p.path)
	}
	if x.Len() != len(u.sums) {
		t.Fatalf("%s: %d records packed, %d unpacked", p.path, x.Len(), len(u.sums))
	}
	if !reflect.DeepEqual(p.filters, u.filters) || p.main != u.main || len(p.byOff) != len(u.byOff) {
		t.Errorf("%s: filters %v / %v, main %q / %q, %d / %d rows", p.path, p.filters, u.filters, p.main, u.main, len(p.byOff), len(u.byOff))
	}
	want := make([]model.Summary, len(u.sums))
	wantRows := make([][]rowLoc, len(u.sums))
	for i := range u.sums {
		want[i], wantRows[i] = u.summary(i), u.rowsOf(i)
	}
	check := func(what string, s *scanned, i int, got model.Summary) {
		t.Helper()
		w := want[i]
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s: %s record %d:\n got %+v\nwant %+v", p.path, what, i, got, w)
			return
		}
		for fi := range w.Outcomes {
			if !reflect.DeepEqual(got.Outcomes[fi].Values(), w.Outcomes[fi].Values()) {
				t.Errorf("%s: %s record %d filter %d: values %v, want %v", p.path, what, i, fi, got.Outcomes[fi].Values(), w.Outcomes[fi].Values())
			}
		}
		if rows := s.rowsOf(i); !reflect.DeepEqual(rows, wantRows[i]) {
			t.Errorf("%s: %s record %d's rows:\n got %+v\nwant %+v", p.path, what, i, rows, wantRows[i])
		}
		if !reflect.DeepEqual(s.issues[i], u.issues[i]) {
			t.Errorf("%s: %s record %d's issues:\n got %v\nwant %v", p.path, what, i, s.issues[i], u.issues[i])
		}
		if j, ok := s.recordOf(w.ID); !ok || j != i {
			t.Errorf("%s: %s recordOf(%q) = %d, %v; want %d", p.path, what, w.ID, j, ok, i)
		}
	}
	for i := range want {
		check("loader's index", p, i, x.Summary(i))
		if got := x.IndexIssues(i); !reflect.DeepEqual(got, append([]model.Issue(nil), u.issues[i]...)) {
			t.Errorf("%s: record %d IndexIssues %v, want %v", p.path, i, got, u.issues[i])
		}
	}
	if !reflect.DeepEqual(p.dsIssue, u.dsIssue) {
		t.Errorf("%s: dataset issues %v, want %v", p.path, p.dsIssue, u.dsIssue)
	}
	// The same scan, packed now: each record as it was a moment before.
	u.pack()
	for i := range want {
		check("repacked", u, i, u.summary(i))
	}
	return len(want)
}
