package tui

import (
	"strings"
	"testing"

	"evalview/tui/sheets/datasets"
	"evalview/tui/sheets/runs"
	"evalview/tui/ui"
)

// topName is the sheet on screen, "" over the list and detail.
func topName(m *Model) string {
	switch m.sheets.top().(type) {
	case nil:
		return ""
	case *runs.Sheet:
		return "runs"
	case *datasets.Sheet:
		return "picker"
	}
	if m.sheets.top() == ui.Sheet(m.overview) {
		return "overview"
	}
	return "other"
}

// TestEscGoesBack: esc goes back along where the user came from, across
// the overview, the runs of a task, a record opened from them and the
// picker, and the help line says where; it was a toggle between the
// list and the overview.
func TestEscGoesBack(t *testing.T) {
	m := newOverviewModel(t, overviewFixtures(3), 100, 30)
	if got := topName(m); got != "overview" {
		t.Fatalf("first screen: %q", got)
	}
	start := m.cur
	// The overview to a task's list, and back.
	press(m, "g", "enter")
	if topName(m) != "" || !strings.Contains(footer(m), "esc to overview") {
		t.Fatalf("enter: on %q, help %q", topName(m), footer(m))
	}
	press(m, "esc")
	if topName(m) != "overview" {
		t.Fatalf("esc from the list: on %q", topName(m))
	}
	// The first screen: esc shows the list, and there it goes no further.
	press(m, "esc")
	if topName(m) != "" || m.trail.Len() != 0 || strings.Contains(footer(m), "esc to") {
		t.Fatalf("esc on the first screen: on %q, trail %d, help %q", topName(m), m.trail.Len(), footer(m))
	}
	// list -> T -> C (the runs of a task) -> enter (a doc in a run) ->
	// the detail, then back, one esc at a time.
	press(m, "T", "g", "C")
	if topName(m) != "runs" || !strings.Contains(footer(m), "esc to overview") {
		t.Fatalf("C: on %q, help %q", topName(m), footer(m))
	}
	press(m, "enter")
	if topName(m) != "" {
		t.Fatalf("enter in the runs: on %q (%s)", topName(m), m.note)
	}
	opened := m.cur
	press(m, "enter")
	if m.focus != focusDetail {
		t.Fatal("enter did not open the detail")
	}
	for i, want := range []string{"", "runs", "overview", ""} {
		press(m, "esc")
		if got := topName(m); got != want {
			t.Fatalf("esc %d: on %q, want %q", i+1, got, want)
		}
		if i == 0 && (m.focus != focusList || m.cur != opened) {
			t.Fatalf("esc from the detail: focus %v, dataset %d", m.focus, m.cur)
		}
	}
	if m.trail.Len() != 0 {
		t.Errorf("the trail keeps %d places at its start", m.trail.Len())
	}
	// The picker over the overview: a dataset chosen, esc comes back to
	// the overview, on the dataset shown before.
	press(m, "T", "D", "j", "enter")
	if topName(m) != "" || m.cur == start && len(m.datasets) > 1 && m.cur == opened {
		t.Fatalf("picker: on %q, dataset %d", topName(m), m.cur)
	}
	press(m, "esc")
	if topName(m) != "overview" || m.cur != opened {
		t.Errorf("esc after the picker: on %q, dataset %d, want the overview on %d", topName(m), m.cur, opened)
	}
}
