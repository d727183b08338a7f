package tui

import (
	"reflect"
	"strings"
	"testing"

	"evalview/model"
	"evalview/model/runstats"
	"evalview/tui/text"
)

// runVisible are the record indexes the list shows, in order.
func runVisible(m *Model) []int {
	return append([]int(nil), m.list.Visible()...)
}

func TestRunThresholdKeysChangeCount(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{runValidFixture()}, 100, 30)
	ds := m.datasets[0]
	if got := m.scoring.threshold(ds); got != 8.5 {
		t.Fatalf("starting threshold %v, want the run's 8.5", got)
	}
	tests := []struct {
		keys      []string
		typed     string
		want      float64
		wantAbove int
	}{
		{keys: []string{"+"}, want: 9, wantAbove: 2},
		{keys: []string{"+"}, want: 9.5, wantAbove: 2},
		{keys: []string{"-", "-", "-"}, want: 8, wantAbove: 5},
		// t opens a prompt holding the current value; typing replaces it.
		{keys: []string{"t", "backspace"}, typed: "6.25", want: 6.25, wantAbove: 7},
		{keys: []string{"t", "backspace", "backspace", "backspace", "backspace"}, typed: "10", want: 10, wantAbove: 1},
		{keys: []string{"+"}, want: 10, wantAbove: 1}, // the scale ends at 10
	}
	for _, tc := range tests {
		press(m, tc.keys...)
		if tc.typed != "" {
			typeText(m, tc.typed)
			press(m, "enter")
		}
		if got := m.scoring.threshold(ds); got != tc.want {
			t.Fatalf("after %v %q: threshold %v, want %v", tc.keys, tc.typed, got, tc.want)
		}
		f := m.scoring.figures(ds)
		if f.Above != tc.wantAbove || f.Above != len(wantHigh(tc.want)) {
			t.Errorf("threshold %v: %d at or above, want %d", tc.want, f.Above, tc.wantAbove)
		}
		want := itoa(tc.wantAbove) + " ≥ " + text.FormatThreshold(tc.want)
		if s := screen(m); !strings.Contains(s, want) {
			t.Errorf("header lacks %q:\n%s", want, s)
		}
	}
}

func TestRunThresholdPromptRejectsBadInput(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{runValidFixture()}, 100, 30)
	press(m, "t", "backspace", "backspace", "backspace")
	typeText(m, "eleven")
	press(m, "enter")
	if prompt(m) == nil || !strings.Contains(screen(m), "a number from 0 to 10") {
		t.Fatalf("a bad threshold should keep the prompt open with a hint:\n%s", screen(m))
	}
	press(m, "esc")
	if prompt(m) != nil || m.scoring.threshold(m.datasets[0]) != 8.5 {
		t.Errorf("esc should close the prompt and keep 8.5, got %v", m.scoring.threshold(m.datasets[0]))
	}
}

func TestRunHighScoreFilter(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{runValidFixture()}, 100, 30)
	press(m, "H")
	if got, want := runVisible(m), wantHigh(8.5); !reflect.DeepEqual(got, want) {
		t.Fatalf("H at 8.5 shows %v, want %v (8.5 exactly is in, 8.49 and unscored are out)", got, want)
	}
	if m.list.Where() != "score>=8.5" {
		t.Errorf("query %q, want score>=8.5", m.list.Where())
	}
	// Moving the threshold moves the filter with it.
	press(m, "+")
	if got, want := runVisible(m), wantHigh(9); !reflect.DeepEqual(got, want) {
		t.Errorf("after + shows %v, want %v", got, want)
	}
	// H combines with a query typed on the `:` line, and leaves it when off.
	press(m, "H")
	if m.list.Where() != "" || len(runVisible(m)) != 8 {
		t.Fatalf("H off: query %q, %d shown", m.list.Where(), len(runVisible(m)))
	}
	if cmd := m.setListQuery("category=life"); cmd != nil {
		drive(m, cmd)
	}
	press(m, "H")
	if got := runVisible(m); !reflect.DeepEqual(got, []int{4}) || m.list.Where() != "category=life score>=9" {
		t.Errorf("category=life + H: %v with %q, want [4] with category=life score>=9", got, m.list.Where())
	}
	press(m, "H")
	if m.list.Where() != "category=life" {
		t.Errorf("H off keeps the rest of the query: %q", m.list.Where())
	}
}

func TestRunQueriesOnLabels(t *testing.T) {
	tests := []struct {
		q    string
		want []int
	}{
		{"category=mathematics", []int{2, 3}},
		{"errored=yes", []int{1, 2}},
		{"sample_status=partial", []int{1}},
		{"status=error", []int{2}},
		{"category=life score<8", []int{1, 6}},
	}
	for _, tc := range tests {
		m := newTestModel(t, []*model.Dataset{runValidFixture()}, 100, 30)
		drive(m, m.setListQuery(tc.q))
		if got := runVisible(m); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v (note %q)", tc.q, got, tc.want, m.note)
		}
	}
}

func TestRunSideBySide(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{runValidFixture()}, 100, 30)
	press(m, "|")
	if !m.detail.PairOn() || m.detail.TabName() != "Responses" {
		t.Fatalf("| should show Responses side by side (on %v, tab %q)", m.detail.PairOn(), m.detail.TabName())
	}
	tests := []struct {
		key  string
		want string
	}{
		{"}", "side by side: #1 and #3 of 3"},
		{"}", "side by side: #1 and #2 of 3"}, // wraps, skipping the left one
		{")", "side by side: #3 and #2 of 3"}, // skips #2, shown on the right
		{"(", "side by side: #1 and #2 of 3"},
		{"j", "side by side: #1 and #2 of 3"}, // the choice stays on the next record
	}
	for _, tc := range tests {
		press(m, tc.key)
		if s := screen(m); !strings.Contains(s, tc.want) {
			t.Errorf("after %s: screen lacks %q:\n%s", tc.key, tc.want, s)
		}
	}
	// Both columns carry their attempt's error or scores.
	press(m, "}") // record 2: #1 and #3 (7.7 both), then #2 errored on the right
	press(m, "{")
	s := screen(m)
	if !strings.Contains(s, "#2 of 3  ! error") || !strings.Contains(s, "504") {
		t.Errorf("the errored attempt's column lacks its error:\n%s", s)
	}
	press(m, "|")
	if m.detail.PairOn() || strings.Contains(screen(m), "side by side") {
		t.Errorf("| again should show attempts one under another")
	}
}

func TestRunSideBySideNeedsTwoAttempts(t *testing.T) {
	ds := runValidFixture()
	rec, _ := ds.Records.Record(0)
	rec.Attempts = rec.Attempts[:1]
	m := newTestModel(t, []*model.Dataset{ds}, 100, 30)
	press(m, "|")
	if m.detail.PairOn() {
		t.Errorf("| with one attempt should do nothing")
	}
}

func TestRunFiguresMatchSite(t *testing.T) {
	f := runstats.Compute(runValidFixture(), 8.5)
	if f.Records != 8 || f.Scored != 7 || f.Above != 4 || f.Attempts != 24 || f.ScoredAttempts != 20 {
		t.Errorf("counts %+v", f)
	}
	if !f.HasMean || f.Mean != 8.48 {
		t.Errorf("mean %v, want 8.48 (mean of the 7 averages)", f.Mean)
	}
	wantHist := [runstats.Bins]int{12: 1, 15: 1, 16: 1, 17: 2, 19: 2}
	if f.Hist != wantHist {
		t.Errorf("histogram %v, want %v", f.Hist, wantHist)
	}
	want := []runstats.Category{
		{Name: "life", Mean: 8.1, Scored: 4, All: 4, Above: 2},
		{Name: "mathematics", Mean: 8.5, Scored: 1, All: 2, Above: 1},
		{Name: "code", Mean: 9.25, Scored: 2, All: 2, Above: 1},
	}
	if !reflect.DeepEqual(f.Categories, want) {
		t.Errorf("categories %+v, want %+v", f.Categories, want)
	}
}

func TestRunHeaderFolds(t *testing.T) {
	tests := []struct {
		w, h    int
		want    []string
		notWant []string
	}{
		// Two fact lines: the list's constant column after the model
		// (every row made all its attempts), then what fits.
		{120, 40, []string{"completed · model rwkv → rwkv7-2.9B-demo.zip · every row: attempts 3/3 · en · chat", "device MacBook Pro 16-inch (Apple M4 Pro, 48 GB)",
			"seed 20260407", "mean 8.48 · 4 ≥ 8.5", "+5 more (i)"}, nil},
		// One fact line: what does not fit is counted, not cut.
		{100, 30, []string{"every row: attempts 3/3 · en · chat +9 more (i)", "mean 8.48 · 4 ≥ 8.5 │ completed 6/8 · attempts 24/24 · latest #8 code │ life 3/4"},
			[]string{"device", "…more"}},
		// No fact line: the status leads the scores line.
		{60, 15, []string{"completed │ mean 8.48 · 4 ≥ 8.5"}, []string{"model rwkv"}},
	}
	for _, tc := range tests {
		m := newTestModel(t, []*model.Dataset{runValidFixture()}, tc.w, tc.h)
		s := screen(m)
		checkFits(t, s, tc.w, tc.h)
		for _, w := range tc.want {
			if !strings.Contains(s, w) {
				t.Errorf("%dx%d: header lacks %q:\n%s", tc.w, tc.h, w, s)
			}
		}
		for _, w := range tc.notWant {
			if strings.Contains(s, w) {
				t.Errorf("%dx%d: header has %q:\n%s", tc.w, tc.h, w, s)
			}
		}
	}
}
