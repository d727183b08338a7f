package tui

import (
	"runtime/debug"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"evalview/tui/crash"
	"evalview/tui/detail"
	"evalview/tui/list"
	"evalview/tui/opening"
	"evalview/tui/ui"
)

// Update routes a message to its handler, then derives what follows from
// the state (derive). A panic ends the program cleanly; Run reports it
// with a crash log.
func (m *Model) Update(msg tea.Msg) (next tea.Model, cmd tea.Cmd) {
	defer func() {
		if r := recover(); r != nil {
			m.crash = &crash.Info{Value: r, Stack: debug.Stack()}
			next, cmd = m, tea.Quit
		}
	}()
	cmd, handled := m.routed(msg)
	if !handled {
		m.viewKept = true // the state is as it was: so is the screen
		return m, cmd
	}
	m.viewKept = false
	cmd = tea.Batch(cmd, m.derive())
	if m.busy() {
		cmd = tea.Batch(cmd, m.spinner.start()) // the status bar shows work in progress
	}
	return m, cmd
}

// derive brings what is derived from the state up to date after each
// message: which pane shows the focus, the header's counts under the
// selected filter, the detail's rendering of it, and which keys are
// offered. It is the one place that does, so no handler syncs them by
// hand.
func (m *Model) derive() tea.Cmd {
	m.list.SetFocused(m.focus == focusList)
	m.detail.SetFocused(m.focus == focusDetail)
	m.applyZoom()
	m.header.SetSheet(nil)
	if d, ok := m.sheets.top().(ui.Describer); ok {
		desc := d.Describe()
		m.header.SetSheet(&desc)
	}
	m.header.Refresh()
	cmd := m.detail.Refresh() // nothing when the filter and the rest are as shown
	m.c.BackTo = m.backName()
	m.enableKeys()
	return cmd
}

// rootMsg is a message of the root's own background work (a list filter,
// a reload, an export, a streaming search, a follow tick); it applies
// itself, so the root routes all of them with one case.
type rootMsg interface {
	applyTo(m *Model) tea.Cmd
}

// routed is route, and whether any handler took msg: a message none
// takes (a terminal's report, a mouse motion or release, a key release)
// changes nothing.
func (m *Model) routed(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m.handleWindowSize(msg), true
	case tea.KeyPressMsg:
		m.restore = cursorRestore{} // the user's key, not a reload, places the cursor now
		m.opening.Touch()
		m.pressed++
		return m.handleKey(msg), true
	case tea.PasteMsg:
		if m.input != nil {
			return m.input.paste(msg.Content), true
		}
		if t, ok := m.sheets.top().(ui.Typer); ok && t.Typing() {
			return m.sheets.top().Update(msg), true
		}
		return nil, true
	case tea.MouseWheelMsg:
		return m.handleWheel(msg), true
	case tea.MouseClickMsg:
		m.opening.Touch()
		return m.handleClick(msg), true
	case tea.MouseMotionMsg:
		if !m.split.Dragging() {
			return nil, false // a motion changes nothing
		}
		if m.split.DragTo(msg.Mouse().X, m.layout.Width) {
			m.relayout()
		}
		return nil, true
	case tea.MouseReleaseMsg:
		if !m.split.Dragging() {
			return nil, false
		}
		return m.split.Drop(), true
	case tea.BackgroundColorMsg:
		return m.handleBackground(msg), true
	case recordLoadedMsg:
		return m.handleRecordLoaded(msg), true
	case detail.Msg:
		return m.detail.Update(msg), true
	case detail.BackMsg:
		m.focus = focusList
		return nil, true
	case list.Msg:
		return m.list.Update(msg), true
	case list.CursorMsg:
		return m.selectionChanged(), true
	case list.OpenMsg:
		m.focus = focusDetail
		m.detail.ShowFirstHit()
		return nil, true
	case list.RepeatLabelMsg:
		return m.repeatLabel(), true
	case indexTickMsg:
		m.polling = false
		return m.takeInIndexes(), true
	case indexesDoneMsg:
		return m.takeInIndexes(), true
	case deepTickMsg:
		return m.deep.handleTick(), true
	case deepDoneMsg:
		// Keep the pass's report, refresh the sheets that show it and
		// start the next pass.
		next := m.deep.done(msg)
		redraw := m.sheets.tell(ui.DeepMsg{Dataset: msg.ds})
		if !next {
			return redraw, true // quitting
		}
		return tea.Batch(redraw, m.deep.start(m.datasets, m.cur, anyGrowing(m.datasets))), true
	case spinner.TickMsg:
		return m.spinner.advance(msg, m.busy()), true
	case ui.CrashMsg:
		m.crash = &crash.Info{Value: msg.Value, Stack: msg.Stack}
		return tea.Quit, true
	case opening.Msg:
		return m.takeOpened(), true
	case rootMsg:
		return msg.applyTo(m), true
	}
	return m.handleSheetMsg(msg)
}

// handleWindowSize lays the rooms out again.
func (m *Model) handleWindowSize(msg tea.WindowSizeMsg) tea.Cmd {
	m.ready = true
	m.layout = ComputeLayoutSplit(msg.Width, msg.Height, m.split.Percent())
	l := m.layout
	if l.TooSmall {
		return nil
	}
	m.header.SetSize(l.Header.W, l.Header.H)
	m.list.SetSize(l.List.W, l.List.H)
	m.detail.SetSize(l.Detail.W, l.Detail.H)
	m.status.SetWidth(l.Width)
	m.sheets.resize(m.layout.Body.W, m.layout.Body.H)
	return nil
}

// relayout lays the panes out again at the window's size.
func (m *Model) relayout() {
	if !m.ready {
		return
	}
	m.handleWindowSize(tea.WindowSizeMsg{Width: m.layout.Width, Height: m.layout.Height})
}

// applyZoom gives the panes the rectangles of the zoom switch (Z): the
// focused pane the whole body, so tab shows the other one zoomed.
func (m *Model) applyZoom() {
	if !m.ready || m.layout.TooSmall {
		return
	}
	want := ComputeLayoutSplit(m.layout.Width, m.layout.Height, m.split.Percent())
	if m.zoom {
		want = want.Zoomed(m.focus == focusDetail)
	}
	if want == m.layout {
		return
	}
	m.layout = want
	m.list.SetSize(want.List.W, want.List.H)
	m.detail.SetSize(want.Detail.W, want.Detail.H)
}

// handleBackground picks the light or dark theme from the terminal's
// answer, unless the user chose one.
func (m *Model) handleBackground(msg tea.BackgroundColorMsg) tea.Cmd {
	if !autoTheme(m.opts.Theme) {
		return nil
	}
	st := themeStyles("auto", msg.IsDark())
	if st.Dark == m.c.Styles.Dark && st.NoColor == m.c.Styles.NoColor {
		return nil
	}
	m.c.SetStyles(st)
	m.help.Styles = st.Help
	m.sheets.resize(m.layout.Body.W, m.layout.Body.H) // the help lays its styled text out again
	return m.detail.Refresh()
}

// busy reports work the status bar shows a spinner for.
func (m *Model) busy() bool {
	return m.loading || m.opening.On() || m.detail.Busy() || (len(m.datasets) > 0 && !m.datasets[m.cur].Records.Done())
}

// spin is the status bar's spinner of work in progress.
type spin struct {
	spinner.Model
	on bool
}

// start starts the spinner unless it runs already.
func (s *spin) start() tea.Cmd {
	if s.on {
		return nil
	}
	s.on = true
	return s.Tick
}

// advance advances the spinner while there is work (busy), and stops it
// after.
func (s *spin) advance(msg spinner.TickMsg, busy bool) tea.Cmd {
	if !busy {
		s.on = false
		return nil
	}
	var cmd tea.Cmd
	s.Model, cmd = s.Update(msg)
	return cmd
}
