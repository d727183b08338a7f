package list

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"evalview/model/query"
	"evalview/tui/text"
)

// The list sorts by the column under its column cursor (← →, or a click
// on a heading): `s` sorts by it ascending, again descending, a third
// time back to file order. Columns are query fields, so the heading, the
// column chooser and the `:` query name the same thing.

// shownColumns are the fields the pane has room for now.
func (l *Pane) shownColumns() []string {
	var out []string
	for _, c := range l.layout(l.Env(), l.page()) {
		out = append(out, c.field)
	}
	return out
}

// currentColumn is the field under the column cursor: the one the user
// moved to, else the sorted one, else the first shown.
func (l *Pane) currentColumn() string {
	shown := l.shownColumns()
	for _, f := range []string{l.st.column, l.st.sortKey.Column} {
		if f != "" && slices.Contains(shown, f) {
			return f
		}
	}
	if len(shown) == 0 {
		return ""
	}
	return shown[0]
}

// moveColumn moves the column cursor by d shown columns.
func (l *Pane) moveColumn(d int) {
	shown := l.shownColumns()
	if len(shown) == 0 {
		return
	}
	i := max(0, slices.Index(shown, l.currentColumn()))
	l.st.column = shown[max(0, min(len(shown)-1, i+d))]
}

// columnAt is the field whose heading covers pane column x.
func (l *Pane) columnAt(x int) (string, bool) {
	cols := l.layout(l.Env(), l.page())
	if n := len(cols); n > 0 && cols[n-1].right && !cols[n-1].flex {
		// The last column's heading may reach into the one before it.
		end := rowPrefix + usedWidth(cols)
		if fi := flexIndex(cols); fi >= 0 {
			end += cols[fi].w
		}
		if x >= end-text.Width(cols[n-1].head) && x < end {
			return cols[n-1].field, true
		}
	}
	at := rowPrefix
	for _, c := range cols {
		if x >= at && x < at+c.w+1 {
			return c.field, true
		}
		at += c.w + 1
	}
	return "", false
}

// nextSortKey is the sort `s` gives on column col: ascending, then
// descending, then file order.
func nextSortKey(cur query.SortKey, col string) query.SortKey {
	switch {
	case col == "":
		return query.SortKey{}
	case cur.Column != col:
		return query.SortKey{Column: col}
	case !cur.Desc:
		return query.SortKey{Column: col, Desc: true}
	}
	return query.SortKey{}
}

// headingView renders the heading line: the sorted column marked ↑ or ↓,
// the one under the column cursor highlighted while the list has the
// focus.
func (l *Pane) headingView(cols []colLayout) string {
	st := l.c.Styles
	for i := range cols {
		if cols[i].field != l.st.sortKey.Column {
			continue
		}
		arrow := "↑"
		if l.st.sortKey.Desc {
			arrow = "↓"
		}
		h := cols[i].head
		if text.Width(h)+1 > cols[i].w && !(cols[i].right && i == len(cols)-1) {
			h = text.Truncate(h, max(0, cols[i].w-1))
		}
		cols[i].head = h + arrow
	}
	head := text.Pad(text.Truncate(strings.Repeat(" ", rowPrefix)+headingLine(cols, min(rowWidth(cols), max(0, l.w-rowPrefix))), l.w), l.w)
	hs := st.List.Heading
	if !l.focused {
		return hs.Render(head)
	}
	hs = st.List.HeadingFocused
	cur := l.currentColumn()
	at := rowPrefix
	for i, c := range cols {
		if c.field == cur {
			end := min(l.w, at+c.w)
			if c.right && i == len(cols)-1 && i > 0 { // its heading may reach left
				end = l.w
				at = max(rowPrefix, min(at, end-text.Width(c.head)))
			}
			return hs.Render(ansi.Cut(head, 0, at)) + st.List.Column.Render(ansi.Cut(head, at, end)) + hs.Render(ansi.Cut(head, end, l.w))
		}
		at += c.w + 1
	}
	return hs.Render(head)
}

// CycleSort sorts the list by the column under the column cursor (`s`):
// ascending, descending, then file order. Records without a value stay
// last (query.Sort).
func (l *Pane) CycleSort() tea.Cmd {
	return l.setSort(nextSortKey(l.st.sortKey, l.currentColumn()))
}

// ReverseSort flips the sort direction (`S`); on a list in file order it
// shows the last records first by sorting by line, else by id.
func (l *Pane) ReverseSort() tea.Cmd {
	k := l.st.sortKey
	if k.Column == "" {
		k.Column = "id"
		if l.ds.Records.Len() > 0 && l.ds.Records.Summary(0).Line > 0 {
			k.Column = "line"
		}
		return l.setSort(query.SortKey{Column: k.Column, Desc: true})
	}
	k.Desc = !k.Desc
	return l.setSort(k)
}

// setSort orders the list by k and keeps the cursor on its record.
func (l *Pane) setSort(k query.SortKey) tea.Cmd {
	l.st.sortKey = k
	if k.Column != "" {
		l.st.column = k.Column
	}
	return l.relist()
}
