package tui

import (
	"encoding/json"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"evalview/internal/safefile"
	"evalview/internal/xdg"
	"evalview/tui/ui"
)

// The list/detail split: the share of the body the list takes, moved by
// keys (Global.SplitLeft, SplitRight) and by dragging the border between
// the panes, and remembered between runs in a small JSON file in the
// state folder (Options.State).

// StatePath is the file the browser remembers its layout in:
// $XDG_STATE_HOME/evalview/layout.json (~/.local/state/...); "" when the
// home folder is unknown.
func StatePath() string {
	dir, err := xdg.Dir("XDG_STATE_HOME", filepath.Join(".local", "state"))
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "evalview", "layout.json")
}

// layoutState is the layout file's content.
type layoutState struct {
	// Split is the list's share of the body in percent; 0 the default.
	Split int `json:"split"`
}

// loadSplit reads the split remembered in path: 0 (the default) when
// there is none or the file is not one evalview wrote, which the next
// save replaces.
func loadSplit(path string) int {
	if path == "" {
		return 0
	}
	data, err := safefile.ReadFile(path, 4096)
	if err != nil {
		return 0
	}
	var st layoutState
	if json.Unmarshal(data, &st) != nil || st.Split < minSplit || st.Split > maxSplit {
		return 0
	}
	return st.Split
}

// saveSplit writes split to path, replacing the file by a rename (never
// through a link), its folder made when missing.
func saveSplit(path string, split int) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	data, _ := json.Marshal(layoutState{Split: split})
	return safefile.WriteAtomic(path, append(data, '\n'), 0o600)
}

// splitNow is the split in use: the user's, or the default's share at
// this size (for the keys to move from).
func (m *Model) splitNow() int {
	if m.split > 0 {
		return m.split
	}
	l := ComputeLayout(m.layout.Width, m.layout.Height)
	if l.Stacked {
		return max(1, l.List.H*100/max(1, l.Body.H))
	}
	return max(1, l.List.W*100/max(1, l.Width))
}

// setSplit moves the split to percent (kept in bounds) and lays the
// panes out again; save remembers it.
func (m *Model) setSplit(percent int, save bool) tea.Cmd {
	m.split = max(minSplit, min(percent, maxSplit))
	m.relayout()
	if !save {
		return nil
	}
	return m.saveSplit()
}

// saveSplit remembers the split, off the event loop; a failure is said
// in the status bar.
func (m *Model) saveSplit() tea.Cmd {
	path, split := m.opts.State, m.split
	if path == "" {
		return nil
	}
	return ui.SafeCmd(func() tea.Msg {
		if err := saveSplit(path, split); err != nil {
			return ui.NoteMsg{Text: "the split is not remembered: " + err.Error()}
		}
		return nil
	})
}

// relayout lays the panes out again at the window's size.
func (m *Model) relayout() {
	if !m.ready {
		return
	}
	m.handleWindowSize(tea.WindowSizeMsg{Width: m.layout.Width, Height: m.layout.Height})
}

// onDivider reports whether the cell (x, y) is on the border between
// the panes side by side, where a drag moves the split.
func (m *Model) onDivider(x, y int) bool {
	l := m.layout
	return !l.Stacked && l.Divider.W > 0 && x == l.Divider.X && y >= l.Body.Y && y < l.Body.Y+l.Body.H
}

// dragTo moves the border to column x while it is dragged.
func (m *Model) dragTo(x int) tea.Cmd {
	if m.layout.Width <= 0 {
		return nil
	}
	return m.setSplit((x*100+m.layout.Width/2)/m.layout.Width, false)
}
