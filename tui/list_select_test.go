package tui

import (
	"strings"
	"testing"

	"evalview/model"
)

// TestSelectionActsOnManyRecords: p, P and * select; the status bar counts
// them; l, a, w and y act on every selected record at once; esc clears.
func TestSelectionActsOnManyRecords(t *testing.T) {
	store := newMemNotes()
	var exported []int
	t.Setenv("NO_COLOR", "1")
	m := New([]*model.Dataset{lmevalFixture()}, Options{Theme: "dark",
		Notes: func(*model.Dataset) NoteStore { return store },
		Export: func(path string, ds *model.Dataset, rows []int, filter int, _ *float64) (int, error) {
			exported = rows
			return len(rows), nil
		}})
	drive(m, m.Init())
	send(m, windowSize(120, 30))

	press(m, "p") // record 0, the cursor moves down
	if sel, _ := m.list.Selected(); sel != 1 || !m.list.IsSelected(0) {
		t.Fatalf("p: cursor on %d, selected %v", sel, m.list.SelectedRows())
	}
	press(m, "j", "j", "P") // the range from 0 to 3
	if got := m.list.SelectedRows(); len(got) != 4 || got[3] != 3 {
		t.Fatalf("P: selected %v, want 0..3", got)
	}
	if s := screen(m); !strings.Contains(s, "4 selected") || !strings.Contains(s, "▸•") {
		t.Errorf("the selection does not show:\n%s", s)
	}
	press(m, "esc")
	if len(m.list.SelectedRows()) != 0 {
		t.Fatalf("esc left %v selected", m.list.SelectedRows())
	}

	// A query selects: narrow the list, select all shown, widen it again.
	drive(m, m.setListQuery("status=fail"))
	press(m, "*")
	drive(m, m.setListQuery(""))
	if got := m.list.SelectedRows(); len(got) != 2 || got[0] != 3 || got[1] != 4 {
		t.Fatalf("* on status=fail selected %v, want 3 4", got)
	}
	press(m, "L")
	if p := prompt(m); p == nil || !strings.Contains(p.prefix, "add labels to 2 selected records") {
		t.Fatalf("l with a selection: %+v", prompt(m))
	}
	typeText(m, "extraction bug")
	press(m, "enter")
	for _, id := range []string{"3", "4"} {
		if got, _ := store.Get(id); strings.Join(got, "|") != "extraction bug" {
			t.Errorf("labels of %s: %v", id, got)
		}
	}
	if store.saves != 1 {
		t.Errorf("%d saves for a selection, want one write", store.saves)
	}
	if s := screen(m); !strings.Contains(s, "labelled 2 records") {
		t.Errorf("no confirmation:\n%s", s)
	}
	press(m, "a")
	typeText(m, "regex misses the dollar")
	press(m, "enter")
	if _, n := store.Get("4"); n != "regex misses the dollar" {
		t.Errorf("note of 4: %q", n)
	}
	press(m, "w", "ctrl+u")
	typeText(m, "/tmp/h18-selected.jsonl")
	press(m, "enter")
	if len(exported) != 2 || exported[0] != 3 || exported[1] != 4 {
		t.Errorf("w exported %v, want the selection 3 4", exported)
	}
	c, _ := m.focusedClipFor(true)
	if c.Text != "3\n4\n" || !strings.Contains(c.What, "2 selected records") {
		t.Errorf("y would copy %q (%s)", c.Text, c.What)
	}
}

// TestRepeatLabel: `.` gives the labels last added to the row under the
// cursor and moves down, keeping the labels the row had.
func TestRepeatLabel(t *testing.T) {
	store := newMemNotes()
	store.labels["2"] = []string{"flaky"}
	m := newNotesModel(t, store, 120, 30)
	press(m, ".")
	if !strings.Contains(screen(m), "label a record with l first") {
		t.Errorf(". before any label says nothing:\n%s", screen(m))
	}
	press(m, "L")
	typeText(m, "wrong reasoning")
	press(m, "enter", "j", ".", ".")
	for id, want := range map[string]string{"0": "wrong reasoning", "1": "wrong reasoning", "2": "flaky|wrong reasoning"} {
		if got, _ := store.Get(id); strings.Join(got, "|") != want {
			t.Errorf("labels of %s: %v, want %s", id, got, want)
		}
	}
	if sel, _ := m.list.Selected(); sel != 3 {
		t.Errorf("cursor on %d after two dots from 1, want 3", sel)
	}
}
