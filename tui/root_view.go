package tui

import (
	"runtime/debug"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"evalview/model"
	"evalview/tui/crash"
	"evalview/tui/statusbar"
	"evalview/tui/styles"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// View renders the screen: exactly the window's size, nothing wider.
func (m *Model) View() (v tea.View) {
	defer func() {
		if r := recover(); r != nil {
			m.crash = &crash.Info{Value: r, Stack: debug.Stack()}
			if m.program != nil {
				go m.program.Quit()
			}
			v = tea.NewView("evalview crashed; quitting…")
		}
	}()
	if m.crash != nil {
		return tea.NewView("evalview crashed; quitting…")
	}
	if m.viewKept && m.kept != nil {
		// Bubble Tea asks for the view after every message; one that
		// nothing took (a terminal's report, a mouse motion) changed
		// nothing, and a frame costs a millisecond or more.
		return *m.kept
	}
	v = tea.NewView(m.render())
	if m.ready {
		firstFrameDrawn()
	}
	m.trace.view(m)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "evalview"
	if len(m.datasets) > 0 {
		v.WindowTitle = "evalview · " + text.OneLine(m.datasets[m.cur].Title)
	}
	m.kept = &v
	return v
}

// render builds the screen text.
func (m *Model) render() string {
	l := m.layout
	if !m.ready {
		return ""
	}
	if l.TooSmall {
		return tooSmall(m.c.Styles, l.Width, l.Height)
	}
	parts := []string{m.header.View()}
	body := m.bodyView()
	if s := m.sheets.top(); s != nil {
		body = s.View()
	}
	parts = append(parts, withMenu(body, m.input.menu(l.Width, m.c.Styles)))
	if m.input != nil {
		parts = append(parts, m.inputView())
	} else {
		parts = append(parts, m.status.View(m.statusInfo()))
	}
	m.help.SetWidth(l.Width)
	parts = append(parts, text.Pad(m.help.ShortHelpView(m.shortHelp()), l.Width))
	return strings.Join(parts, "\n")
}

// bodyView joins the list and the detail, stacked or side by side.
func (m *Model) bodyView() string {
	switch {
	case m.layout.List.H == 0:
		return m.detail.View() // zoomed
	case m.layout.Detail.H == 0:
		return m.list.View()
	}
	if m.layout.Stacked {
		return m.list.View() + "\n" + m.detail.View()
	}
	// Both panes render exactly their rectangles, so lines join as they are.
	left := strings.Split(m.list.View(), "\n")
	right := strings.Split(m.detail.View(), "\n")
	div := m.c.Styles.Header.Rule.Render("│")
	lines := make([]string, m.layout.Body.H)
	for i := range lines {
		l, r := strings.Repeat(" ", m.layout.List.W), strings.Repeat(" ", m.layout.Detail.W)
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		lines[i] = l + div + r
	}
	return strings.Join(lines, "\n")
}

// tooSmall is the notice shown below the minimum size, centered and cut
// to whatever room there is.
func tooSmall(st *styles.Styles, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	msg := text.Wrap("Terminal too small: "+itoa(w)+"x"+itoa(h)+", evalview needs at least "+itoa(MinWidth)+"x"+itoa(MinHeight)+". Enlarge the window or press q to quit.", w)
	if len(msg) > h {
		msg = msg[:h]
		msg[h-1] = text.Truncate(msg[h-1]+" …", w)
	}
	for i, l := range msg {
		msg[i] = st.TooSmall.Render(l)
	}
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, strings.Join(msg, "\n"))
}

// statusInfo gathers the status bar's content. Over a sheet it says
// what the sheet shows, not the hidden list's position: a sheet that
// lines datasets up (ui.Describer) its own position and nothing of the
// current dataset; a sheet over the dataset its name, with the list's
// filter, switches and query, which decide what it counts.
func (m *Model) statusInfo() statusbar.Info {
	in := statusbar.Info{Note: m.note, Found: m.found}
	if in.Note == "" {
		in.Note = m.opening.Failed()
	}
	if s := m.opening.Status(len(m.datasets)); s != "" {
		in.Loading = m.spinner.View() + " " + s
	}
	if len(m.datasets) == 0 {
		return in
	}
	ds := m.datasets[m.cur]
	top := m.sheets.top()
	if d, ok := top.(ui.Describer); ok {
		desc := d.Describe()
		in.Sheet = strings.ToLower(desc.Title)
		if desc.Pos != "" {
			in.Sheet += " · " + desc.Pos
		}
		in.ListQuery = text.OneLine(m.flashText())
		in.Loading = m.loadingText(ds)
		return in
	}
	in.Pos, in.Shown = m.list.Position()
	in.All = ds.Records.Len()
	if fi := m.list.FilterIndex(); fi >= 0 {
		in.Filter = ds.Filters[fi]
	}
	in.WrongOnly = m.list.WrongOnly()
	in.Zoom = m.zoom
	in.Pin, in.Work = m.list.PinLabel(), m.deep.status(ds)
	// The list's query and sort, after the follow marker and before a
	// tool's flash: "following · :score<5 · sort score↓".
	var q []string
	if f := m.follow.status(); f != "" {
		q = append(q, f)
	}
	q = append(q, m.list.QueryStatus()...)
	if f := m.flashText(); f != "" {
		q = append(q, text.OneLine(f))
	}
	in.ListQuery = strings.Join(q, " · ")
	in.Loading = m.loadingText(ds)
	if top != nil {
		// The sheet covers the panes: name it, not the list's position,
		// selection and search or the detail's scroll.
		in.Sheet = text.OneLine(top.Title())
		in.Zoom = false
		return in
	}
	in.Selected = m.list.SelectionLabel()
	dq, _ := m.detail.SearchQuery()
	switch q := m.list.Query(); {
	case m.search.detailFollows(m.focus):
		in.Query, in.Where = q, m.detail.TabName()
		in.Hits, in.MatchCur = m.detail.SearchHits()
	case m.search.in == focusList && q != "":
		in.Query, in.Where = q, "list"
		in.Hits, in.MatchCur, in.Counting = m.list.Matches()
	case m.search.in == focusDetail && dq != "":
		in.Query, in.Where = dq, m.detail.TabName()
		in.Hits, in.MatchCur = m.detail.SearchHits()
	}
	if in.Hits == 0 && !in.Counting && m.searchedAt != m.pressed {
		in.Query = "" // "no match" is said once, after the search
	}
	if mark := m.detail.ScrollMark(); mark != "" {
		in.Scroll = m.detail.TabName() + " " + mark
	}
	return in
}

// flashText is what a tool did, for the status bar: the flash, or the
// count of a reload, said as final only once its index is complete.
func (m *Model) flashText() string {
	ds := m.reloaded
	if ds == nil {
		return m.flash
	}
	n := ds.Records.Len()
	if !ds.Records.Done() {
		return "reloading: " + text.Plural(n, "record") + " so far"
	}
	return "reloaded " + text.Plural(n, "record")
}

// loadingText is the status bar's work in progress: the index of ds
// growing, a record loading, a tab rendering.
func (m *Model) loadingText(ds *model.Dataset) string {
	switch {
	case m.opening.Status(len(m.datasets)) != "":
		return m.spinner.View() + " " + m.opening.Status(len(m.datasets))
	case !ds.Records.Done():
		return m.spinner.View() + " indexing…"
	case m.loading:
		return m.spinner.View() + " loading record…"
	case m.detail.Busy():
		return m.spinner.View() + " rendering…"
	}
	return ""
}

func itoa(n int) string { return strconv.Itoa(n) }
