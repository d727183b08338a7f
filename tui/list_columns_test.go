package tui

import (
	"strings"
	"testing"

	"evalview/model"
	"evalview/tui/sheets/columns"
)

// At 100x30 the run list keeps the score on screen (it used to be pushed
// off by the status and attempts columns).
func TestRunListKeepsScoreWhenNarrow(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{runValidFixture()}, 100, 30)
	lines := strings.Split(screen(m), "\n")
	head := lines[m.layout.List.Y]
	row := lines[m.layout.List.Y+1]
	for _, want := range []string{"id", "category", "title", "score"} {
		if !strings.Contains(head, want) {
			t.Errorf("heading %q lacks %q", head, want)
		}
	}
	if !strings.Contains(row, "8.85") || !strings.Contains(row, "life") {
		t.Errorf("first row %q lacks its category or score", row)
	}
	if strings.Contains(head, "status") {
		t.Errorf("heading %q: status should give way first", head)
	}
}

// The chooser says which shown columns a narrow pane drops; choosing
// columns keeps them all, and d goes back to the priorities.
func TestColumnsSheetPicksDroppedColumn(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{runValidFixture()}, 100, 30)
	press(m, "c")
	s := screen(m)
	if !strings.Contains(s, "sample_status · no room now (space keeps it)") {
		t.Fatalf("chooser does not say status has no room:\n%s", s)
	}
	cs := m.sheets.top().(*columns.Sheet)
	for cs.Current() != "sample_status" {
		press(m, "j")
	}
	if picked(m) {
		t.Fatal("moving the cursor should not pick columns")
	}
	press(m, "space", "esc")
	head := strings.Split(screen(m), "\n")[m.layout.List.Y]
	if !strings.Contains(head, "sam") || !strings.Contains(head, "score") {
		t.Errorf("picked status column not shown: %q", head)
	}
	press(m, "c", "d", "esc")
	if picked(m) {
		t.Error("d should go back to the default columns")
	}
	head = strings.Split(screen(m), "\n")[m.layout.List.Y]
	if strings.Contains(head, "sta") {
		t.Errorf("defaults at 100x30 should drop status again: %q", head)
	}
}

// While a sheet is open the status bar names it, not the scroll position
// of the detail it covers.
func TestStatusNamesOpenSheet(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{runValidFixture()}, 100, 30)
	press(m, "2") // Responses: long enough to scroll
	status := func() string { return strings.Split(screen(m), "\n")[m.layout.Status.Y] }
	if !strings.Contains(status(), "Responses") {
		t.Fatalf("status bar before: %q", status())
	}
	for _, k := range []string{"c", "v", "F"} {
		press(m, k)
		s := m.sheets.top()
		if s == nil {
			t.Fatalf("%s opened no sheet", k)
		}
		if st := status(); !strings.Contains(st, s.Title()) || strings.Contains(st, "Responses") {
			t.Errorf("%s: status bar %q, want the sheet title %q", k, st, s.Title())
		}
		press(m, "esc")
	}
}
