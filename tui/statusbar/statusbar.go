// Package statusbar is the one-line bar over the help line: the cursor's
// position, the filter and the switches, the list's query and sort, the
// search and its matches, work in progress, a note, where the detail is
// scrolled. The root gathers what it shows (Info) from the rooms after
// every message; the bar only draws it.
package statusbar

import (
	"strconv"
	"strings"

	"evalview/tui/text"
	"evalview/tui/ui"
)

// Info is what the status bar shows; the root gathers it.
type Info struct {
	// Sheet names the sheet on screen and where its cursor is ("overview
	// · task 3/12 · lm-1b-instruct"): it takes the place of the list's
	// position, which is not on screen.
	Sheet string
	// Pos is the 1-based cursor position among the Shown records; All
	// counts the dataset's records when a switch hides some.
	Pos, Shown, All int
	Filter          string
	WrongOnly       bool
	// Selected counts the selection ("12 selected"); Zoom says one pane
	// has the body (Z).
	Selected string
	Zoom     bool
	// Pin names what the list is pinned to; Work is background work of
	// the comparison views ("re-extracting 45%").
	Pin, Work string
	// ListQuery is the list's `:` query and sort.
	ListQuery string
	// The search: its query, the current match (1-based) and how many;
	// Where names the pane searched.
	Query          string
	MatchCur, Hits int
	Where          string
	// Counting is set while the search runs: Hits is not final.
	Counting bool
	// Scroll is where the detail is in its content ("Raw ↕ 42%").
	Scroll  string
	Loading string
	// Note is a transient message (a record that failed to load).
	Note string
	// Found says what the folders opened held (Options.Discovery).
	Found string
}

// Bar is the one-line bar over the help line.
type Bar struct {
	c *ui.Common
	w int
}

// New builds the bar.
func New(c *ui.Common) *Bar { return &Bar{c: c} }

// SetWidth sets the bar's width in cells.
func (s *Bar) SetWidth(w int) { s.w = w }

// View renders the bar, exactly w cells.
func (s *Bar) View(in Info) string {
	st := s.c.Styles.Bar
	sep := st.Base.Render(" │ ")
	pos := strconv.Itoa(in.Pos) + "/" + strconv.Itoa(in.Shown)
	if in.Shown == 0 {
		pos = "0/0"
	}
	if in.Shown != in.All {
		pos += " of " + strconv.Itoa(in.All)
	}
	parts := []string{st.Position.Render(" " + pos)}
	if in.Sheet != "" {
		parts = []string{st.Position.Render(" " + text.OneLine(in.Sheet))}
	}
	if in.Filter != "" {
		parts = append(parts, st.Item.Render("filter ")+st.Position.Render(text.OneLine(in.Filter)))
	}
	if in.WrongOnly {
		parts = append(parts, st.Active.Render("wrong only"))
	}
	if in.Zoom {
		parts = append(parts, st.Active.Render("zoom"))
	}
	if in.Selected != "" {
		parts = append(parts, s.c.Styles.List.Selected.Render(in.Selected))
	}
	if in.ListQuery != "" {
		parts = append(parts, st.Active.Render(in.ListQuery))
	}
	if in.Pin != "" {
		parts = append(parts, st.Active.Render(text.OneLine(in.Pin)))
	}
	if in.Work != "" {
		parts = append(parts, st.Loading.Render(in.Work))
	}
	if in.Query != "" {
		q := "/" + text.OneLine(in.Query)
		switch {
		case in.Hits == 0 && in.Counting:
			q += " searching…"
		case in.Hits == 0:
			q += " no match"
		default:
			q += " " + strconv.Itoa(in.MatchCur) + "/" + strconv.Itoa(in.Hits)
			if in.Counting {
				q += "…" // more may come
			}
		}
		if in.Where != "" {
			q += " in " + in.Where
		}
		parts = append(parts, st.Active.Render(q))
	}
	if in.Loading != "" {
		parts = append(parts, st.Loading.Render(in.Loading))
	}
	if in.Note != "" {
		parts = append(parts, s.c.Styles.Issue.Error.Render(text.OneLine(in.Note)))
	}
	if in.Found != "" {
		parts = append(parts, st.Item.Render(text.OneLine(in.Found)))
	}
	if in.Scroll != "" { // last: the first to go when the bar is full
		parts = append(parts, st.Item.Render(in.Scroll))
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

// SearchLine renders the search prompt while the query is typed, with
// the number of matches so far (counting: more may come, or the query
// typed is not searched yet).
func (s *Bar) SearchLine(input, where string, hits int, query, counting bool) string {
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
