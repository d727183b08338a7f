package detail

import (
	tea "charm.land/bubbletea/v2"

	"strconv"
	"strings"

	"evalview/model"
	"evalview/tui/content"
	"evalview/tui/text"
)

// tabLabel is a tab's text in the bar: "2 Responses", "7 Issues (3)".
func (d *Pane) tabLabel(i int) string {
	t := d.tabs[i]
	l := strconv.Itoa(i+1) + " " + t.Name
	if i >= 9 {
		l = t.Name
	}
	if t.Content == model.TabIssues {
		var all []model.Issue
		if d.ds != nil {
			all = append(all, d.ds.Issues...)
		}
		if d.rec != nil {
			all = append(all, d.rec.Issues...)
		}
		l += " (" + content.IssueCount(all) + ")"
	}
	return l
}

// tabBar renders the tabs on one line of d.w cells: the active one in
// brackets, a window of tabs around it with ‹ › markers when they do not
// all fit, and the record id on the right when there is room.
func (d *Pane) tabBar() string {
	st := d.c.Styles
	d.tabHits = d.tabHits[:0]
	if len(d.tabs) == 0 {
		return text.Pad("", d.w)
	}
	labels := make([]string, len(d.tabs))
	widths := make([]int, len(d.tabs))
	for i := range d.tabs {
		labels[i] = text.OneLine(d.tabLabel(i))
		if i == d.tab {
			labels[i] = "[" + labels[i] + "]"
		}
		widths[i] = text.Width(labels[i])
	}
	// Grow a window around the active tab while it fits; tabs are
	// separated by one space, and "‹ " / " ›" mark hidden ones.
	lo, hi := d.tab, d.tab+1
	used := widths[d.tab]
	fits := func(extra, lo, hi int) bool {
		room := d.w
		if lo > 0 {
			room -= 2
		}
		if hi < len(d.tabs) {
			room -= 2
		}
		return used+1+extra <= room
	}
	for {
		grown := false
		if hi < len(d.tabs) && fits(widths[hi], lo, hi+1) {
			used += 1 + widths[hi]
			hi++
			grown = true
		}
		if lo > 0 && fits(widths[lo-1], lo-1, hi) {
			lo--
			used += 1 + widths[lo]
			grown = true
		}
		if !grown {
			break
		}
	}
	var b strings.Builder
	x := 0
	if lo > 0 {
		b.WriteString(st.Detail.TabMarker.Render("‹ "))
		x += 2
	}
	for i := lo; i < hi; i++ {
		if i > lo {
			b.WriteString(" ")
			x++
		}
		style := st.Detail.Tab
		if i == d.tab {
			style = st.Detail.ActiveTabBlurred
			if d.focused {
				style = st.Detail.ActiveTab
			}
		}
		label := text.Truncate(labels[i], max(1, d.w-x))
		b.WriteString(style.Render(label))
		d.tabHits = append(d.tabHits, tabHit{x0: x, x1: x + text.Width(label), tab: i})
		x += text.Width(label)
	}
	if hi < len(d.tabs) {
		b.WriteString(st.Detail.TabMarker.Render(" ›"))
		x += 2
	}
	if d.rec != nil {
		id := "id " + text.OneLine(d.rec.ID)
		if x+2+text.Width(id) <= d.w {
			b.WriteString(strings.Repeat(" ", d.w-x-text.Width(id)))
			b.WriteString(st.Detail.Subtle.Render(id))
		}
	}
	return text.Pad(b.String(), d.w)
}

// ScrollMark tells where the view is in content taller than the pane,
// for the status bar: "↓ top" at the top, "↕ 42%" inside, "end" at the
// bottom; "" when it all fits.
func (d *Pane) ScrollMark() string {
	if len(d.tabs) == 0 || d.vp.TotalLineCount() <= d.vp.Height() {
		return ""
	}
	pct := int(d.vp.ScrollPercent()*100 + 0.5)
	switch {
	case d.vp.AtBottom():
		return "end"
	case d.vp.AtTop():
		return "↓ top"
	default:
		return "↕ " + strconv.Itoa(pct) + "%"
	}
}

// tabAt returns the tab at pane-relative column x of the tab bar.
func (d *Pane) tabAt(x int) (int, bool) {
	d.tabBar() // lays the bar out and records where each tab is
	for _, h := range d.tabHits {
		if x >= h.x0 && x < h.x1 {
			return h.tab, true
		}
	}
	return 0, false
}

// Click takes a click at pane-relative (x, y): on the tab bar it shows
// the tab under it, as the user's choice.
func (d *Pane) Click(x, y int) tea.Cmd {
	if y != 0 {
		return nil
	}
	if t, ok := d.tabAt(x); ok {
		return d.ChooseTab(t)
	}
	return nil
}
