package lmeval

import (
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"evalview/model"
)

// TestPackKeepsSummaries packs a scan's summaries and reads each back:
// the same model.Summary as before packing, found again by its doc_id.
func TestPackKeepsSummaries(t *testing.T) {
	s := newScanned("x.jsonl", nil)
	s.filters = []string{"strict-match", "flexible-extract"}
	want := make([]model.Summary, 0, 5)
	for i := 0; i < 5; i++ {
		outs := []model.Outcome{
			{Answer: strconv.Itoa(i), Present: true, Score: float64(i % 2), HasScore: true, Status: model.StatusPass + model.Status(i%2),
				Metrics: []model.MetricValue{{Name: "exact_match", Value: float64(i % 2)}}},
			{Answer: "[invalid]", Present: i != 3},
		}
		sum := model.Summary{
			ID: strconv.Itoa(10 - i), Title: "question " + strconv.Itoa(i),
			Labels:   model.NewLabels("target", strconv.Itoa(i)),
			Outcomes: outs, Attempts: i + 1, Errors: i % 2, Warnings: i, Line: 3*i + 1,
			Status: outs[0].Status, Score: outs[0].Score, HasScore: true,
		}
		want = append(want, sum)
		s.sums = append(s.sums, sum)
		s.docs[sum.ID] = i
		s.rows = append(s.rows, nil)
	}
	// Rows as lm-eval writes them: every doc's first filter, then every
	// doc's second, and none of record 3's second.
	for fi := range 2 {
		for i := range 5 {
			if fi == 1 && i == 3 {
				continue
			}
			s.rows[i] = append(s.rows[i], int32(len(s.byOff)))
			s.byOff = append(s.byOff, rowLoc{off: int64(100 * len(s.byOff)), size: 99, line: int32(len(s.byOff) + 1), rec: int32(i), filter: uint16(fi)})
		}
	}
	var wantRows [][]rowLoc
	for i := range 5 {
		wantRows = append(wantRows, s.rowsOf(i))
	}
	s.pack()
	for i, w := range wantRows {
		if got := s.rowsOf(i); !reflect.DeepEqual(got, w) {
			t.Errorf("record %d's rows after pack:\n got %+v\nwant %+v", i, got, w)
		}
		if want := 2 - b2i(i == 3); len(w) != want || w[0].rec != int32(i) || w[0].filter != 0 {
			t.Errorf("record %d's rows before pack: %+v", i, w)
		}
	}
	if s.sums != nil || s.docs != nil || s.count() != len(want) {
		t.Fatalf("after pack: sums %v, docs %v, count %d", s.sums, s.docs, s.count())
	}
	for i, w := range want {
		if got := s.summary(i); !reflect.DeepEqual(got, w) {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, got, w)
		}
		if j, ok := s.recordOf(w.ID); !ok || j != i {
			t.Errorf("recordOf(%q) = %d, %v; want %d", w.ID, j, ok, i)
		}
	}
	if _, ok := s.recordOf("11"); ok {
		t.Error("recordOf found a doc_id no record has")
	}
	s.addWarnings(2, 3)
	if got := s.summary(2).Warnings; got != want[2].Warnings+3 {
		t.Errorf("warnings after addWarnings: %d, want %d", got, want[2].Warnings+3)
	}
	// A reader appending to a record's outcomes leaves the next record's.
	_ = append(s.summary(0).Outcomes, model.Outcome{Answer: "appended"})
	if got := s.summary(1).Outcomes[0].Answer; got != "1" {
		t.Errorf("record 1's first answer is %q after an append to record 0's", got)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestTooManyFilters: a row of a filter past maxFilters is left out, with
// one dataset issue, while rows of the filters known are still indexed.
func TestTooManyFilters(t *testing.T) {
	s := newScanned("x.jsonl", nil)
	for i := range maxFilters {
		s.filters = append(s.filters, "f"+strconv.Itoa(i))
	}
	s.rowsPerFilter = make([]int, maxFilters)
	row := func(key, filter string, line int) *parsedRow {
		return &parsedRow{key: key, filter: filter, claimed: true, loc: rowLoc{line: int32(line), off: int64(line), size: 1},
			out: model.Outcome{Present: true, Answer: "a"}}
	}
	s.apply(row("0", "f7", 1))
	s.apply(row("1", "one too many", 2))
	s.apply(row("2", "another", 3))
	s.apply(row("0", "f65535", 4))
	if s.count() != 1 || len(s.byOff) != 2 || len(s.filters) != maxFilters {
		t.Fatalf("%d records, %d rows, %d filters; want 1, 2, %d", s.count(), len(s.byOff), len(s.filters), maxFilters)
	}
	if got := s.rowsOf(0); got[1].filter != maxFilters-1 || got[1].line != 4 {
		t.Errorf("the last filter's row: %+v", got[1])
	}
	if len(s.dsIssue) != 1 || s.dsIssue[0].Code != "too-many-filters" || s.dsIssue[0].Line != 2 {
		t.Errorf("dataset issues %v, want one too-many-filters on line 2", s.dsIssue)
	}
	// Doc 1 gets a row of a known filter later; doc 2's only row was left
	// out: the issue counts every row left out, and the docs lost whole.
	s.apply(row("1", "f3", 5))
	s.apply(row("3", "yet another", 6))
	s.settle()
	if s.count() != 2 || len(s.dsIssue) != 1 {
		t.Fatalf("%d records, dataset issues %v", s.count(), s.dsIssue)
	}
	want := "more than 65536 filters: 3 rows of 3 more filters, from this one on, left out, and with them 2 docs that had no other row (the first: 2)"
	if is := s.dsIssue[0]; is.Message != want || is.Line != 2 || is.Severity != model.SeverityError {
		t.Errorf("the issue is %+v, want the message %q on line 2", is, want)
	}
}

// TestWarningWhilePackingKept: finish builds the packed form while the
// browser reads on; a warning added to a record then (a record opened,
// a deep pass) is in the index it installs.
func TestWarningWhilePackingKept(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/lmeval/generated_3filters_8repeats/samples_*.jsonl")
	if len(paths) == 0 {
		t.Fatal("fixture missing")
	}
	open := func() model.Summary {
		t.Helper()
		ds, err := OpenBackground(paths[0])
		if err != nil {
			t.Fatal(err)
		}
		if w, ok := ds[0].Records.(interface{ Wait() error }); ok {
			w.Wait()
		}
		return ds[0].Records.Summary(0)
	}
	before := open()
	packings := 0
	afterPacking = func(s *scanned) {
		packings++
		s.mu.Lock()
		s.addWarnings(0, 2)
		s.mu.Unlock()
	}
	t.Cleanup(func() { afterPacking = func(*scanned) {} })
	got := open()
	if packings != 1 || got.Warnings != before.Warnings+2 {
		t.Errorf("a record's warnings %d after 2 were added while packing (%d packings), want %d", got.Warnings, packings, before.Warnings+2)
	}
}
