package tui

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"evalview/model"
	"evalview/model/compare"
	"evalview/tui/sheets/facets"
	"evalview/tui/sheets/filters"
	"evalview/tui/sheets/pairs"
	"evalview/tui/sheets/slice"
	"evalview/tui/styles"
	"evalview/tui/ui"
)

// TestCompareSheetCellPinsList opens the filter comparison, moves onto
// each cell and presses enter: the list shows exactly the docs
// compare.Filters puts in that cell, and esc shows every doc again.
func TestCompareSheetCellPinsList(t *testing.T) {
	ds := compareFixtures()[0]
	for _, tc := range []struct {
		name  string
		keys  []string
		a, b  int
		cell  compare.Cell
		label string
	}{
		{"both", nil, 0, 1, compare.Both, "strict-match ✓ flexible-extract ✓"},
		{"only A", []string{"j"}, 0, 1, compare.OnlyA, "strict-match ✓ flexible-extract ✗"},
		{"only B", []string{"j", "j"}, 0, 1, compare.OnlyB, "strict-match ✗ flexible-extract ✓"},
		{"neither", []string{"j", "j", "j"}, 0, 1, compare.Neither, "strict-match ✗ flexible-extract ✗"},
		{"B maj@4 only B", []string{"B", "j", "j"}, 0, 2, compare.OnlyB, "strict-match ✗ maj@4 ✓"},
		{"A flexible neither", []string{"A", "B", "B", "l", "l", "l"}, 1, 0, compare.Neither, "flexible-extract ✗ strict-match ✗"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestModel(t, compareFixtures(), 100, 30)
			press(m, "v")
			if _, ok := m.sheets.top().(*filters.Sheet); !ok {
				t.Fatalf("v opened %T, want the filter comparison", m.sheets.top())
			}
			press(m, tc.keys...)
			press(m, "enter")
			if m.sheets.top() != nil {
				t.Fatalf("enter left the sheet %q open", m.sheets.top().Title())
			}
			_, cells := compare.Filters(ds, tc.a, tc.b, nil)
			var want []int
			for i, c := range cells {
				if c == tc.cell {
					want = append(want, i)
				}
			}
			if got := m.list.Visible(); !reflect.DeepEqual(append([]int{}, got...), append([]int{}, want...)) {
				t.Fatalf("list shows %v, want the %s docs %v", got, tc.cell, want)
			}
			if s := screen(m); !strings.Contains(s, "pinned: "+tc.label) {
				t.Errorf("status bar lacks the pin %q:\n%s", tc.label, s)
			}
			press(m, "esc")
			if n := len(m.list.Visible()); n != ds.Records.Len() || m.list.Pinned() {
				t.Errorf("after esc the list shows %d records (pinned %v), want all %d", n, m.list.Pinned(), ds.Records.Len())
			}
		})
	}
}

// TestCompareSheetFlagged pins the list to the docs the deep pass found
// disagreeing with the log, and shows pass@k from its report.
func TestCompareSheetFlagged(t *testing.T) {
	m := newTestModel(t, compareFixtures(), 100, 30)
	rep := m.deep.report(m.datasets[0])
	if rep == nil {
		t.Fatal("the deep pass did not run after the index was complete")
	}
	press(m, "v")
	s := screen(m)
	for _, want := range []string{"1 doc flagged by the deep check", "pass@1", "pass@4", "0.5938"} {
		if !strings.Contains(s, want) {
			t.Errorf("sheet lacks %q:\n%s", want, s)
		}
	}
	press(m, "G", "enter")
	if got := m.list.Visible(); !reflect.DeepEqual(got, rep.Flagged) || !reflect.DeepEqual(got, []int{7}) {
		t.Errorf("list shows %v, want the flagged docs %v", got, rep.Flagged)
	}
}

// TestDeepStatusProgress shows the pass's progress in the status bar
// while it runs, and nothing once it is done.
func TestDeepStatusProgress(t *testing.T) {
	m := New(compareFixtures(), Options{Theme: "dark"})
	ds := m.datasets[0]
	run := &deepRun{}
	run.done.Store(45)
	run.total.Store(100)
	m.deep.runs = map[*model.Dataset]*deepRun{ds: run}
	if got := m.deep.status(m.datasets[m.cur]); got != "re-extracting 45%" {
		t.Errorf("status %q, want re-extracting 45%%", got)
	}
	run.finished = true
	if got := m.deep.status(m.datasets[m.cur]); got != "" {
		t.Errorf("status after the pass %q, want none", got)
	}
}

// TestSlicesSheetPinsSlice groups by subject and pins the first slice.
func TestSlicesSheetPinsSlice(t *testing.T) {
	m := newTestModel(t, compareFixtures(), 100, 30)
	ds := m.datasets[0]
	press(m, "V")
	sh, ok := m.sheets.top().(*slice.Sheet)
	if !ok {
		t.Fatalf("V opened %T, want slices", m.sheets.top())
	}
	for sh.Field() != "subject" {
		press(m, "s")
	}
	slices := compare.Slices(ds, "subject", nil)
	press(m, "j", "enter")
	if got := m.list.Visible(); !reflect.DeepEqual(got, slices[1].Rows) {
		t.Errorf("list shows %v, want slice %q rows %v", got, slices[1].Value, slices[1].Rows)
	}
	if s := screen(m); !strings.Contains(s, "pinned: subject="+slices[1].Value) {
		t.Errorf("status bar lacks the slice:\n%s", s)
	}
}

// TestRunsSheetFlips compares two runs of the task: the flips are the
// docs whose right/wrong changed, and enter shows the pair's record in
// run A's list.
func TestRunsSheetFlips(t *testing.T) {
	m := newTestModel(t, compareFixtures(), 100, 30)
	press(m, "x") // wrong only: the record chosen below must still show
	press(m, "C")
	sh, ok := m.sheets.top().(*pairs.Sheet)
	if !ok {
		t.Fatalf("C opened %T, want the runs comparison", m.sheets.top())
	}
	var keys []string
	for _, p := range sh.Pairs() {
		keys = append(keys, p.Key)
	}
	if want := []string{"2", "3", "5", "7"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("flips %v, want %v", keys, want)
	}
	press(m, "j", "j", "enter") // doc 5: right in A, wrong in B
	if idx, _ := m.list.Selected(); idx != 5 || m.sheets.top() != nil {
		t.Errorf("cursor on record %d (sheet %v), want record 5 with the sheet closed", idx, m.sheets.top())
	}
}

// TestRunsSheetScored pairs two scored runs by prompt, largest change
// first, a prompt scored in one run only last.
func TestRunsSheetScored(t *testing.T) {
	m := newTestModel(t, compareFixtures(), 100, 30)
	press(m, ">", ">", "C")
	sh, ok := m.sheets.top().(*pairs.Sheet)
	if !ok {
		t.Fatalf("C opened %T, want the runs comparison", m.sheets.top())
	}
	if sh.ByFlips() || len(sh.Pairs()) != 4 {
		t.Fatalf("flips only %v, %d pairs; want all 4 pairs", sh.ByFlips(), len(sh.Pairs()))
	}
	p := sh.Pairs()[0]
	if p.Key != "Write a haiku about rain." || p.Delta != 3 {
		t.Errorf("first pair %q delta %v, want the haiku at +3", p.Key, p.Delta)
	}
	s := screen(m)
	for _, want := range []string{"run-a", "run-b", "+3.00", "mean A"} {
		if !strings.Contains(s, want) {
			t.Errorf("sheet lacks %q:\n%s", want, s)
		}
	}
}

// TestCompareKeysNeedTheirData: v compares filters only on an lm-eval
// dataset, C needs a second dataset of the same kind.
func TestCompareKeysNeedTheirData(t *testing.T) {
	m := newTestModel(t, allFixtures(), 100, 30)
	press(m, "C")
	if m.sheets.top() != nil {
		t.Errorf("C opened %q with no second lm-eval dataset", m.sheets.top().Title())
	}
	press(m, ">", "v") // on a run, v is the run's own view (score histogram)
	if _, ok := m.sheets.top().(*filters.Sheet); ok {
		t.Error("v opened the filter comparison on a run")
	}
}

// TestFiltersTabSideBySide shows, for a doc, the re-extracted answers,
// the repeats right, the differing answers and the vote histogram.
func TestFiltersTabSideBySide(t *testing.T) {
	m := newTestModel(t, compareFixtures(), 100, 40)
	press(m, "j", "j", "tab", "3") // doc 2: 7000 first, 70000 by majority
	s := screen(m)
	for _, want := range []string{"re-extracted", "2/4", "≠", "Votes · maj@4 (4 repeats)", "70000", "◂ chosen"} {
		if !strings.Contains(s, want) {
			t.Errorf("Filters tab lacks %q:\n%s", want, s)
		}
	}
}

// TestRunsSheetLabelsSameTitle: two runs of one task share the title, so
// the sheet names them by their model instead of printing it twice.
func TestRunsSheetLabelsSameTitle(t *testing.T) {
	dss := compareFixtures()
	for i, m := range []string{"org/math-base", "org/math-tuned"} {
		dss[i].Title = "gsm8k"
		dss[i].Facts = append(dss[i].Facts, model.Fact{Key: "model", Value: m})
	}
	m := newTestModel(t, dss, 100, 30)
	press(m, "C")
	s := screen(m)
	for _, want := range []string{"A org/math-base (", "B org/math-tuned ("} {
		if !strings.Contains(s, want) {
			t.Errorf("sheet lacks %q:\n%s", want, s)
		}
	}
}

// TestRunsNeedTheSameTask: C pairs lm-eval docs by id, which only means
// something within one task; with no second run of the task, C says what
// it needs instead of pairing gsm8k with arc_easy.
func TestRunsNeedTheSameTask(t *testing.T) {
	dss := compareFixtures()[:2]
	dss[1].Task = "arc_easy"
	m := newTestModel(t, dss, 100, 30)
	press(m, "C")
	if m.sheets.top() != nil {
		t.Fatalf("C opened %q across two tasks", m.sheets.top().Title())
	}
	if s := screen(m); !strings.Contains(s, "C needs another run of "+dss[0].Task) {
		t.Errorf("no explanation on screen:\n%s", s)
	}
}

// TestCompareSheetHelpOneFilter: with one filter the sheet's help does
// not offer A and B (they would pick the same filter) nor enter.
func TestCompareSheetHelpOneFilter(t *testing.T) {
	for _, c := range []struct {
		filters []string
		want    bool
	}{{[]string{"strict-match"}, false}, {[]string{"strict-match", "flexible-extract"}, true}} {
		ds := lmevalFixture()
		m := newTestModel(t, []*model.Dataset{ds}, 100, 30)
		ds.Filters = c.filters
		s := filters.New(m.c, filtersSource{m.header.Metrics(), &m.deep}, ds, 0)
		var keys []string
		for _, b := range s.ShortHelp() {
			keys = append(keys, b.Help().Key)
		}
		got := strings.Join(keys, " ")
		if has := strings.Contains(got, "A ") && strings.Contains(got, "B "); has != c.want {
			t.Errorf("filters %v: help keys %q, A/B offered %v, want %v", c.filters, got, has, c.want)
		}
	}
}

// TestFacetStartField: the facets sheet opens on status when it tells
// records apart, else on a label field that does, the kind first.
func TestFacetStartField(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{openTestdata(t, "testset/spec/guide_examples.jsonl")}, 100, 30)
	press(m, "F")
	s, ok := m.sheets.top().(*facets.Sheet)
	if !ok || s.Field() != "kind" {
		t.Fatalf("facets of an unscored testset do not open on kind:\n%s", screen(m))
	}
	if !strings.Contains(screen(m), "[kind]") || !strings.Contains(screen(m), "multi-step") {
		t.Errorf("the sheet does not show the kinds:\n%s", screen(m))
	}
}

// TestSlicesStartField: V on an unscored testset groups by kind, not by
// the one status every case shares.
func TestSlicesStartField(t *testing.T) {
	ds := openTestdata(t, "testset/spec/guide_examples.jsonl")
	s := slice.New(ui.NewCommon(styles.Plain()), ds, -1, nil)
	if got := s.Field(); got != "kind" {
		t.Fatalf("slices open on %q, want kind", got)
	}
}

// TestRunsSheetCountsAndIDs: two runs keyed by source file and sample
// index: the pairs and the records only in A or only in B add up to the
// rows listed, the id column shows record ids (not the source file), and
// a side without records is named in the empty state.
func TestRunsSheetCountsAndIDs(t *testing.T) {
	src := model.Fact{Key: "source file", Value: "docs/requirements/prompt/prebuilt-prompt-en.json"}
	a := scoredRunFixture("run-a", []float64{8, 9, 4, -1})
	b := scoredRunFixture("run-b", []float64{8.5, 9, 7, 5})
	a.Facts, b.Facts = append(a.Facts, src), append(b.Facts, src)
	recsB := b.Records.(*model.MemIndex).Recs
	recsB[3].ID = "9" // A's 3 is not in B, B's 9 is not in A
	m := newTestModel(t, []*model.Dataset{a, b}, 100, 30)
	press(m, "C")
	s := screen(m)
	for _, want := range []string{"3 pairs · 3 scored in both: mean A 7.00 · mean B 8.17", "1 record only in A, 1 record only in B", "absent"} {
		if !strings.Contains(s, want) {
			t.Errorf("sheet lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "prebuilt-prompt-en.json#") {
		t.Errorf("the id column shows the source file:\n%s", s)
	}
	if !regexp.MustCompile(`(?m)^. 2 +4\.00 +7\.00 +\+3\.00  Write a haiku`).MatchString(s) {
		t.Errorf("no row with id 2 and the haiku's scores:\n%s", s)
	}

	// lm-eval runs, one of them empty: the empty state says so, not "No
	// flips: the runs are right on the same docs".
	m = newTestModel(t, []*model.Dataset{repeatsFixture("gsm8k base", repeatsDocs()), repeatsFixture("gsm8k empty", nil)}, 100, 30)
	press(m, "C")
	s = screen(m)
	if !strings.Contains(s, "Run B has no records; A has 8.") || strings.Contains(s, "No flips") {
		t.Errorf("empty B:\n%s", s)
	}
	m = newTestModel(t, []*model.Dataset{repeatsFixture("gsm8k base", repeatsDocs()), repeatsFixture("gsm8k base 2", repeatsDocs())}, 100, 30)
	press(m, "C")
	if s := screen(m); !strings.Contains(s, "No flips: the runs are right on the same docs.") || !strings.Contains(s, "8 docs in both runs") {
		t.Errorf("two identical runs:\n%s", s)
	}
}

// filtersSrc is a filters.Source of fixed figures.
type filtersSrc struct {
	ms  []model.MetricComparison
	rep *model.DeepReport
}

func (f filtersSrc) Metrics(*model.Dataset) []model.MetricComparison { return f.ms }
func (f filtersSrc) Deep(*model.Dataset) (*model.DeepReport, string) { return f.rep, "" }

// TestFiltersSheetSaysWhy: a metric without a recomputed value says why
// under the table (its note, as summary prints it) and shows the rows it
// read; the deep check's line says what it checked: nothing re-extracted
// is not "every logged answer agrees", and the flagged docs are counted
// by code, not all called re-extraction disagreements.
func TestFiltersSheetSaysWhy(t *testing.T) {
	ds := compareFixtures()[0]
	note := "corpus-level, not recomputed: the harness reports sacrebleu's corpus_bleu"
	ms := []model.MetricComparison{
		{Filter: "strict-match", Name: "bleu", N: 8, Reported: 41.11, HasReport: true, Note: note},
		{Filter: "strict-match", Name: "exact_match", N: 8, Samples: 0.375, HasSamples: true, Reported: 0.375, HasReport: true},
	}
	view := func(rep *model.DeepReport) string {
		s := filters.New(ui.NewCommon(styles.Plain()), filtersSrc{ms, rep}, ds, 0)
		s.SetSize(100, 40)
		return s.View()
	}
	v := view(&model.DeepReport{})
	for _, want := range []string{"strict-match bleu: " + note, "41.1100 8", "re-extracted nothing"} {
		if !strings.Contains(v, want) {
			t.Errorf("sheet lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "flags no doc") || strings.Contains(v, "every logged answer agrees") {
		t.Errorf("nothing re-extracted, yet the sheet says the answers agree:\n%s", v)
	}
	v = view(&model.DeepReport{Reextracted: 24, Issues: []model.Issue{model.Warnf("filter-config-default", "s.jsonl", 0, "", "filters were re-applied with the harness defaults")}})
	if !strings.Contains(v, "✓ the deep check flags no doc: the logged answers of the 24 filter rows it re-extracted agree") ||
		!strings.Contains(v, "⚠ filters were re-applied with the harness defaults") {
		t.Errorf("clean deep check with a finding about the dataset:\n%s", v)
	}
	v = view(&model.DeepReport{Reextracted: 24, Flagged: []int{1, 3}, Issues: []model.Issue{
		{Code: "rescore-mismatch", Record: "1"}, {Code: "reextract-mismatch", Record: "3"}, {Code: "rescore-mismatch", Record: "3"}}})
	if !strings.Contains(v, "2 docs flagged by the deep check (2 rescore-mismatch, 1 reextract-mismatch)") || strings.Contains(v, "disagrees with a re-extraction") {
		t.Errorf("flagged docs:\n%s", v)
	}
}
