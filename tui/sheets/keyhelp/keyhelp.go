// Package keyhelp is the `?` overlay: every key binding, grouped by
// purpose, from the same bindings as the help line, so the two cannot
// drift apart. Bindings that do not work where `?` was pressed are
// disabled and drop out; each sheet's group shows when the key that opens
// it works there.
package keyhelp

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"evalview/tui/keys"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// Group is one titled block of the overlay.
type Group struct {
	Title    string
	Bindings []key.Binding
}

// Groups lists every binding by purpose.
func Groups(c *ui.Common) []Group {
	k := c.Keys
	opens := func(opener key.Binding, title string, bs ...key.Binding) Group {
		if !opener.Enabled() {
			return Group{}
		}
		return Group{title + " (" + opener.Help().Key + ")", bs}
	}
	anyCompare := k.Compare.Filters
	anyCompare.SetEnabled(k.Compare.Filters.Enabled() || k.Compare.Slices.Enabled() || k.Compare.Runs.Enabled())
	anyCompare.SetHelp(k.Compare.Filters.Help().Key+" "+k.Compare.Slices.Help().Key+" "+k.Compare.Runs.Help().Key, "")
	r, t := k.Run, k.Tools
	// n, N and z are off until a search matches or something is folded;
	// `?` lists them anyway, saying when they work.
	always := func(b key.Binding, when string) key.Binding {
		b.SetEnabled(true)
		b.SetHelp(b.Help().Key, b.Help().Desc+" ("+when+")")
		return b
	}
	l := k.List
	return []Group{
		{"Move", []key.Binding{k.Nav.Up, k.Nav.Down, k.Nav.PageUp, k.Nav.PageDown, k.Nav.HalfUp, k.Nav.HalfDown, k.Nav.Top, k.Nav.Bottom}},
		{"Panes", []key.Binding{k.Global.FocusNext, k.Global.FocusPrev, k.List.Open, k.Detail.Back, k.Global.Zoom, k.Global.SplitLeft, k.Global.SplitRight}},
		tabsGroup(k, always(k.Detail.Fold, "where there is something to fold"), always(k.Detail.LastTurn, "in a prompt with several turns")),
		{"Records", []key.Binding{k.Global.CycleFilter, k.Global.WrongOnly, l.Left, l.Right}},
		{"Select (in the list)", []key.Binding{l.Select, l.SelectRange, l.SelectAll, l.RepeatLabel, ui.Short(k.Search.Cancel, "unselect all")}},
		{"Compare", []key.Binding{k.Compare.Filters, k.Compare.Slices, k.Compare.Runs}},
		{"Runs and attempts", []key.Binding{r.Pair, r.LeftPrev, r.LeftNext, r.RightPrev, r.RightNext,
			r.Threshold, r.ThresholdUp, r.ThresholdDn, r.HighScore, r.Distribution, r.Info, r.QueryHint}},
		{"List tools", []key.Binding{t.Query, t.Sort, t.Reverse, t.Columns, t.Facets, t.Copy, t.CopyPath,
			t.Pager, t.Editor, t.Export, t.Label, t.Annotate, t.Reload, t.Follow}},
		{"Search", []key.Binding{k.Search.Start, always(k.Search.Next, "after a search"), always(k.Search.Prev, "after a search"),
			k.Search.Confirm, k.Search.Cancel}},
		{"Datasets", []key.Binding{k.Dataset.Prev, k.Dataset.Next, k.Dataset.Picker, k.Overview.Open}},
		{"Browser", []key.Binding{k.Global.Help, k.Global.Quit, k.Global.ForceQuit}},
		opens(t.Facets, "Facets", k.Facets.NextField, k.Facets.PrevField, k.Facets.Choose, k.Facets.Close),
		opens(t.Columns, "Columns", k.Columns.Toggle, k.Columns.Earlier, k.Columns.Later, k.Columns.Defaults, k.Columns.Close),
		opens(anyCompare, "Compare sheets", k.Compare.PickA, k.Compare.PickB, k.Compare.Left, k.Compare.Right,
			k.Compare.Field, k.Compare.Choose, k.Compare.Close),
		opens(k.Dataset.Picker, "Dataset picker", k.Dataset.Choose, k.Dataset.Filter, k.Dataset.Close),
		opens(r.Distribution, "Score distribution", k.Scores.Choose, k.Scores.Close),
		opens(r.Info, "Facts", k.Facts.Close),
		opens(k.Overview.Open, "Overview", k.Overview.Left, k.Overview.Right, k.Overview.Sort, k.Overview.Reverse,
			k.Overview.Baseline, k.Overview.Stderr, k.Overview.Fold, k.Overview.FoldAll, k.Overview.Filter,
			k.Overview.Choose, k.Overview.Wrong, k.Overview.Compare, k.Overview.Reruns, k.Overview.Expand, k.Overview.Empty, k.Overview.Close),
		opensIn(k.Overview.Open, "Runs of a task (C in the overview)", k.Runs.Left, k.Runs.Right,
			k.Runs.Flips, k.Runs.Choose, k.Runs.Close),
		{"Prompts and search", []key.Binding{k.Prompt.Submit, k.Prompt.Cancel, k.Prompt.Complete, k.Prompt.CompletePrev,
			k.Edit.DeleteChar, k.Edit.DeleteWord, k.Edit.Clear}},
	}
}

// tabsGroup is the detail's tab keys. The list switches tabs with keys of
// its own (List.PrevTab, List.NextTab: by default the detail's without
// the letters the list uses for other things); the title names the keys
// that work only in the detail, and the list's are listed where they are
// not among the detail's (overridden).
func tabsGroup(k *keys.KeyMap, fold, lastTurn key.Binding) Group {
	var only []string
	bs := []key.Binding{k.Detail.PrevTab, k.Detail.NextTab}
	for _, p := range [][2]key.Binding{{k.Detail.PrevTab, k.List.PrevTab}, {k.Detail.NextTab, k.List.NextTab}} {
		detail, list := helpKeys(p[0]), helpKeys(p[1])
		for _, d := range detail {
			if !slices.Contains(list, d) {
				only = append(only, d)
			}
		}
		for _, l := range list {
			if !slices.Contains(detail, l) {
				bs = append(bs, ui.Short(p[1], p[1].Help().Desc+" (in the list)"))
				break
			}
		}
	}
	title := "Tabs"
	if len(only) > 0 {
		title += " (" + strings.Join(only, ", ") + " only in the detail pane)"
	}
	return Group{title, append(bs, k.Detail.Tab, fold, lastTurn, k.Detail.Markdown)}
}

// helpKeys are the keys a binding's help names ("[/h": "[", "h").
func helpKeys(b key.Binding) []string { return strings.Split(b.Help().Key, "/") }

// opensIn is a group of a sheet opened from another sheet: shown when
// the key that opens that one works.
func opensIn(opener key.Binding, title string, bs ...key.Binding) Group {
	if !opener.Enabled() {
		return Group{}
	}
	return Group{title, bs}
}

// descWidth is the widest a description runs before it wraps: one long
// description ("unfold/fold; Raw: fold JSON... (where there is something
// to fold)") made its block 80 cells wide and pushed the next block to
// column 90, alone on the right.
const descWidth = 34

// block renders a group's bindings as bubbles' full help does (the keys
// in a column, the descriptions beside them, the bindings not enabled
// left out), with each description wrapped to descWidth cells; "" when
// none is enabled.
func block(st help.Styles, bs []key.Binding) string {
	kw := 0
	for _, b := range bs {
		if b.Enabled() {
			kw = max(kw, lipgloss.Width(b.Help().Key))
		}
	}
	var lines []string
	for _, b := range bs {
		if !b.Enabled() {
			continue
		}
		k := st.FullKey.Render(text.Pad(b.Help().Key, kw))
		for i, d := range text.Wrap(b.Help().Desc, descWidth) {
			if i > 0 {
				k = strings.Repeat(" ", kw)
			}
			lines = append(lines, k+" "+st.FullDesc.Render(d))
		}
	}
	return strings.Join(lines, "\n")
}

// Content renders the groups in as many columns as fit w.
func Content(c *ui.Common, w int) []string {
	var blocks []string
	for _, g := range Groups(c) {
		body := block(c.Styles.Help, g.Bindings)
		if body == "" {
			continue
		}
		blocks = append(blocks, c.Styles.Overlay.Title.Render(g.Title)+"\n"+body)
	}
	const gap = 4
	var rows []string
	var row []string
	rowW := 0
	flush := func() {
		if len(row) > 0 {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
			row, rowW = nil, 0
		}
	}
	for _, b := range blocks {
		bw := lipgloss.Width(b)
		if rowW > 0 && rowW+gap+bw > w {
			flush()
		}
		if rowW > 0 {
			b = lipgloss.NewStyle().PaddingLeft(gap).Render(b)
			bw += gap
		}
		row = append(row, b)
		rowW += bw
	}
	flush()
	var lines []string
	for i, r := range rows {
		if i > 0 {
			lines = append(lines, "")
		}
		for _, l := range strings.Split(r, "\n") {
			lines = append(lines, text.Truncate(strings.TrimRight(l, " "), w))
		}
	}
	return lines
}

// Sheet shows every key binding over the body.
type Sheet struct {
	c    *ui.Common
	vp   viewport.Model
	w, h int
}

// New builds the overlay; its content is laid out by SetSize, from the
// bindings enabled then.
func New(c *ui.Common) *Sheet {
	vp := viewport.New()
	vp.MouseWheelEnabled = false // the root routes the wheel (Wheel)
	vp.FillHeight = true
	return &Sheet{c: c, vp: vp}
}

// Title is empty: the status bar names nothing while the keys show.
func (s *Sheet) Title() string { return "" }

// SetSize lays the help out for a w x h area (title line included).
func (s *Sheet) SetSize(w, h int) {
	s.w, s.h = w, h
	s.vp.SetWidth(max(1, w-1))
	s.vp.SetHeight(max(1, h-1))
	s.vp.SetContentLines(Content(s.c, max(1, w-2)))
}

// Update scrolls or closes.
func (s *Sheet) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	cmd, _, _ := ui.Run(s.Actions(), k)
	return cmd
}

// Actions are the overlay's keys: it scrolls, and ?, esc and q close it.
func (s *Sheet) Actions() []ui.Action {
	k := s.c.Keys
	closeIt := func() tea.Cmd { return ui.Done(s, nil) }
	acts := []ui.Action{ui.OnLine(&k.Nav.Down, ""), ui.OnLine(&k.Nav.Up, ""),
		{Binding: &k.Global.Help, Do: closeIt, Line: true},
		{Binding: &k.Detail.Back, Do: closeIt},
		{Binding: &k.Global.Quit, Do: closeIt},
	}
	return append(acts, ui.ViewportActions(&k.Nav, &s.vp)...)
}

// Wheel scrolls by delta lines.
func (s *Sheet) Wheel(delta int) {
	if delta > 0 {
		s.vp.ScrollDown(delta)
	} else {
		s.vp.ScrollUp(-delta)
	}
}

// Click does nothing: the keys are only to read.
func (s *Sheet) Click(int, int) tea.Cmd { return nil }

// ShortHelp lists the overlay's keys for the help line.
func (s *Sheet) ShortHelp() []key.Binding { return ui.ShortHelp(s.Actions()) }

// FullHelp lists the overlay's keys.
func (s *Sheet) FullHelp() [][]key.Binding {
	k := s.c.Keys
	return [][]key.Binding{{k.Nav.Down, k.Nav.Up, k.Nav.Top, k.Nav.Bottom, k.Global.Help, k.Detail.Back}}
}

// View renders the title and the bindings.
func (s *Sheet) View() string {
	title := s.c.Styles.Overlay.Title.Render(" Keys") + s.c.Styles.Detail.Subtle.Render("  (? or esc closes, ↑/↓ scroll)")
	lines := strings.Split(s.vp.View(), "\n")
	for i, l := range lines {
		lines[i] = text.Pad(" "+l, s.w)
	}
	return text.Pad(title, s.w) + "\n" + strings.Join(lines, "\n")
}

// Describe names the overlay in the header and the status bar: the keys
// of the room it was opened in.
func (s *Sheet) Describe() ui.Description {
	return ui.Description{Title: "Keys", What: "every key that works where ? was pressed, by purpose"}
}
