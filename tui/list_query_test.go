package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"evalview/loaders/sample"
	"evalview/model"
	"evalview/tui/list"
	"evalview/tui/sheets/facets"
	"evalview/tui/ui"
)

// visibleIDs lists the ids of the list's visible records.
func visibleIDs(m *Model) []string {
	var out []string
	ds := m.datasets[m.cur]
	for _, i := range m.list.Visible() {
		out = append(out, ds.Records.Summary(i).ID)
	}
	return out
}

func TestSetListQuery(t *testing.T) {
	tests := []struct {
		q         string
		wrongOnly bool
		want      string
		filter    string
	}{
		{"", false, "0 1 2 3 4 5", "strict-match"},
		{"status=pass", false, "0 2 5", "strict-match"},
		{"status=pass", true, "", "strict-match"},
		{"status=fail", true, "3 4", "strict-match"},
		{"filter=flexible-extract status=pass", false, "0 1 2 5", "flexible-extract"},
		{"answer=[invalid]", false, "1 4", "strict-match"},
		{"-answer=[invalid] score>=1", false, "0 2 5", "strict-match"},
		{"errors>0", false, "1", "strict-match"},
		{"ducks", false, "0", "strict-match"},
	}
	for _, tc := range tests {
		t.Run(tc.q, func(t *testing.T) {
			m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
			if tc.wrongOnly {
				press(m, "x")
			}
			drive(m, m.setListQuery(tc.q))
			if got := strings.Join(visibleIDs(m), " "); got != tc.want {
				t.Errorf("visible = %q, want %q", got, tc.want)
			}
			if got := m.datasets[0].Filters[m.list.FilterIndex()]; got != tc.filter {
				t.Errorf("filter = %q, want %q", got, tc.filter)
			}
			if tc.q != "" && !strings.Contains(screen(m), ":"+tc.q) {
				t.Errorf("status bar does not show the query:\n%s", screen(m))
			}
		})
	}
}

func TestSetListQueryKeepsCursorAndClears(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
	press(m, "j", "j") // doc 2
	drive(m, m.setListQuery("status=pass"))
	if sel, _ := m.list.Selected(); sel != 2 {
		t.Fatalf("cursor on record %d, want 2 (still visible)", sel)
	}
	drive(m, m.setListQuery("status=fail"))
	if sel, _ := m.list.Selected(); sel != 3 {
		t.Errorf("cursor on record %d, want 3 (the next visible)", sel)
	}
	drive(m, m.setListQuery(""))
	if n := len(m.list.Visible()); n != 6 {
		t.Errorf("cleared query shows %d rows, want 6", n)
	}
	if sel, _ := m.list.Selected(); sel != 3 {
		t.Errorf("cursor on record %d after clearing, want 3", sel)
	}
}

func TestSetListQueryBadQueryKeepsList(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
	drive(m, m.setListQuery("status=pass"))
	drive(m, m.setListQuery("score<"))
	if got := strings.Join(visibleIDs(m), " "); got != "0 2 5" {
		t.Errorf("visible = %q after a bad query, want the old rows", got)
	}
	if !strings.Contains(m.note, "col 1") && !strings.Contains(m.note, "score<") {
		t.Errorf("note = %q, want the parse error", m.note)
	}
}

func TestQueryLineTyping(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
	press(m, ":")
	if prompt(m) == nil {
		t.Fatal(": did not open the query line")
	}
	typeText(m, "status=fail")
	if got := strings.Join(visibleIDs(m), " "); got != "3 4" {
		t.Errorf("live filter shows %q, want 3 4", got)
	}
	typeText(m, " score<")
	s := screen(m)
	if !strings.Contains(s, "col 13") || !strings.Contains(s, "✗") {
		t.Errorf("the query line does not show the error column:\n%s", s)
	}
	press(m, "enter") // an error keeps the prompt open
	if prompt(m) == nil {
		t.Fatal("enter closed the prompt on a bad query")
	}
	press(m, "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "enter")
	if prompt(m) != nil || m.list.Where() != "status=fail" {
		t.Fatalf("prompt open=%v, where=%q", prompt(m) != nil, m.list.Where())
	}
	// esc restores the query the line was opened on.
	press(m, ":", "ctrl+u")
	typeText(m, "status=pass")
	press(m, "esc")
	if got := strings.Join(visibleIDs(m), " "); got != "3 4" || m.list.Where() != "status=fail" {
		t.Errorf("after esc: visible %q where %q", got, m.list.Where())
	}
}

func TestQueryLineCompletion(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
	press(m, ":")
	typeText(m, "stat")
	press(m, "tab")
	if got := prompt(m).Value(); got != "status=" {
		t.Fatalf("tab completed %q, want status=", got)
	}
	press(m, "tab") // cycles the field candidates of "stat"
	press(m, "shift+tab")
	if got := prompt(m).Value(); got != "status=" {
		t.Fatalf("shift+tab went back to %q", got)
	}
	typeText(m, "f")
	press(m, "tab")
	if got := prompt(m).Value(); got != "status=fail" {
		t.Errorf("value completion = %q, want status=fail", got)
	}
	if got := strings.Join(visibleIDs(m), " "); got != "3 4" {
		t.Errorf("completed query shows %q, want 3 4", got)
	}
}

// bigDataset is an in-memory dataset of n records with a category label
// and alternating pass/fail, for the off-loop paths.
func bigDataset(n int) *model.Dataset {
	recs := make([]*model.Record, n)
	for i := range recs {
		r := &model.Record{}
		r.ID, r.Title = fmt.Sprint(i), fmt.Sprintf("question %d", i)
		r.Status, r.Score, r.HasScore = model.StatusPass, float64(i%10), true
		if i%2 == 1 {
			r.Status = model.StatusFail
		}
		r.Labels = model.LabelsOf(map[string]string{"category": []string{"math", "code", "prose"}[i%3]})
		recs[i] = r
	}
	return &model.Dataset{Kind: model.KindSample, Path: "big.jsonl", Title: "big", Records: model.NewMemIndex(recs), Presentation: sample.Presentation()}
}

func TestSetListQueryBigListOffLoop(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{bigDataset(list.AsyncRows + 10)}, 120, 30)
	cmd := m.setListQuery("category=code score>=8")
	if !m.list.Filtering() {
		t.Fatal("a big list was filtered on the event loop")
	}
	if !strings.Contains(m.statusInfo().ListQuery, "filtering") {
		t.Errorf("status %q does not say it is filtering", m.statusInfo().ListQuery)
	}
	drive(m, cmd)
	if m.list.Filtering() {
		t.Fatal("the filter result was not taken in")
	}
	// i%3==1 and i%10>=8: i ≡ 1 (mod 3), i ≡ 8,9 (mod 10).
	want := 0
	for i := 0; i < list.AsyncRows+10; i++ {
		if i%3 == 1 && i%10 >= 8 {
			want++
		}
	}
	if got := len(m.list.Visible()); got != want {
		t.Errorf("%d rows visible, want %d", got, want)
	}
}

// facetRow returns the position of value in the open facets sheet.
func facetRow(t *testing.T, m *Model, value string) int {
	t.Helper()
	s, ok := m.sheets.top().(*facets.Sheet)
	if !ok {
		t.Fatalf("no facets sheet open:\n%s", screen(m))
	}
	for i, r := range s.Values() {
		if r.Value == value {
			return i
		}
	}
	t.Fatalf("facet of %s has no %q", s.Field(), value)
	return 0
}

// TestRelistCursor: after a query, a facet or a pin replaces the list,
// the cursor is on the first row, unless the record it was on is still
// shown. In the fixture, under strict-match, docs 3 and 4 failed.
func TestRelistCursor(t *testing.T) {
	facetFail := func(m *Model) {
		press(m, "F")
		for range facetRow(t, m, "fail") {
			press(m, "j")
		}
		press(m, "enter")
	}
	queryFail := func(m *Model) {
		press(m, ":")
		typeText(m, "status=fail")
		press(m, "enter")
	}
	pinFail := func(m *Model) { send(m, ui.PinMsg{Label: "failed", Rows: []int{4, 3}}) }
	for _, c := range []struct {
		name    string
		from    int // records moved down before
		apply   func(*Model)
		wantPos int
		wantRec int
	}{
		{"facet, record gone", 5, facetFail, 0, 3},
		{"facet, record kept", 4, facetFail, 1, 4},
		{"query, record gone", 5, queryFail, 0, 3},
		{"query, record before the rows", 0, queryFail, 0, 3},
		{"query, record kept", 4, queryFail, 1, 4},
		{"pin, record gone", 5, pinFail, 0, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 30)
			for range c.from {
				press(m, "j")
			}
			c.apply(m)
			if m.sheets.top() != nil || prompt(m) != nil {
				t.Fatalf("a sheet or prompt is still open:\n%s", screen(m))
			}
			if got := m.list.Visible(); !slices.Equal(got, []int{3, 4}) {
				t.Fatalf("visible rows %v, want [3 4]", got)
			}
			if cursorRow(m) != c.wantPos || selected(t, m) != c.wantRec {
				t.Errorf("cursor on row %d (record %d), want row %d (record %d)", cursorRow(m), selected(t, m), c.wantPos, c.wantRec)
			}
			if want := " " + string(rune('1'+c.wantPos)) + "/2 of 6 │"; !strings.Contains(screen(m), want) {
				t.Errorf("status bar lacks %q:\n%s", want, screen(m))
			}
		})
	}
}
