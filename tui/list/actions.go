package list

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/tui/ui"
)

// Actions are the list's keys: its help line first, most useful first
// (the line is cut on the right): the error-analysis keys a new user
// would not guess (x, v, V, F, :, L, w), then selecting and sorting;
// with a selection, what acts on it. j/k, enter and tab are everyone's
// habits. Many of the line's keys are the browser's tools, which it runs
// and offers; the list places them on its line.
func (l *Pane) Actions() []ui.Action {
	k := l.c.Keys
	t, ls, nav := &k.Tools, &k.List, &k.Nav
	sel := len(l.st.selected)
	selected := func() bool { return len(l.st.selected) > 0 }
	selectRow := ui.Action{Binding: &ls.Select, Do: l.moved(l.toggleSelected), Line: true, Help: "select"}
	var acts []ui.Action
	if sel > 0 {
		acts = []ui.Action{ui.OnLine(&t.Label, "label "+itoa(sel)), ui.OnLine(&t.Annotate, "note"),
			ui.OnLine(&t.Export, "export "+itoa(sel)), ui.OnLine(&t.Copy, "copy ids"), selectRow,
			{Binding: &ls.SelectAll, Do: l.selectAll, Line: true, Help: "all shown"},
			{Binding: &k.Search.Cancel, When: selected, Do: l.unselect, Line: true, Help: "unselect"},
			{Binding: &ls.RepeatLabel, Do: repeatLabel, Line: true, Help: "repeat label"}}
	} else {
		acts = []ui.Action{
			ui.OnLine(&k.Global.WrongOnly, "wrong only"), ui.OnLine(&k.Compare.Filters, "filters"), ui.OnLine(&k.Run.Distribution, "scores"),
			ui.OnLine(&k.Compare.Slices, "slices"), ui.OnLine(&t.Facets, "facets"), ui.OnLine(&t.Query, ""), ui.OnLine(&t.Label, "label"),
			ui.OnLine(&t.Export, "export"), selectRow, ui.OnLine(&t.Sort, "sort"),
			ui.OnLine(&k.Search.Start, ""), ui.OnLine(&k.Global.CycleFilter, "filter"), ui.OnLine(&k.Global.Zoom, "zoom"),
			{Binding: &ls.SelectAll, Do: l.selectAll},
			{Binding: &k.Search.Cancel, When: selected, Do: l.unselect},
			{Binding: &ls.RepeatLabel, Do: repeatLabel},
		}
	}
	// esc clears the pin before the selection (and the browser the
	// search before either).
	acts = append([]ui.Action{{Binding: &k.Search.Cancel, When: l.Pinned, Do: l.ClearPin}}, acts...)
	return append(acts,
		ui.Action{Binding: &ls.Open, Do: func() tea.Cmd { return ui.Send(OpenMsg{}) }},
		ui.Action{Binding: &ls.SelectRange, Do: l.selectRange},
		ui.Action{Binding: &ls.Left, Do: func() tea.Cmd { l.moveColumn(-1); return nil }},
		ui.Action{Binding: &ls.Right, Do: func() tea.Cmd { l.moveColumn(1); return nil }},
		ui.Action{Binding: &nav.Up, Do: l.moved(func() { l.moveBy(-1) })},
		ui.Action{Binding: &nav.Down, Do: l.moved(func() { l.moveBy(1) })},
		ui.Action{Binding: &nav.PageUp, Do: l.moved(func() { l.moveBy(-l.rows()) })},
		ui.Action{Binding: &nav.PageDown, Do: l.moved(func() { l.moveBy(l.rows()) })},
		ui.Action{Binding: &nav.HalfUp, Do: l.moved(func() { l.moveBy(-l.rows() / 2) })},
		ui.Action{Binding: &nav.HalfDown, Do: l.moved(func() { l.moveBy(l.rows() / 2) })},
		ui.Action{Binding: &nav.Top, Do: l.moved(func() { l.moveTo(0) })},
		ui.Action{Binding: &nav.Bottom, Do: l.moved(func() { l.moveTo(len(l.st.visible) - 1) })},
	)
}

// repeatLabel asks the browser for the labels last added (`.`).
func repeatLabel() tea.Cmd { return ui.Send(RepeatLabelMsg{}) }

// ShortHelp is the list's part of the help line (Actions).
func (l *Pane) ShortHelp() []key.Binding { return ui.ShortHelp(l.Actions()) }

// FullHelp is the list's keys by kind, for a full help.
func (l *Pane) FullHelp() [][]key.Binding {
	k := l.c.Keys
	return [][]key.Binding{
		{k.Nav.Up, k.Nav.Down, k.Nav.PageUp, k.Nav.PageDown, k.Nav.HalfUp, k.Nav.HalfDown, k.Nav.Top, k.Nav.Bottom},
		{k.List.Open, k.Global.CycleFilter, k.Global.WrongOnly, k.Global.Zoom},
		{k.List.Select, k.List.SelectRange, k.List.SelectAll, k.List.RepeatLabel, k.List.Left, k.List.Right},
		{k.Tools.Query, k.Tools.Sort, k.Tools.Reverse, k.Tools.Columns, k.Tools.Facets, k.Tools.Export, k.Tools.Reload, k.Tools.Follow},
		{k.Tools.Copy, k.Tools.CopyPath, k.Tools.Pager, k.Tools.Editor, k.Tools.Label, k.Tools.Annotate},
	}
}

// moved moves the cursor with move and reports the record under it when
// it moved.
func (l *Pane) moved(move func()) func() tea.Cmd {
	return func() tea.Cmd {
		before := l.st.cursor
		move()
		if l.st.cursor != before {
			return cursorMoved()
		}
		return nil
	}
}

// handleKey runs the list's action of k.
func (l *Pane) handleKey(k tea.KeyPressMsg) tea.Cmd {
	cmd, _, _ := ui.Run(l.Actions(), k)
	return cmd
}
