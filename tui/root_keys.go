package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/compare"
	"evalview/tui/keys"
	"evalview/tui/sheets/datasets"
	"evalview/tui/sheets/filters"
	"evalview/tui/sheets/keyhelp"
	"evalview/tui/sheets/pairs"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// mode is what gets the keys; it is derived from the one field that owns
// each piece (the open line, the sheets, the layout), never stored.
type mode int

const (
	// modeBrowse: the list or the detail, whichever has the focus.
	modeBrowse mode = iota
	// modeInput: the search or a prompt is being typed.
	modeInput
	// modeTooSmall: the window is below the minimum size.
	modeTooSmall
	// modeSheet: a sheet covers the body.
	modeSheet
)

// mode is the current mode.
func (m *Model) mode() mode {
	switch {
	case m.input != nil:
		return modeInput
	case m.layout.TooSmall || !m.ready:
		return modeTooSmall
	case m.topSheet() != nil:
		return modeSheet
	}
	return modeBrowse
}

// handleKey gives a key to whatever the mode says has the keys.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.c.Keys
	switch m.mode() {
	case modeInput:
		return m.handleInputKey(k)
	case modeTooSmall:
		if key.Matches(k, km.Global.Quit, km.Global.ForceQuit) {
			return tea.Quit
		}
		return nil
	case modeSheet:
		if t, ok := m.topSheet().(ui.Typer); ok && t.Typing() {
			return m.handleSheetKey(k) // a filter being typed takes every key
		}
		switch m.topSheet().(type) {
		case *keyhelp.Sheet, *datasets.Sheet:
		default:
			if key.Matches(k, km.Global.Help) { // the keys, over the sheet
				return m.openHelp()
			}
		}
		if key.Matches(k, km.Overview.Open) && m.topSheet() != ui.Sheet(m.overview) {
			return m.openOverview()
		}
		if key.Matches(k, km.Dataset.Picker) && m.topSheet() == ui.Sheet(m.overview) {
			return m.openPicker() // over the overview: esc comes back to it
		}
		return m.handleSheetKey(k)
	}
	return m.handleBrowseKey(k)
}

// action is a key of the browse mode (lazygit's bindings): its binding,
// when it is offered (nil: always; a binding not offered drops out of
// the help and does not match), why not (said when pressed anyway), when
// it applies in the focused pane (nil: always; else the key goes on), and
// what it does. Key handling and key enabling both read the table, so
// they cannot disagree.
type action struct {
	b       *key.Binding
	enabled func() bool
	why     func() string
	applies func() bool
	do      func() tea.Cmd
}

// globalActions are the browse keys that work in both panes and leave a
// saved-note flash on the status bar.
func (m *Model) globalActions() []action {
	km := m.c.Keys
	many := func() bool { return len(m.datasets) > 1 }
	return []action{
		{b: &km.Global.Quit, do: quit},
		{b: &km.Global.ForceQuit, do: quit},
		{b: &km.Global.Help, do: m.openHelp},
		{b: &km.Global.FocusNext, do: m.toggleFocus},
		{b: &km.Global.FocusPrev, do: m.toggleFocus},
		{b: &km.Global.Zoom, do: func() tea.Cmd { m.zoom = !m.zoom; return nil }},
		{b: &km.Dataset.Next, enabled: many, do: func() tea.Cmd { return m.switchDataset(m.cur + 1) }},
		{b: &km.Dataset.Prev, enabled: many, do: func() tea.Cmd { return m.switchDataset(m.cur - 1) }},
		{b: &km.Dataset.Picker, enabled: many, do: m.openPicker},
		{b: &km.Overview.Open, enabled: many, do: m.openOverview},
		{b: &km.Global.CycleFilter, enabled: func() bool { return len(m.dsFilters()) > 1 }, do: m.list.CycleFilter},
		{b: &km.Global.WrongOnly, enabled: m.anyScored, do: m.list.ToggleWrongOnly,
			why: func() string { return "x: no record here passes or fails, so none is wrong" }},
		{b: &km.Search.Start, do: m.startSearch},
		{b: &km.Search.Next, enabled: m.searchHits, do: func() tea.Cmd { return m.nextMatch(1) }},
		{b: &km.Search.Prev, enabled: m.searchHits, do: func() tea.Cmd { return m.nextMatch(-1) }},
		{b: &km.Compare.Filters, enabled: func() bool { return filters.Applies(m.curDataset()) }, do: m.openFilters},
		{b: &km.Compare.Slices, enabled: func() bool { ds := m.curDataset(); return ds != nil && ds.Records.Len() > 0 },
			do: m.openSlices},
		{b: &km.Compare.Runs, enabled: func() bool { return len(m.datasets) > 0 && pairs.Applies(m.datasets, m.cur) },
			do: m.openPairs, why: m.whyNoPair},
	}
}

// toolActions are the everyday tools (query line, sort, columns, facets,
// copy, pager, export, notes, reload) and the keys of attempts and of
// scored datasets, in the list and the detail.
func (m *Model) toolActions() []action {
	t, r := &m.c.Keys.Tools, &m.c.Keys.Run
	scored := func() bool { return m.scoredDataset() != nil }
	pairOK := func() bool { return m.detail.PairOn() && m.detail.CanPair() }
	return []action{
		{b: &t.Query, do: m.openQueryLine},
		{b: &t.Sort, do: m.list.CycleSort},
		{b: &t.Reverse, do: m.list.ReverseSort},
		{b: &t.Columns, do: m.openColumns},
		// l is "next tab" in the detail.
		{b: &t.Label, applies: func() bool { return m.focus == focusList }, do: m.openLabelPrompt},
		{b: &t.Annotate, do: m.openNotePrompt},
		{b: &t.Copy, do: func() tea.Cmd { return m.copyFocused(false) }},
		{b: &t.CopyPath, do: func() tea.Cmd { return m.copyFocused(true) }},
		{b: &t.Export, do: m.openExportPrompt},
		{b: &t.Reload, do: m.reload},
		{b: &t.Follow, do: m.toggleFollow},
		{b: &t.Pager, do: func() tea.Cmd { return m.openExternal(false) }},
		{b: &t.Editor, do: func() tea.Cmd { return m.openExternal(true) }},
		{b: &t.Facets, do: m.openFacets},
		{b: &r.Pair, enabled: func() bool { return m.detail.PairOn() || m.detail.CanPair() }, do: m.togglePair},
		{b: &r.LeftPrev, enabled: pairOK, do: func() tea.Cmd { return m.detail.MovePair(0, -1) }},
		{b: &r.LeftNext, enabled: pairOK, do: func() tea.Cmd { return m.detail.MovePair(0, 1) }},
		{b: &r.RightPrev, enabled: pairOK, do: func() tea.Cmd { return m.detail.MovePair(1, -1) }},
		{b: &r.RightNext, enabled: pairOK, do: func() tea.Cmd { return m.detail.MovePair(1, 1) }},
		{b: &r.Info, enabled: func() bool { return m.compactHeader() != nil }, do: m.openFacts},
		{b: &r.Threshold, enabled: scored, do: m.openThresholdPrompt},
		{b: &r.ThresholdUp, enabled: scored, do: func() tea.Cmd { return m.moveThreshold(thresholdStep) }},
		{b: &r.ThresholdDn, enabled: scored, do: func() tea.Cmd { return m.moveThreshold(-thresholdStep) }},
		{b: &r.HighScore, enabled: scored, do: m.toggleHighScore},
		{b: &r.Distribution, enabled: scored, do: func() tea.Cmd { return m.openScores(m.scoredDataset()) }},
	}
}

// paneKeys are offered by the panes themselves; the table only says
// when they are.
func (m *Model) paneKeys() []action {
	d := &m.c.Keys.Detail
	tabs := func() bool { return m.detail.TabCount() > 1 }
	return []action{
		{b: &d.Fold, enabled: m.detail.CanFold},
		{b: &d.LastTurn, enabled: m.detail.HasLastTurn},
		{b: &d.Tab, enabled: tabs}, {b: &d.PrevTab, enabled: tabs}, {b: &d.NextTab, enabled: tabs},
	}
}

func quit() tea.Cmd { return tea.Quit }

// handleBrowseKey runs the first action of the tables that k matches,
// then the focused pane's keys; a key whose action is not offered here
// says why, when it can.
func (m *Model) handleBrowseKey(k tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := m.runAction(m.globalActions(), k); ok {
		return cmd
	}
	if len(m.datasets) > 0 {
		m.flash = "" // a tool's "copied…" stays until the next key here
		if cmd, ok := m.runAction(m.toolActions(), k); ok {
			return cmd
		}
	}
	if m.focus == focusList {
		return m.handleListKey(k)
	}
	return m.handleDetailKey(k)
}

// runAction runs the first offered action that k matches and that
// applies; else it says why a matching action is not offered, if it can.
func (m *Model) runAction(table []action, k tea.KeyPressMsg) (tea.Cmd, bool) {
	for _, a := range table {
		if a.do != nil && key.Matches(k, *a.b) && (a.applies == nil || a.applies()) {
			return a.do(), true
		}
	}
	if len(m.datasets) == 0 {
		return nil, false
	}
	for _, a := range table {
		if a.why != nil && !a.b.Enabled() && keys.Has(*a.b, k) {
			m.note = a.why()
			return nil, true
		}
	}
	return nil, false
}

// enableKeys offers the bindings that do something now and turns the
// others off, so the help line and `?` do not offer them. The root calls
// it once per message (derive): it is derived from the state, never set
// by hand.
func (m *Model) enableKeys() {
	for _, table := range [][]action{m.globalActions(), m.toolActions(), m.paneKeys()} {
		for _, a := range table {
			if a.enabled != nil {
				a.b.SetEnabled(a.enabled())
			}
		}
	}
	qh := &m.c.Keys.Run.QueryHint
	hint := ""
	if ds := m.curDataset(); ds != nil {
		hint = ds.Presentation.QueryHint
	}
	qh.SetEnabled(hint != "")
	qh.SetHelp(qh.Help().Key, text.OneLine(hint))
}

// whyNoPair says what C needs where it has nothing to compare.
func (m *Model) whyNoPair() string {
	ds := m.curDataset()
	if ds == nil {
		return ""
	}
	what := "another " + string(ds.Kind) + " dataset"
	if compare.SameTaskOnly(ds) {
		what = "another run of " + text.OneLine(ds.Task)
	}
	return "C needs " + what + " (evalview RUN_A RUN_B)"
}

// anyScored reports whether the header counted a record that passed,
// failed or errored under the selected filter (x has something to show);
// true while the index still grows, since a scored record may come.
func (m *Model) anyScored() bool {
	ds := m.curDataset()
	if ds == nil {
		return false
	}
	if !ds.Records.Done() || m.list.WrongOnly() || m.header.ds != ds {
		return true
	}
	m.header.refresh() // cached: recounts only when the dataset or filter changed
	c := m.header.counts.counts
	return c[model.StatusPass]+c[model.StatusFail]+c[model.StatusError] > 0
}

// curDataset is the dataset shown, nil when none is open.
func (m *Model) curDataset() *model.Dataset {
	if len(m.datasets) == 0 {
		return nil
	}
	return m.datasets[m.cur]
}

// dsFilters are the current dataset's filters.
func (m *Model) dsFilters() []string {
	if ds := m.curDataset(); ds != nil {
		return ds.Filters
	}
	return nil
}

// toggleFocus gives the keys to the other pane.
func (m *Model) toggleFocus() tea.Cmd {
	m.setFocus(1 - m.focus)
	return nil
}

// setFocus gives the keys to a pane.
func (m *Model) setFocus(f focus) { m.focus = f }

// openHelp shows every key over the body, from the bindings offered now.
func (m *Model) openHelp() tea.Cmd {
	m.pushSheet(keyhelp.New(m.c))
	return nil
}

// openPicker opens the dataset picker on the current dataset (D).
func (m *Model) openPicker() tea.Cmd {
	m.pushSheet(datasets.New(m.c, m.datasets, m.cur, overviewSource{m.header.metrics}))
	return nil
}

// handleListKey moves the list cursor, opens the detail, or switches the
// detail's tab (digits, [ and ]) while the list keeps the focus.
func (m *Model) handleListKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.c.Keys
	switch {
	case key.Matches(k, km.Detail.Markdown):
		cmd := m.detail.ToggleMarkdown()
		m.note = m.detail.MarkdownNote()
		return cmd
	case key.Matches(k, km.Search.Cancel) && m.list.Query() != "":
		return m.setQueryIn(focusList, "")
	case key.Matches(k, km.Search.Cancel) && m.list.Pinned():
		return m.list.ClearPin()
	case key.Matches(k, km.Search.Cancel) && m.list.Selection() > 0:
		m.list.ClearSelection()
		return nil
	case key.Matches(k, km.Search.Cancel) && m.back != nil:
		for _, s := range m.back { // the sheets the user came from, as left
			m.pushSheet(s)
		}
		m.back = nil
		return nil
	case key.Matches(k, km.Detail.Tab, km.List.PrevTab, km.List.NextTab):
		i := keys.Index(km.Detail.Tab, k)
		if key.Matches(k, km.List.PrevTab) {
			i = m.detail.StepTab(-1)
		} else if key.Matches(k, km.List.NextTab) {
			i = m.detail.StepTab(1)
		}
		return m.detail.ChooseTab(i)
	}
	return m.list.Update(k)
}

// handleDetailKey switches the detail between markdown and raw text,
// and gives it its own keys (tabs, folds, scrolling, esc).
func (m *Model) handleDetailKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, m.c.Keys.Detail.Markdown) {
		cmd := m.detail.ToggleMarkdown()
		m.note = m.detail.MarkdownNote()
		return cmd
	}
	return m.detail.Update(k)
}

// shortHelp is the help line of the mode: the room's own keys, most
// useful first (the line is cut on the right), moving keys last.
func (m *Model) shortHelp() []key.Binding {
	km := m.c.Keys
	switch m.mode() {
	case modeInput:
		return m.input.shortHelp(km)
	case modeSheet:
		return movesLast(km, m.topSheet().ShortHelp())
	}
	var b []key.Binding
	if m.focus == focusList {
		b = m.list.ShortHelp()
	} else {
		b = m.detail.ShortHelp()
	}
	r := km.Run
	if m.detail.PairOn() {
		b = append([]key.Binding{r.Pair, r.LeftNext, r.RightNext}, b...)
	} else {
		b = append(b, r.HighScore, r.Threshold, r.Pair)
	}
	return append(b, km.Dataset.Next, km.Global.Quit)
}

// movesLast puts the moving keys (j/k...) after a sheet's own: everyone
// guesses those, the line has room for few keys.
func movesLast(km *keys.KeyMap, bs []key.Binding) []key.Binding {
	n := km.Nav
	moving := map[string]bool{}
	for _, b := range []key.Binding{n.Up, n.Down, n.PageUp, n.PageDown, n.HalfUp, n.HalfDown, n.Top, n.Bottom} {
		moving[b.Help().Key] = true
	}
	var own, moves []key.Binding
	for _, b := range bs {
		if moving[b.Help().Key] {
			moves = append(moves, b)
		} else {
			own = append(own, b)
		}
	}
	return append(own, moves...)
}

// togglePair shows two attempts side by side, or one under another
// again (|).
func (m *Model) togglePair() tea.Cmd {
	cmd, note := m.detail.TogglePair()
	if note != "" {
		m.note = note
	}
	return cmd
}
