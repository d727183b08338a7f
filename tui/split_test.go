package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
)

// splitModel opens the fixture with its layout remembered in state.
func splitModel(t *testing.T, state string, w, h int) *Model {
	t.Helper()
	t.Setenv("NO_COLOR", "1")
	m := New([]*model.Dataset{lmevalFixture()}, Options{Theme: "dark", State: state})
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// TestSplitResizesAndIsRemembered: ctrl+→ and ctrl+← move the border
// between the list and the detail, a drag of the border moves it to the
// pointer, and the next run opens with the split as it was left.
func TestSplitResizesAndIsRemembered(t *testing.T) {
	state := filepath.Join(t.TempDir(), "evalview", "layout.json")
	m := splitModel(t, state, 120, 30)
	w0 := m.layout.List.W
	press(m, "ctrl+right")
	if m.layout.List.W <= w0 || m.layout.Detail.W >= 120-w0-1 {
		t.Fatalf("ctrl+right: list %d (was %d), detail %d", m.layout.List.W, w0, m.layout.Detail.W)
	}
	press(m, "ctrl+left", "ctrl+left")
	if m.layout.List.W >= w0 {
		t.Errorf("ctrl+left twice: list %d, was %d", m.layout.List.W, w0)
	}
	checkFits(t, screen(m), 120, 30)
	// Drag the border to column 72.
	x := m.layout.Divider.X
	send(m, tea.MouseClickMsg{X: x, Y: m.layout.Body.Y + 3, Button: tea.MouseLeft})
	send(m, tea.MouseMotionMsg{X: 72, Y: m.layout.Body.Y + 3, Button: tea.MouseLeft})
	send(m, tea.MouseReleaseMsg{X: 72, Y: m.layout.Body.Y + 3, Button: tea.MouseLeft})
	if m.layout.Divider.X != 72 || m.split.Dragging() {
		t.Fatalf("drag to 72: border at %d, dragging %v", m.layout.Divider.X, m.split.Dragging())
	}
	data, err := os.ReadFile(state)
	if err != nil || !strings.Contains(string(data), `"split":60`) {
		t.Fatalf("remembered: %q, %v", data, err)
	}
	// The next run opens with the border where it was left; stacked,
	// the same share of the height.
	if n := splitModel(t, state, 120, 30); n.layout.Divider.X != 72 {
		t.Errorf("next run: border at %d, want 72", n.layout.Divider.X)
	}
	if n := splitModel(t, state, 80, 30); !n.layout.Stacked || n.layout.List.H != n.layout.Body.H*60/100 {
		t.Errorf("stacked: list %d of %d", n.layout.List.H, n.layout.Body.H)
	}
	// A file evalview did not write is not taken: the default split.
	if err := os.WriteFile(state, []byte(`{"split": 99}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if n := splitModel(t, state, 120, 30); n.layout != ComputeLayout(120, 30) {
		t.Errorf("a split out of bounds was taken: %+v", n.layout.List)
	}
	// Without a state file nothing is written.
	m = splitModel(t, "", 120, 30)
	press(m, "ctrl+right")
	if m.layout.List.W <= w0 {
		t.Error("ctrl+right without a state file")
	}
}

// TestComputeLayoutSplitKeepsRoom: whatever the split, each pane keeps
// room and the panes fill the body.
func TestComputeLayoutSplitKeepsRoom(t *testing.T) {
	for _, size := range [][2]int{{60, 15}, {80, 24}, {96, 30}, {200, 50}} {
		for _, split := range []int{1, 15, 40, 85, 100} {
			l := ComputeLayoutSplit(size[0], size[1], split)
			if l.Stacked {
				if l.List.H < 3 || l.Detail.H < 3 || l.List.H+l.Detail.H != l.Body.H {
					t.Errorf("%v split %d: list %d detail %d of %d", size, split, l.List.H, l.Detail.H, l.Body.H)
				}
				continue
			}
			if l.List.W < minPaneWidth || l.Detail.W < minPaneWidth || l.List.W+1+l.Detail.W != l.Width {
				t.Errorf("%v split %d: list %d detail %d", size, split, l.List.W, l.Detail.W)
			}
		}
	}
}
