package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"evalview/model"
	"evalview/tui/list"
	"evalview/tui/sheets/columns"
)

func TestSortByTheColumnUnderTheCursor(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
	press(m, "j", "j", "j") // doc 3
	steps := []struct {
		keys      []string
		sort, ids string
	}{
		{[]string{"s"}, "id↑", "0 1 2 3 4 5"},
		{[]string{"s"}, "id↓", "5 4 3 2 1 0"},
		{[]string{"right", "s"}, "title↑", "1 5 0 2 4 3"},
		{[]string{"right", "s"}, "score↑", "3 4 0 2 5 1"},
		{[]string{"S"}, "score↓", "0 2 5 3 4 1"},
		{[]string{"s"}, "", "0 1 2 3 4 5"}, // the third s: file order
		{[]string{"left", "left", "s"}, "id↑", "0 1 2 3 4 5"},
	}
	for _, st := range steps {
		press(m, st.keys...)
		if got := m.list.SortKey().String(); got != st.sort {
			t.Errorf("%v: sort %q, want %q", st.keys, got, st.sort)
		}
		if got := strings.Join(visibleIDs(m), " "); got != st.ids {
			t.Errorf("%v (%s): order %q, want %q", st.keys, st.sort, got, st.ids)
		}
		if sel, _ := m.list.Selected(); sel != 3 {
			t.Errorf("%v: cursor moved to record %d, want 3", st.keys, sel)
		}
		if st.sort != "" && !strings.Contains(screen(m), "sort "+st.sort) {
			t.Errorf("status bar lacks the sort %q", st.sort)
		}
		head := strings.Split(ansi.Strip(m.list.View()), "\n")[0]
		if arrow := strings.TrimLeft(st.sort, "abcdefghijklmnopqrstuvwxyz"); st.sort != "" && strings.Count(head, arrow) != 1 || st.sort == "" && strings.ContainsAny(head, "↑↓") {
			t.Errorf("%v: heading %q, want one %q", st.keys, head, arrow)
		}
	}
}

func TestClickOnAHeadingSorts(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
	l := m.layout.List
	head := strings.Split(ansi.Strip(m.list.View()), "\n")[0]
	x := l.X + ansi.StringWidth(head[:strings.Index(head, "exact_match")]) + 2
	send(m, tea.MouseClickMsg{X: x, Y: l.Y, Button: tea.MouseLeft})
	if got := m.list.SortKey().String(); got != "score↑" {
		t.Fatalf("click on the score heading: sort %q, want score↑", got)
	}
	if !strings.Contains(ansi.Strip(m.list.View()), "exact_match↑") {
		t.Errorf("heading lacks the arrow:\n%s", m.list.View())
	}
	send(m, tea.MouseClickMsg{X: x, Y: l.Y, Button: tea.MouseLeft})
	if got := m.list.SortKey().String(); got != "score↓" {
		t.Errorf("second click: sort %q, want score↓", got)
	}
}

func TestSortWithQueryAndBigList(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{bigDataset(list.AsyncRows + 1)}, 120, 30)
	drive(m, m.setListQuery("category=math"))
	m.list.SetColumn("score")
	press(m, "s", "S") // score, then reverse
	if got := m.list.SortKey().String(); got != "score↓" {
		t.Fatalf("sort %q", got)
	}
	ds := m.datasets[0]
	prev := 10.0
	for _, i := range m.list.Visible() {
		s := ds.Records.Summary(i)
		if s.Labels.Get("category") != "math" || s.Score > prev {
			t.Fatalf("record %s (%s, %v) out of place", s.ID, s.Labels.Get("category"), s.Score)
		}
		prev = s.Score
	}
}

func TestDefaultColumnsPerKind(t *testing.T) {
	run := runFixture()
	for i, r := range run.Records.(*model.MemIndex).Recs {
		// Values that differ between rows: a column with one value on
		// every row leaves the list (TestConstantColumnsAreHeaderFacts).
		r.Labels = model.LabelsOf(map[string]string{"category": []string{"lit", "math"}[i%2], "sample_status": []string{"completed", "partial"}[i%2]})
		r.AttemptsWanted = 3
	}
	tests := []struct {
		ds   *model.Dataset
		want string
		head []string
	}{
		{lmevalFixture(), "id title score", []string{"id", "question", "exact_match"}},
		{run, "id category title sample_status attempts score", []string{"category", "sample_status", "attempts", "weighted_score"}},
		{sampleFixture(), "id title score", []string{"title"}},
	}
	for _, tc := range tests {
		m := newTestModel(t, []*model.Dataset{tc.ds}, 200, 30)
		if got := strings.Join(shownFields(m), " "); got != tc.want {
			t.Errorf("%s: columns %q, want %q", tc.ds.Kind, got, tc.want)
		}
		s := screen(m)
		head := strings.Split(s, "\n")[m.layout.List.Y]
		for _, h := range tc.head {
			if !strings.Contains(head, h) {
				t.Errorf("%s: heading %q lacks %q", tc.ds.Kind, head, h)
			}
		}
		if tc.ds == run && !strings.Contains(s, "3/3") {
			t.Errorf("run list lacks attempts done/target:\n%s", s)
		}
	}
}

// A default column whose value is the same on every row leaves the list
// for a fact of the header ("every row: …"), and the title gets its room;
// columns the user picks stay whatever their values.
func TestConstantColumnsAreHeaderFacts(t *testing.T) {
	run := runFixture()
	for _, r := range run.Records.(*model.MemIndex).Recs {
		r.Labels = model.LabelsOf(map[string]string{"category": "lit", "sample_status": "completed"})
	}
	m := newTestModel(t, []*model.Dataset{run}, 200, 30)
	s := screen(m)
	lines := strings.Split(s, "\n")
	head := lines[m.layout.List.Y]
	for _, gone := range []string{"category", "sample_status"} {
		if strings.Contains(head, gone) {
			t.Errorf("heading keeps the constant column %q: %q", gone, head)
		}
	}
	header := strings.Join(lines[:m.layout.List.Y], "\n")
	if !strings.Contains(header, "every row: category lit, sample_status completed") {
		t.Errorf("header lacks the constant columns as a fact:\n%s", header)
	}
	m.list.SetColumns([]string{"id", "category", "title", "score"})
	head = strings.Split(screen(m), "\n")[m.layout.List.Y]
	if !strings.Contains(head, "category") {
		t.Errorf("a column the user picked left the list: %q", head)
	}
}

func TestColumnsSheet(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
	press(m, "c")
	if _, ok := m.sheets.top().(*columns.Sheet); !ok {
		t.Fatal("c did not open the column chooser")
	}
	s := screen(m)
	if !strings.Contains(s, "[x] id") || !strings.Contains(s, "[ ] answer") {
		t.Fatalf("chooser:\n%s", s)
	}
	// Hide the title (second row), show answer, move it before score.
	press(m, "j", "space")
	for m.sheets.top().(*columns.Sheet).Current() != "answer" {
		press(m, "j")
	}
	press(m, "space", "K", "esc")
	if got := strings.Join(shownFields(m), " "); got != "id answer score" {
		t.Fatalf("columns %q, want id answer score", got)
	}
	head := strings.Split(screen(m), "\n")[m.layout.List.Y]
	if !strings.Contains(head, "answer") || strings.Contains(head, "question") {
		t.Errorf("heading %q", head)
	}
	if !strings.Contains(screen(m), "[invalid]") {
		t.Errorf("answer column not shown:\n%s", screen(m))
	}
}
