package tui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/compare"
	"evalview/model/runstats"
	"evalview/tui/keys"
	"evalview/tui/sheets/datasets"
	"evalview/tui/sheets/facts"
	"evalview/tui/sheets/filters"
	"evalview/tui/sheets/keyhelp"
	"evalview/tui/sheets/pairs"
	"evalview/tui/sheets/scores"
	"evalview/tui/sheets/slice"
	"evalview/tui/split"
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
	case m.sheets.top() != nil:
		return modeSheet
	}
	return modeBrowse
}

// handleKey gives a key to whatever the mode says has the keys.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	km := m.c.Keys
	switch m.mode() {
	case modeInput:
		// The open line takes every key; ctrl+c still quits.
		if key.Matches(k, km.Global.ForceQuit) {
			return tea.Quit
		}
		p := m.input
		closed, cmd := p.update(k, km)
		if closed && m.input == p { // a callback may have opened another
			m.input = nil
		}
		return cmd
	case modeTooSmall:
		if key.Matches(k, km.Global.Quit, km.Global.ForceQuit) {
			return tea.Quit
		}
		return nil
	case modeSheet:
		top := m.sheets.top()
		if t, ok := top.(ui.Typer); ok && t.Typing() {
			// A filter being typed takes every key; ctrl+c still quits.
			if key.Matches(k, km.Global.ForceQuit) {
				return tea.Quit
			}
			return top.Update(k)
		}
		if cmd, ok := m.runAction(m.sheetActions(), k); ok {
			return cmd
		}
		return top.Update(k)
	}
	return m.handleBrowseKey(k)
}

// globalActions are the browse keys that work in both panes and leave a
// saved-note flash on the status bar.
func (m *Model) globalActions() []ui.Action {
	km := m.c.Keys
	many := func() bool { return len(m.datasets) > 1 }
	otherPane := func() tea.Cmd { m.focus = 1 - m.focus; return nil } // tab gives the keys to the other pane
	// moveSplit moves the split by a step from where it is, lays the
	// panes out again and remembers it (tui/split).
	moveSplit := func(by int) func() tea.Cmd {
		return func() tea.Cmd {
			m.split.Set(m.split.Now(m.layout.defaultShare()) + by)
			m.relayout()
			return m.split.Save()
		}
	}
	// anyScored: the header counted a record that passed, failed or
	// errored under the selected filter (x has something to show); true
	// while the index still grows, since a scored record may come.
	anyScored := func() bool {
		ds := m.curDataset()
		if ds == nil {
			return false
		}
		if !ds.Records.Done() || m.list.WrongOnly() {
			return true
		}
		scored, ok := m.header.Scored(ds)
		return scored || !ok
	}
	return []ui.Action{
		{Binding: &km.Global.Quit, Do: quit},
		{Binding: &km.Global.ForceQuit, Do: quit},
		{Binding: &km.Global.Help, Do: m.openHelp},
		{Binding: &km.Global.FocusNext, Do: otherPane},
		{Binding: &km.Global.FocusPrev, Do: otherPane},
		{Binding: &km.Global.Zoom, Do: func() tea.Cmd { m.zoom = !m.zoom; return nil }},
		{Binding: &km.Global.SplitLeft, Do: moveSplit(-split.Step)},
		{Binding: &km.Global.SplitRight, Do: moveSplit(split.Step)},
		{Binding: &km.Dataset.Next, Enabled: many, Do: func() tea.Cmd { return m.switchDataset(m.cur + 1) }},
		{Binding: &km.Dataset.Prev, Enabled: many, Do: func() tea.Cmd { return m.switchDataset(m.cur - 1) }},
		{Binding: &km.Dataset.Picker, Enabled: many, Do: m.openPicker},
		{Binding: &km.Overview.Open, Enabled: many, Do: m.openOverview},
		{Binding: &km.Global.CycleFilter, Enabled: func() bool { ds := m.curDataset(); return ds != nil && len(ds.Filters) > 1 },
			Do: m.list.CycleFilter},
		{Binding: &km.Global.WrongOnly, Enabled: anyScored, Do: m.list.ToggleWrongOnly,
			Why: func() string { return "x: no record here passes or fails, so none is wrong" }},
		{Binding: &km.Search.Start, Do: m.startSearch},
		{Binding: &km.Search.Next, Enabled: func() bool { return m.search.hits(m.focus) }, Do: func() tea.Cmd { return m.search.next(1, m.focus) }},
		{Binding: &km.Search.Prev, Enabled: func() bool { return m.search.hits(m.focus) }, Do: func() tea.Cmd { return m.search.next(-1, m.focus) }},
		{Binding: &km.Compare.Filters, Enabled: func() bool { return filters.Applies(m.curDataset()) }, Do: func() tea.Cmd {
			m.sheets.push(filters.New(m.c, filtersSource{m.header.Metrics(), &m.deep}, m.datasets[m.cur], m.list.FilterIndex()))
			return nil
		}},
		{Binding: &km.Compare.Slices, Enabled: func() bool { ds := m.curDataset(); return ds != nil && ds.Records.Len() > 0 },
			Do: func() tea.Cmd {
				ds := m.datasets[m.cur]
				m.sheets.push(slice.New(m.c, ds, m.list.FilterIndex(), m.scoring.at(ds)))
				return nil
			}},
		{Binding: &km.Compare.Runs, Enabled: func() bool { return len(m.datasets) > 0 && pairs.Applies(m.datasets, m.cur) },
			Do: func() tea.Cmd { m.sheets.push(pairs.New(m.c, m.datasets, m.cur, m.list.FilterIndex())); return nil },
			Why: func() string {
				// What C needs where it has nothing to compare.
				ds := m.curDataset()
				if ds == nil {
					return ""
				}
				what := "another " + string(ds.Kind) + " dataset"
				if compare.SameTaskOnly(ds) {
					what = "another run of " + text.OneLine(ds.Task)
				}
				return "C needs " + what + " (evalview RUN_A RUN_B)"
			}},
	}
}

// toolActions are the everyday tools (query line, sort, columns, facets,
// copy, pager, export, notes, reload, markdown) and the keys of attempts
// and of scored datasets, in the list and the detail.
func (m *Model) toolActions() []ui.Action {
	t, r := &m.c.Keys.Tools, &m.c.Keys.Run
	scored := func() bool { return m.scoredDataset() != nil }
	pairOK := func() bool { return m.detail.PairOn() && m.detail.CanPair() }
	return []ui.Action{
		{Binding: &t.Query, Do: m.openQueryLine},
		{Binding: &t.Sort, Do: m.list.CycleSort},
		{Binding: &t.Reverse, Do: m.list.ReverseSort},
		{Binding: &t.Columns, Do: func() tea.Cmd { m.sheets.push(m.list.Columns()); return nil }},
		// Labels are the list's (the detail's records are the list's).
		{Binding: &t.Label, When: func() bool { return m.focus == focusList }, Do: m.openLabelPrompt},
		{Binding: &t.Annotate, Do: m.openNotePrompt},
		{Binding: &t.Copy, Do: func() tea.Cmd { return m.copyFocused(false) }},
		{Binding: &t.CopyPath, Do: func() tea.Cmd { return m.copyFocused(true) }},
		{Binding: &t.Export, Do: m.openExportPrompt},
		{Binding: &t.Reload, Do: m.reload},
		{Binding: &t.Follow, Do: func() tea.Cmd { return m.setFollow(!m.follow.on) }},
		{Binding: &t.Pager, Do: func() tea.Cmd { return m.openExternal(false) }},
		{Binding: &t.Editor, Do: func() tea.Cmd { return m.openExternal(true) }},
		{Binding: &t.Facets, Do: func() tea.Cmd { m.sheets.push(m.list.Facets("")); return nil }},
		{Binding: &m.c.Keys.Detail.Markdown, Do: func() tea.Cmd {
			cmd := m.detail.ToggleMarkdown()
			m.note = m.detail.MarkdownNote()
			return cmd
		}},
		{Binding: &r.Pair, Enabled: func() bool { return m.detail.PairOn() || m.detail.CanPair() }, Do: func() tea.Cmd {
			cmd, note := m.detail.TogglePair()
			if note != "" {
				m.note = note
			}
			return cmd
		}},
		{Binding: &r.LeftPrev, Enabled: pairOK, Do: func() tea.Cmd { return m.detail.MovePair(0, -1) }},
		{Binding: &r.LeftNext, Enabled: pairOK, Do: func() tea.Cmd { return m.detail.MovePair(0, 1) }},
		{Binding: &r.RightPrev, Enabled: pairOK, Do: func() tea.Cmd { return m.detail.MovePair(1, -1) }},
		{Binding: &r.RightNext, Enabled: pairOK, Do: func() tea.Cmd { return m.detail.MovePair(1, 1) }},
		{Binding: &r.Info, Enabled: func() bool { ds := m.curDataset(); return ds != nil && ds.Presentation.Header != nil },
			Do: func() tea.Cmd {
				m.sheets.push(facts.New(m.c, m.datasets[m.cur], m.list.ConstantFacts()...))
				return nil
			}},
		{Binding: &r.Threshold, Enabled: scored, Do: m.openThresholdPrompt},
		{Binding: &r.ThresholdUp, Enabled: scored, Do: func() tea.Cmd {
			return m.setThreshold(m.scoredDataset(), m.scoring.threshold(m.scoredDataset())+thresholdStep)
		}},
		{Binding: &r.ThresholdDn, Enabled: scored, Do: func() tea.Cmd {
			return m.setThreshold(m.scoredDataset(), m.scoring.threshold(m.scoredDataset())-thresholdStep)
		}},
		{Binding: &r.HighScore, Enabled: scored, Do: m.toggleHighScore},
		{Binding: &r.Distribution, Enabled: scored, Do: func() tea.Cmd {
			ds, sc := m.scoredDataset(), m.scoring
			m.sheets.push(scores.New(m.c, ds, func() runstats.Figures { return sc.figures(ds) }))
			return nil
		}},
	}
}

// listActions are the keys of the list pane: the root's that cross rooms
// first (esc clears the list's search and the detail's highlights of it;
// the detail's tabs switch from the list with digits, [ and ]), then the
// list's own, then esc bringing back the sheets the user came from.
func (m *Model) listActions() []ui.Action {
	km := m.c.Keys
	chooseTab := func(k tea.KeyPressMsg) tea.Cmd {
		i := keys.Index(km.Detail.Tab, k)
		if key.Matches(k, km.List.PrevTab) {
			i = m.detail.StepTab(-1)
		} else if key.Matches(k, km.List.NextTab) {
			i = m.detail.StepTab(1)
		}
		return m.detail.ChooseTab(i)
	}
	acts := []ui.Action{
		{Binding: &km.Search.Cancel, When: func() bool { return m.list.Query() != "" }, Do: func() tea.Cmd { return m.search.set(focusList, "") }},
		{Binding: &km.Detail.Tab, Enabled: func() bool { return m.detail.TabCount() > 1 }, DoKey: chooseTab},
		{Binding: &km.List.PrevTab, DoKey: chooseTab},
		{Binding: &km.List.NextTab, DoKey: chooseTab},
	}
	acts = append(acts, m.list.Actions()...)
	back := m.backName()
	// esc's place on the help line, first: where it goes once it has
	// nothing of the list's to clear.
	if back != "" && m.list.Query() == "" && !m.list.Pinned() && m.list.SelectionLabel() == "" {
		acts = append([]ui.Action{ui.OnLine(&km.Search.Cancel, "to "+back)}, acts...)
	}
	return append(acts, ui.Action{Binding: &km.Search.Cancel, When: func() bool { return m.trail.Len() > 0 }, Do: m.goBack})
}

// paneActions are the focused pane's keys.
func (m *Model) paneActions() []ui.Action {
	if m.focus == focusList {
		return m.listActions()
	}
	return m.detail.Actions()
}

// sheetActions are the browser's keys over a sheet, before the sheet's
// own: the keys (?) but over the keys and the dataset picker, the
// overview (T) but over itself, the dataset picker (D) over the overview
// (esc comes back to it), and ctrl+c.
func (m *Model) sheetActions() []ui.Action {
	km := m.c.Keys
	top := m.sheets.top()
	return []ui.Action{
		{Binding: &km.Global.Help, Do: m.openHelp, When: func() bool {
			switch top.(type) {
			case *keyhelp.Sheet, *datasets.Sheet:
				return false
			}
			return true
		}},
		{Binding: &km.Overview.Open, Do: m.openOverview, When: func() bool { return top != ui.Sheet(m.overview) }},
		{Binding: &km.Dataset.Picker, Do: m.openPicker, When: func() bool { return top == ui.Sheet(m.overview) }},
		{Binding: &km.Global.ForceQuit, Do: quit},
	}
}

// handleBrowseKey runs the first action that k is a key of: the global
// ones, the tools, then the focused pane's; a key whose action is not
// offered here says why, when it can.
func (m *Model) handleBrowseKey(k tea.KeyPressMsg) tea.Cmd {
	if len(m.datasets) == 0 {
		// Nothing is open yet: quit and help are all there is.
		km := m.c.Keys
		cmd, _ := m.runAction([]ui.Action{
			{Binding: &km.Global.Quit, Do: quit},
			{Binding: &km.Global.ForceQuit, Do: quit},
			{Binding: &km.Global.Help, Do: m.openHelp},
		}, k)
		return cmd
	}
	if cmd, ok := m.runAction(m.globalActions(), k); ok {
		return cmd
	}
	if len(m.datasets) > 0 {
		m.flash, m.reloaded = "", nil // a tool's "copied…" stays until the next key here
		if cmd, ok := m.runAction(m.toolActions(), k); ok {
			return cmd
		}
	}
	cmd, _ := m.runAction(m.paneActions(), k)
	return cmd
}

// runAction runs the action of k among actions (ui.Run), putting what a
// key not offered says about itself in the status bar.
func (m *Model) runAction(actions []ui.Action, k tea.KeyPressMsg) (tea.Cmd, bool) {
	cmd, ok, why := ui.Run(actions, k)
	if why != "" {
		if len(m.datasets) == 0 {
			return nil, false
		}
		m.note = why
	}
	return cmd, ok
}

// enableKeys offers the bindings that do something now and turns the
// others off, so the help line and `?` do not offer them: the browser's
// actions and both panes'. The root calls it once per message (derive):
// it is derived from the state, never set by hand.
func (m *Model) enableKeys() {
	ui.Offer(slices.Concat(m.globalActions(), m.toolActions(), m.listActions(), m.detail.Actions()))
	qh := &m.c.Keys.Run.QueryHint
	hint := ""
	if ds := m.curDataset(); ds != nil {
		hint = ds.Presentation.QueryHint
	}
	qh.SetEnabled(hint != "")
	qh.SetHelp(qh.Help().Key, text.OneLine(hint))
}

func quit() tea.Cmd { return tea.Quit }

// curDataset is the dataset shown, nil when none is open.
func (m *Model) curDataset() *model.Dataset {
	if len(m.datasets) == 0 {
		return nil
	}
	return m.datasets[m.cur]
}

// openHelp shows every key over the body, from the bindings offered now.
func (m *Model) openHelp() tea.Cmd {
	m.sheets.push(keyhelp.New(m.c))
	return nil
}

// openPicker opens the dataset picker on the current dataset (D).
func (m *Model) openPicker() tea.Cmd {
	m.sheets.push(datasets.New(m.c, m.datasets, m.cur, overviewSource{m.header.Metrics()}))
	return nil
}

// shortHelp is the help line of the mode: the room's own keys, most
// useful first (the line is cut on the right), moving keys last.
func (m *Model) shortHelp() []key.Binding {
	km := m.c.Keys
	switch m.mode() {
	case modeInput:
		return m.input.shortHelp(km)
	case modeSheet:
		return movesLast(km, m.sheets.top().ShortHelp())
	}
	if len(m.datasets) == 0 {
		return []key.Binding{km.Global.Help, km.Global.Quit} // all there is before a dataset opens
	}
	b := ui.ShortHelp(m.paneActions())
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
