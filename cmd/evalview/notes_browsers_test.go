package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"evalview/loaders"
	"evalview/loaders/notes"
	"evalview/tui"
)

// window is one browser on an artifact, with its own notes opener, as a
// second evalview process would have.
func window(t *testing.T, art string) tea.Model {
	t.Helper()
	datasets, err := loaders.Open([]string{art}, loaders.Options{})
	if err != nil || len(datasets) != 1 {
		t.Fatalf("%d datasets: %v", len(datasets), err)
	}
	opener := &noteOpener{}
	m := tui.New(datasets, tui.Options{Theme: "dark", Notes: opener.tuiNotes})
	driveProgram(m, m.Init())
	_, cmd := m.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	driveProgram(m, cmd)
	return m
}

// TestTwoBrowsersLabelOneRecord is issue 30's lost label, through the
// browser: two windows on one artifact. B labels a record A labelled
// before: B's prompt starts from A's label (it reads the notes again as
// it opens), and the file keeps both. Then both prompts are open on one
// record at once: B saves first, A's save keeps B's label with its own,
// and A's status bar says the record was changed in another window too.
func TestTwoBrowsersLabelOneRecord(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	art := filepath.Join(dir, filepath.Base(twoFilters))
	data, _ := os.ReadFile(twoFilters)
	os.WriteFile(art, data, 0o644)
	a, b := window(t, art), window(t, art)
	side := notes.SidecarPath(art)
	name := filepath.Base(art)

	pressKeys(a, "j", "L")
	typeKeys(a, "extraction bug")
	pressKeys(a, "enter")
	pressKeys(b, "j", "L")
	typeKeys(b, "wrong reasoning")
	pressKeys(b, "enter")
	if v := b.View().Content; strings.Contains(v, "another window") || !strings.Contains(v, "notes saved to") {
		t.Errorf("B's status after a label made on A's:\n%s", lastLines(v, 2))
	}
	s, _ := notes.Open(art, "")
	if l, _ := s.Get(name, "1"); strings.Join(l, ", ") != "extraction bug, wrong reasoning" {
		t.Errorf("record 1 keeps %v", l)
	}

	pressKeys(a, "j", "L") // A's prompt is open on record 2...
	pressKeys(b, "j", "L") // ...when B labels it and saves
	typeKeys(b, "b's label")
	pressKeys(b, "enter")
	typeKeys(a, "a's label")
	pressKeys(a, "enter")
	want := "record 2 was changed in another window too: both changes kept (labels: b's label, a's label) in " + side
	if v := a.View().Content; !strings.Contains(strings.ReplaceAll(v, "\n", ""), want[:60]) {
		t.Errorf("A's status does not report the conflict %q:\n%s", want, lastLines(v, 2))
	}
	s, _ = notes.Open(art, "")
	if l, _ := s.Get(name, "2"); strings.Join(l, ", ") != "b's label, a's label" {
		t.Errorf("record 2 keeps %v", l)
	}
	// A's window shows both labels (B's learnt at its save); B learns of
	// A's when it next opens the record's prompt.
	pressKeys(b, "L")
	if v := b.View().Content; !strings.Contains(v, "b's label, a's label") {
		t.Errorf("B's prompt does not start from both labels:\n%s", lastLines(v, 3))
	}
	pressKeys(b, "esc")
}

// lastLines is the end of a screen, for messages.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
