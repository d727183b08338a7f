package list

import (
	"slices"
	"sort"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
)

// The list's selection: records picked by hand (p), by range (P) or all
// that a query shows (*), which label, note, export and copy then act on
// at once. It belongs to the list state, one per dataset, and holds record
// indexes, so it survives a new query, sort or filter: narrowing the list
// with `:` and then selecting all shown is how a query selects.

// selection is a set of record indexes.
type selection map[int]struct{}

// has reports whether record i is selected.
func (s selection) has(i int) bool {
	_, ok := s[i]
	return ok
}

// toggleSelected selects the row under the cursor, or unselects it, and
// moves down, so that a run of rows is picked with one key each.
func (l *Pane) toggleSelected() {
	i, ok := l.Selected()
	if !ok {
		return
	}
	if l.st.selected.has(i) {
		delete(l.st.selected, i)
	} else {
		l.addSelected(i)
	}
	l.st.anchor = i + 1
	l.moveBy(1)
}

// addSelected selects records.
func (l *Pane) addSelected(rows ...int) {
	if l.st.selected == nil {
		l.st.selected = selection{}
	}
	for _, i := range rows {
		l.st.selected[i] = struct{}{}
	}
}

// selectRange selects the rows from the one last toggled to the cursor,
// both included (the cursor's alone when that row is not shown).
func (l *Pane) selectRange() tea.Cmd {
	cur, ok := l.Selected()
	if !ok {
		return nil
	}
	from := slices.Index(l.st.visible, l.st.anchor-1)
	if l.st.anchor == 0 || from < 0 {
		from = l.st.cursor
	}
	lo, hi := min(from, l.st.cursor), max(from, l.st.cursor)
	l.addSelected(l.st.visible[lo : hi+1]...)
	l.st.anchor = cur + 1
	return nil
}

// selectAll selects every row shown; when they all are already, it
// unselects them.
func (l *Pane) selectAll() tea.Cmd {
	all := len(l.st.visible) > 0
	for _, i := range l.st.visible {
		if !l.st.selected.has(i) {
			all = false
			break
		}
	}
	if all {
		for _, i := range l.st.visible {
			delete(l.st.selected, i)
		}
		return nil
	}
	l.addSelected(l.st.visible...)
	return nil
}

// ClearSelection empties the selection.
func (l *Pane) ClearSelection() { l.st.selected, l.st.anchor = nil, 0 }

// unselect empties the selection (esc).
func (l *Pane) unselect() tea.Cmd {
	l.ClearSelection()
	return nil
}

// Selection counts the selected records.
func (l *Pane) Selection() int { return len(l.st.selected) }

// SelectedRows are the selected records: those shown in list order, then
// the ones the list hides now, in file order.
func (l *Pane) SelectedRows() []int {
	if len(l.st.selected) == 0 {
		return nil
	}
	out := make([]int, 0, len(l.st.selected))
	shown := selection{}
	for _, i := range l.st.visible {
		if l.st.selected.has(i) {
			out = append(out, i)
			shown[i] = struct{}{}
		}
	}
	if len(out) == len(l.st.selected) {
		return out
	}
	var hidden []int
	for i := range l.st.selected {
		if !shown.has(i) {
			hidden = append(hidden, i)
		}
	}
	sort.Ints(hidden)
	return append(out, hidden...)
}

// SelectionLabel says in the status bar how many records are selected,
// and how many of them the list hides now.
func (l *Pane) SelectionLabel() string {
	n := len(l.st.selected)
	if n == 0 {
		return ""
	}
	s := strconv.Itoa(n) + " selected"
	shown := 0
	for _, i := range l.st.visible {
		if l.st.selected.has(i) {
			shown++
		}
	}
	if shown < n {
		s += " (" + strconv.Itoa(n-shown) + " hidden)"
	}
	return s
}

// selectMark is the second cell of a row's mark: "•" when selected.
func (l *Pane) selectMark(i int) string {
	if l.st.selected.has(i) {
		return "•"
	}
	return " "
}

// remapSelection carries a selection of old's records over to ds, a
// reload of it, by record id: the records a reload kept stay selected
// wherever they moved to.
func remapSelection(old, ds *model.Dataset, sel selection) selection {
	if len(sel) == 0 {
		return nil
	}
	ids := map[string]bool{}
	for i := range sel {
		if i < old.Records.Len() {
			ids[old.Records.Summary(i).ID] = true
		}
	}
	out := selection{}
	for i, n := 0, ds.Records.Len(); i < n && len(out) < len(ids); i++ {
		if ids[ds.Records.Summary(i).ID] {
			out[i] = struct{}{}
		}
	}
	return out
}
