package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/detail"
)

// sentMsgs runs cmd and the batches it leads to, returning every message
// (timers skipped) without delivering them.
func sentMsgs(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg, ok := runQuick(cmd)
	if !ok || msg == nil {
		return nil
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, sentMsgs(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// hasOSC52 reports whether msgs hold a clipboard message for the terminal.
func hasOSC52(msgs []tea.Msg) bool {
	for _, msg := range msgs {
		if strings.Contains(fmt.Sprintf("%T", msg), "Clipboard") {
			return true
		}
	}
	return false
}

func TestCopyTooLargeForOSC52(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("fakes xclip on an X11 session")
	}
	old := osc52Max
	osc52Max = 20 // the record JSON is larger
	defer func() { osc52Max = old }()
	t.Setenv("WAYLAND_DISPLAY", "")

	t.Run("no clipboard tool", func(t *testing.T) {
		t.Setenv("DISPLAY", "")
		m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 30)
		_, cmd := m.Update(keyMsg("y"))
		if hasOSC52(sentMsgs(cmd)) {
			t.Error("a text above the limit went out over OSC 52")
		}
		if !strings.Contains(m.note, "too large to copy over the terminal (0.0 MB): use o to open it in $PAGER") {
			t.Errorf("status note %q", m.note)
		}
	})
	t.Run("system clipboard tool", func(t *testing.T) {
		bin := t.TempDir()
		got := filepath.Join(bin, "clipboard")
		script := "#!/bin/sh\ncat > " + got + "\n"
		if err := os.WriteFile(filepath.Join(bin, "xclip"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("DISPLAY", ":0")
		t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 30)
		_, cmd := m.Update(keyMsg("y"))
		if hasOSC52(sentMsgs(cmd)) {
			t.Error("a text above the limit went out over OSC 52")
		}
		want := detail.RecordJSON(m.detail.Record())
		if b, err := os.ReadFile(got); err != nil || string(b) != want {
			t.Errorf("xclip got %q (%v), want the record JSON %q", b, err, want)
		}
		if !strings.Contains(m.flash, "with xclip") {
			t.Errorf("status %q", m.flash)
		}
	})
	t.Run("small text", func(t *testing.T) {
		osc52Max = 1 << 20
		t.Setenv("DISPLAY", "")
		m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 30)
		_, cmd := m.Update(keyMsg("y"))
		if !hasOSC52(sentMsgs(cmd)) {
			t.Error("a small text did not go out over OSC 52")
		}
	})
}
