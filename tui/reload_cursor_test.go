package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
)

// TestReloadKeepsCursorOnRecordNotYetRead: a reload (r, and follow mode
// as a file grows) whose new index has not yet read the cursor's record
// puts the cursor on it when the list takes it in; a key pressed before
// then leaves the cursor where the user put it.
func TestReloadKeepsCursorOnRecordNotYetRead(t *testing.T) {
	var next *growingIndex
	reopen := func(*model.Dataset) (*model.Dataset, error) {
		ds := bigDataset(400)
		next = &growingIndex{recs: ds.Records.(*model.MemIndex).Recs, n: 58}
		ds.Records = next
		return ds, nil
	}
	for _, keyFirst := range []bool{false, true} {
		t.Setenv("NO_COLOR", "1")
		m := New([]*model.Dataset{bigDataset(300)}, Options{Theme: "dark", Reopen: reopen})
		drive(m, m.Init())
		send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
		press(m, "G", "k", "k")
		if got := selected(t, m); got != 297 {
			t.Fatalf("cursor on %d, want 297", got)
		}
		press(m, "r")
		if keyFirst {
			press(m, "g")
		}
		next.grow(400, true)
		send(m, indexTickMsg{})
		want := 297
		if keyFirst {
			want = 0
		}
		if got := selected(t, m); got != want {
			t.Errorf("key first %v: cursor on record %d once the index read it, want %d", keyFirst, got, want)
		}
		if m.restore.id != "" {
			t.Errorf("key first %v: still waiting for record %q", keyFirst, m.restore.id)
		}
	}
}
