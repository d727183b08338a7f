package tui

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"evalview/internal/termsafe"
	"evalview/tui/detail"
	txt "evalview/tui/text"
)

// focusedClipFor picks what the copy keys act on: in the list, the ids
// of the selection, else the record's source JSON; in the detail, what
// the detail shows (detail.Pane.Clip). Without withText the clip's text
// is left empty where building it costs (the record JSON may read long
// rows back from the file), for Y, which copies the path only.
func (m *Model) focusedClipFor(withText bool) (detail.Clip, bool) {
	if len(m.datasets) == 0 || m.detail.Record() == nil {
		return detail.Clip{}, false
	}
	if m.focus == focusDetail {
		return m.detail.Clip(withText)
	}
	if rows := m.list.SelectedRows(); len(rows) > 0 {
		// The selection: its ids, one a line, to paste anywhere.
		ids := recordIDs(m.datasets[m.cur], rows)
		for i, id := range ids {
			ids[i] = txt.OneLine(id)
		}
		return detail.Clip{What: "ids of " + txt.Plural(len(ids), "selected record"), Text: strings.Join(ids, "\n") + "\n", Path: "."}, true
	}
	return m.detail.RecordClip(withText)
}

// copyFocused copies the focused text (`y`), or its path (`Y`).
func (m *Model) copyFocused(path bool) tea.Cmd {
	c, ok := m.focusedClipFor(!path)
	if !ok {
		m.note = "nothing to copy: no record is shown"
		return nil
	}
	if c.Absent != "" {
		m.note = "nothing to copy: " + txt.OneLine(c.Absent)
		return nil
	}
	if path {
		// A path is short: show it rather than its byte count.
		m.flash = "copied path of the " + c.What + ": " + txt.Truncate(txt.OneLine(c.Path), 60)
		return copyText(termsafe.Line(c.Path))
	}
	text := c.Payload()
	if len(text) > osc52Max {
		// Terminals freeze on a huge OSC 52 sequence: only the system
		// clipboard tool may take it.
		tool := clipboardTool()
		if tool == nil {
			m.note = fmt.Sprintf("too large to copy over the terminal (%.1f MB): use o to open it in $PAGER", float64(len(text))/(1<<20))
			return nil
		}
		m.flash = "copied " + c.What + " (" + strconv.Itoa(len(text)) + " bytes, with " + tool[0] + ")"
		return systemClipboardCmd(text)
	}
	m.flash = "copied " + c.What + " (" + strconv.Itoa(len(text)) + " bytes)"
	return copyText(text)
}

// osc52Max is the most text `y` sends over OSC 52 (a variable for tests).
var osc52Max = 1 << 20

// copyText puts text on the clipboard: through OSC 52, which works over
// SSH and inside tmux, and with the system's clipboard tool as a fallback
// when one is installed and a desktop session is there.
func copyText(text string) tea.Cmd {
	return tea.Batch(tea.SetClipboard(text), systemClipboardCmd(text))
}

// clipboardTool finds wl-copy, xclip or pbcopy for the session.
func clipboardTool() []string {
	var cands [][]string
	switch {
	case runtime.GOOS == "darwin":
		cands = [][]string{{"pbcopy"}}
	case os.Getenv("WAYLAND_DISPLAY") != "":
		cands = [][]string{{"wl-copy"}, {"xclip", "-selection", "clipboard"}}
	case os.Getenv("DISPLAY") != "":
		cands = [][]string{{"xclip", "-selection", "clipboard"}}
	}
	for _, c := range cands {
		if _, err := exec.LookPath(c[0]); err == nil {
			return c
		}
	}
	return nil
}

// systemClipboardCmd feeds text to the system clipboard tool, if any; its
// failure is silent (OSC 52 went out anyway).
func systemClipboardCmd(text string) tea.Cmd {
	tool := clipboardTool()
	if tool == nil {
		return nil
	}
	return func() tea.Msg {
		cmd := exec.Command(tool[0], tool[1:]...)
		cmd.Stdin = strings.NewReader(text)
		_ = cmd.Run()
		return nil
	}
}
