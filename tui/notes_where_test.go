package tui

import (
	"strings"
	"testing"
)

// locatedNotes is memNotes whose notes are kept in two files, as
// loaders/notes merges a sidecar and a fallback.
type locatedNotes struct{ *memNotes }

func (s locatedNotes) Where(id string) string {
	if l, n := s.Get(id); len(l) == 0 && n == "" {
		return ""
	}
	if id == "1" {
		return "/state/evalview/notes/fallback.jsonl"
	}
	return "/data/x.evalview-notes.jsonl"
}

// TestNotePromptSaysWhereItIsKept: the label prompt of a record with a
// note names the file the note is kept in, and a save names the file it
// went to.
func TestNotePromptSaysWhereItIsKept(t *testing.T) {
	store := newMemNotes()
	store.Set("1", []string{"from the fallback"}, "")
	m := newNotesModelWith(t, locatedNotes{store}, 120, 30)
	press(m, "j", "L")
	if s := screen(m); !strings.Contains(s, "kept in /state/evalview/notes/fallback.jsonl") {
		t.Errorf("the prompt does not say where the note is kept:\n%s", s)
	}
	press(m, "esc", "j", "L")
	typeText(m, "x")
	press(m, "enter")
	if s := screen(m); !strings.Contains(s, "notes saved to /data/x.evalview-notes.jsonl") {
		t.Errorf("the status does not say where the note went:\n%s", s)
	}
}
