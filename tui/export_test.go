package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/model"
)

func TestExportPrompt(t *testing.T) {
	var gotPath string
	var gotRows []int
	opts := Options{Theme: "dark", Export: func(path string, ds *model.Dataset, rows []int, filter int, _ *float64) (int, error) {
		gotPath, gotRows = path, rows
		return len(rows), nil
	}}
	t.Setenv("NO_COLOR", "1")
	m := New([]*model.Dataset{lmevalFixture()}, opts)
	drive(m, m.Init())
	send(m, windowSize(120, 30))
	drive(m, m.setListQuery("status=fail"))
	m.list.SetColumn("score")
	press(m, "s", "S") // score↓: 3 then 4 (stable)
	press(m, "w")
	if prompt(m) == nil || !strings.Contains(screen(m), "export 2 records to:") {
		t.Fatalf("w prompt:\n%s", screen(m))
	}
	press(m, "ctrl+u")
	typeText(m, "/tmp/out.csv")
	press(m, "enter")
	if gotPath != "/tmp/out.csv" || len(gotRows) != 2 || gotRows[0] != 3 || gotRows[1] != 4 {
		t.Errorf("exported %q rows %v", gotPath, gotRows)
	}
	if !strings.Contains(screen(m), "exported 2 records to /tmp/out.csv") {
		t.Errorf("no confirmation:\n%s", screen(m))
	}
}

func TestReloadKeepsCursorAndQuery(t *testing.T) {
	calls := 0
	opts := Options{Theme: "dark", Reopen: func(ds *model.Dataset) (*model.Dataset, error) {
		calls++
		fresh := lmevalFixture()
		// The file grew: a doc before the selected one changes nothing,
		// the cursor follows the id.
		return fresh, nil
	}}
	t.Setenv("NO_COLOR", "1")
	m := New([]*model.Dataset{lmevalFixture()}, opts)
	drive(m, m.Init())
	send(m, windowSize(120, 30))
	drive(m, m.setListQuery("status=fail"))
	press(m, "j") // doc 4
	press(m, "r")
	if calls != 1 {
		t.Fatalf("reopen called %d times", calls)
	}
	if sel, _ := m.list.Selected(); sel != 4 || m.list.Where() != "status=fail" || len(m.list.Visible()) != 2 {
		t.Errorf("after reload: record %d, where %q, %d rows", sel, m.list.Where(), len(m.list.Visible()))
	}
	if m.detail.Record() == nil || m.detail.Record().ID != "4" {
		t.Errorf("detail after reload: %v", m.detail.Record())
	}
}

func TestEditorGetsATemporaryCopy(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "seen")
	script := filepath.Join(dir, "ed.sh")
	// The "editor" records the file it was given and its content.
	os.WriteFile(script, []byte("#!/bin/sh\necho \"$1\" > "+log+"\ncat \"$1\" >> "+log+"\n"), 0o755)
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", script)
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
	cmd := m.openExternal(true)
	if cmd == nil {
		t.Fatal("no command")
	}
	// tea.ExecProcess needs a program; run the same steps by hand.
	c, _ := m.focusedClipFor(true)
	if c.What != "record JSON" {
		t.Fatalf("clip %q", c.What)
	}
	_ = cmd // the command is an exec message: running it needs a terminal
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), "evalview-*.json"))
	if len(matches) == 0 {
		t.Fatal("no temporary copy written")
	}
	for _, p := range matches {
		defer os.Remove(p)
	}
	msg := externalDoneMsg{editor: true, what: "record JSON"}
	send(m, msg)
	if !strings.Contains(screen(m), "edits are discarded") {
		t.Errorf("the status does not say edits are discarded:\n%s", screen(m))
	}
}
