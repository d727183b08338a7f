package tui

import (
	"strconv"
	"strings"

	"evalview/tui/text"
	"evalview/tui/ui"
)

// statusInfo is what the status bar shows; the root gathers it.
type statusInfo struct {
	// pos is the 1-based cursor position in the visible list of shown
	// records; all counts the dataset's records when a switch hides some.
	pos, shown, all int
	filter          string
	wrongOnly       bool
	// selected counts the selection ("12 selected"); zoom says one pane
	// has the body (Z).
	selected string
	zoom     bool
	// pin names what the list is pinned to (pin.go); work is background
	// work of the comparison views ("re-extracting 45%").
	pin, work string
	// listQuery is the list's `:` query and sort (querybar.go).
	listQuery string
	// search state: the query, the current match (1-based) and how many;
	// where names the pane searched.
	query          string
	matchCur, hits int
	where          string
	// counting is set while the search runs: hits is not final.
	counting bool
	// scroll is where the detail is in its content ("Raw ↕ 42%").
	scroll  string
	loading string
	// note is a transient message (a record that failed to load).
	note string
	// found says what the folders opened held (Options.Discovery).
	found string
}

// statusBar is the one-line bar over the help line.
type statusBar struct {
	c *ui.Common
	w int
}

// View renders the bar, exactly w cells.
func (s statusBar) View(in statusInfo) string {
	st := s.c.Styles.Bar
	sep := st.Base.Render(" │ ")
	pos := strconv.Itoa(in.pos) + "/" + strconv.Itoa(in.shown)
	if in.shown == 0 {
		pos = "0/0"
	}
	if in.shown != in.all {
		pos += " of " + strconv.Itoa(in.all)
	}
	parts := []string{st.Position.Render(" " + pos)}
	if in.filter != "" {
		parts = append(parts, st.Item.Render("filter ")+st.Position.Render(text.OneLine(in.filter)))
	}
	if in.wrongOnly {
		parts = append(parts, st.Active.Render("wrong only"))
	}
	if in.zoom {
		parts = append(parts, st.Active.Render("zoom"))
	}
	if in.selected != "" {
		parts = append(parts, s.c.Styles.List.Selected.Render(in.selected))
	}
	if in.listQuery != "" {
		parts = append(parts, st.Active.Render(in.listQuery))
	}
	if in.pin != "" {
		parts = append(parts, st.Active.Render(text.OneLine(in.pin)))
	}
	if in.work != "" {
		parts = append(parts, st.Loading.Render(in.work))
	}
	if in.query != "" {
		q := "/" + text.OneLine(in.query)
		switch {
		case in.hits == 0 && in.counting:
			q += " searching…"
		case in.hits == 0:
			q += " no match"
		default:
			q += " " + strconv.Itoa(in.matchCur) + "/" + strconv.Itoa(in.hits)
			if in.counting {
				q += "…" // more may come
			}
		}
		if in.where != "" {
			q += " in " + in.where
		}
		parts = append(parts, st.Active.Render(q))
	}
	if in.loading != "" {
		parts = append(parts, st.Loading.Render(in.loading))
	}
	if in.note != "" {
		parts = append(parts, s.c.Styles.Issue.Error.Render(text.OneLine(in.note)))
	}
	if in.found != "" {
		parts = append(parts, st.Item.Render(text.OneLine(in.found)))
	}
	if in.scroll != "" { // last: the first to go when the bar is full
		parts = append(parts, st.Item.Render(in.scroll))
	}
	left := strings.Join(parts, sep)
	right := st.Hint.Render("? help ")
	if text.Width(left)+text.Width(right)+1 > s.w {
		right = ""
	}
	left = text.Truncate(left, s.w-text.Width(right))
	gap := s.w - text.Width(left) - text.Width(right)
	return left + st.Base.Render(strings.Repeat(" ", max(0, gap))) + right
}

// searchLine renders the search prompt while the query is typed, with
// the number of matches so far (counting: more may come, or the query
// typed is not searched yet).
func (s statusBar) searchLine(input, where string, hits int, query, counting bool) string {
	st := s.c.Styles.Bar
	count := ""
	if query {
		count = strconv.Itoa(hits) + " matches"
		if hits == 1 {
			count = "1 match"
		}
		if counting {
			count += "…"
		}
		count += " · "
	}
	hint := st.Hint.Render(count + "enter keep · esc cancel · in " + where + " ")
	if text.Width(hint)+20 > s.w {
		hint = ""
	}
	left := text.Truncate(input, s.w-text.Width(hint))
	gap := s.w - text.Width(left) - text.Width(hint)
	return left + st.Base.Render(strings.Repeat(" ", max(0, gap))) + hint
}
