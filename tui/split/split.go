// Package split is the list/detail split: the share of the body the list
// takes, moved by keys (Global.SplitLeft, SplitRight) and by dragging the
// border between the panes, and remembered between runs in a small JSON
// file in the state folder (Options.State). The root lays the panes out
// from Percent; the split knows nothing of the layout but the share.
package split

import (
	"encoding/json"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"evalview/internal/safefile"
	"evalview/internal/xdg"
	"evalview/tui/ui"
)

// Bounds: the share of the body the list takes, in percent, that the keys
// and a drag of the border move between (0 is the default), and how far
// a key moves it.
const (
	Min  = 15
	Max  = 85
	Step = 5
)

// Clamp keeps a share within bounds; 0, the default, stays 0.
func Clamp(percent int) int {
	if percent <= 0 {
		return percent
	}
	return max(Min, min(percent, Max))
}

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

// Split is the list's share of the body, where it is remembered, and
// whether the border is being dragged.
type Split struct {
	// path is the layout file; "" remembers nothing.
	path string
	// percent is the list's share of the body, 0 the default.
	percent  int
	dragging bool
}

// Load is the split remembered in path (Options.State).
func Load(path string) Split { return Split{path: path, percent: load(path)} }

// Percent is the list's share of the body in percent, 0 the default.
func (s *Split) Percent() int { return s.percent }

// Now is the split in use: the user's, or def, the default's share at
// this size (for the keys to move from).
func (s *Split) Now(def int) int {
	if s.percent > 0 {
		return s.percent
	}
	return def
}

// Set moves the split to percent, kept in bounds.
func (s *Split) Set(percent int) { s.percent = max(Min, min(percent, Max)) }

// Grab starts a drag of the border; Dragging reports one under way.
func (s *Split) Grab()          { s.dragging = true }
func (s *Split) Dragging() bool { return s.dragging }

// DragTo moves the border to column x of a body width wide while it is
// dragged; false when there is no width to move in.
func (s *Split) DragTo(x, width int) bool {
	if width <= 0 {
		return false
	}
	s.Set((x*100 + width/2) / width)
	return true
}

// Drop ends a drag and remembers where the border was left.
func (s *Split) Drop() tea.Cmd {
	s.dragging = false
	return s.Save()
}

// layoutState is the layout file's content.
type layoutState struct {
	// Split is the list's share of the body in percent; 0 the default.
	Split int `json:"split"`
}

// load reads the split remembered in path: 0 (the default) when there
// is none or the file is not one evalview wrote, which the next save
// replaces.
func load(path string) int {
	if path == "" {
		return 0
	}
	data, err := safefile.ReadFile(path, 4096)
	if err != nil {
		return 0
	}
	var st layoutState
	if json.Unmarshal(data, &st) != nil || st.Split < Min || st.Split > Max {
		return 0
	}
	return st.Split
}

// save writes split to path, replacing the file by a rename (never
// through a link), its folder made when missing.
func save(path string, split int) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	data, _ := json.Marshal(layoutState{Split: split})
	return safefile.WriteAtomic(path, append(data, '\n'), 0o600)
}

// Save remembers the split, off the event loop; a failure is said in
// the status bar.
func (s *Split) Save() tea.Cmd {
	path, split := s.path, s.percent
	if path == "" {
		return nil
	}
	return ui.SafeCmd(func() tea.Msg {
		if err := save(path, split); err != nil {
			return ui.NoteMsg{Text: "the split is not remembered: " + err.Error()}
		}
		return nil
	})
}
