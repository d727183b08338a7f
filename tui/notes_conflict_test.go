package tui

import (
	"strings"
	"testing"

	"evalview/model"
	"evalview/tui/list"
)

// TestSaveReportsAConflict: a save that merged another window's change
// to the record says so in the status bar (with what was kept), where a
// clean save says where the notes went.
func TestSaveReportsAConflict(t *testing.T) {
	store := newMemNotes()
	m := newNotesModel(t, store, 200, 30)
	press(m, "j")
	drive(m, m.openLabelPrompt())
	if store.refreshes != 1 {
		t.Errorf("the label prompt read the notes again %d times, want 1", store.refreshes)
	}
	store.conflicts = []model.NoteConflict{{Artifact: "a", ID: "1", Labels: []string{"from b", "from a"}, Note: "two; notes"}}
	typeText(m, "from a")
	press(m, "enter")
	want := "record 1 was changed in another window too: both changes kept (labels: from b, from a; note: two; notes) in /tmp/x.evalview-notes.jsonl"
	if m.note != want || m.flash != "" {
		t.Errorf("status note %q flash %q\nwant %q", m.note, m.flash, want)
	}
	if !strings.Contains(screen(m), want) {
		t.Errorf("the status bar does not show it:\n%s", screen(m))
	}
	drive(m, m.openNotePrompt())
	if store.refreshes != 2 {
		t.Errorf("the note prompt did not read the notes again")
	}
	press(m, "esc")
	// Several records (a selection, or edits kept while the lock was
	// held): the count and the first ids.
	got := conflictNote([]model.NoteConflict{{ID: "1"}, {ID: "2"}, {ID: "3"}, {ID: "4"}}, "/n.jsonl")
	if got != "4 records were changed in another window too: both changes kept (1, 2, 3, …) in /n.jsonl" {
		t.Errorf("several: %q", got)
	}
	// Ids and labels from the data are shown on one line, controls visible.
	got = conflictNote([]model.NoteConflict{{ID: "x\x1b]52;c;aGk=\x07", Labels: []string{"a\nb"}}}, "/n.jsonl")
	if strings.ContainsAny(got, "\x1b\x07\n") {
		t.Errorf("raw controls in %q", got)
	}
}

// TestRepeatLabelStopsAtAConflict: `.` labels the row and moves down, but
// stays on a row whose save merged another window's change, so that the
// status bar's word about it is read with the row in view.
func TestRepeatLabelStopsAtAConflict(t *testing.T) {
	store := newMemNotes()
	m := newNotesModel(t, store, 200, 30)
	m.lastLabels = []string{"flaky"}
	send(m, list.RepeatLabelMsg{})
	if id, _ := m.currentRecordID(); id != "1" || !strings.Contains(m.flash, "labelled flaky") {
		t.Fatalf("after a clean `.`: on record %s, flash %q", id, m.flash)
	}
	store.conflicts = []model.NoteConflict{{ID: "1", Labels: []string{"flaky", "other"}}}
	send(m, list.RepeatLabelMsg{})
	if id, _ := m.currentRecordID(); id != "1" || !strings.Contains(m.note, "record 1 was changed in another window too") {
		t.Errorf("after a `.` that merged: on record %s, note %q", id, m.note)
	}
}
