package tui

import (
	tea "charm.land/bubbletea/v2"

	"evalview/tui/ui"
)

// wheelStep is how many lines or rows one wheel notch moves.
const wheelStep = 3

// handleWheel scrolls the pane under the pointer.
func (m *Model) handleWheel(msg tea.MouseWheelMsg) tea.Cmd {
	if !m.ready || m.layout.TooSmall {
		return nil
	}
	ms := msg.Mouse()
	var d int
	switch ms.Button {
	case tea.MouseWheelDown:
		d = wheelStep
	case tea.MouseWheelUp:
		d = -wheelStep
	default:
		return nil
	}
	l := m.layout
	w, wheels := m.sheets.top().(ui.Wheeler)
	switch {
	case wheels:
		w.Wheel(d)
	case l.List.Contains(ms.X, ms.Y):
		return m.list.MoveBy(d)
	case l.Detail.Contains(ms.X, ms.Y):
		m.detail.Scroll(d)
	}
	return nil
}

// handleClick selects the list row, the tab or the dataset switcher under
// the pointer, and focuses the pane clicked.
func (m *Model) handleClick(msg tea.MouseClickMsg) tea.Cmd {
	ms := msg.Mouse()
	if !m.ready || m.layout.TooSmall || ms.Button != tea.MouseLeft {
		return nil
	}
	l := m.layout
	c, clicks := m.sheets.top().(ui.Clicker)
	switch {
	case clicks:
		if l.Body.Contains(ms.X, ms.Y) {
			return c.Click(ms.X-l.Body.X, ms.Y-l.Body.Y)
		}
		return nil
	case l.onDivider(ms.X, ms.Y):
		m.split.Grab() // the border between the panes: a drag moves it
		return nil
	case ms.Y == 0 && m.header.SwitchAt(ms.X) != 0:
		// The left half of "‹ dataset 2/5 ›" goes back, the right half on.
		return m.switchDataset(m.cur + m.header.SwitchAt(ms.X))
	case l.List.Contains(ms.X, ms.Y):
		m.focus = focusList
		return m.list.Click(ms.X-l.List.X, ms.Y-l.List.Y)
	case l.Detail.Contains(ms.X, ms.Y):
		m.focus = focusDetail
		return m.detail.Click(ms.X-l.Detail.X, ms.Y-l.Detail.Y)
	}
	return nil
}
