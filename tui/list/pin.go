package list

import (
	"sort"

	tea "charm.land/bubbletea/v2"
)

// pinSet restricts the record list to a fixed set of records chosen in a
// sheet (a cell of a 2x2 table, a slice, the docs a re-extraction flagged):
// choices the query language cannot spell, like "right under strict-match
// and wrong under flexible-extract". It lives in the list state, so each
// dataset keeps its own; esc in the list clears it.
type pinSet struct {
	// label says in the status bar what the list is pinned to.
	label string
	// rows are the pinned record indexes, ascending, each once.
	rows []int
}

// newPin pins rows (in any order, duplicates allowed) under label.
func newPin(label string, rows []int) *pinSet {
	rs := append([]int(nil), rows...)
	sort.Ints(rs)
	out := rs[:0]
	for i, r := range rs {
		if i == 0 || r != rs[i-1] {
			out = append(out, r)
		}
	}
	return &pinSet{label: label, rows: out}
}

// has reports whether record i is pinned; a nil pin keeps every record.
func (p *pinSet) has(i int) bool {
	if p == nil {
		return true
	}
	k := sort.SearchInts(p.rows, i)
	return k < len(p.rows) && p.rows[k] == i
}

// Pin shows only rows in the list, labelled, and moves the cursor to
// the first of them. Wrong-only is switched off: the rows were chosen for
// what they are, a second filter would hide some of them.
func (l *Pane) Pin(label string, rows []int) tea.Cmd {
	if l.ds == nil {
		return nil
	}
	l.st.pin = newPin(label, rows)
	l.st.wrongOnly = false
	l.st.cursor, l.st.offset = 0, 0
	l.rebuild()
	l.moveTo(0)
	return tea.Batch(cursorMoved(), l.Research())
}

// ClearPin shows every record again, keeping the cursor on its record.
func (l *Pane) ClearPin() tea.Cmd {
	if l.st.pin == nil {
		return nil
	}
	l.st.pin = nil
	l.rebuild()
	return tea.Batch(cursorMoved(), l.Research())
}

// Pinned reports whether a pin restricts the list.
func (l *Pane) Pinned() bool { return l.st.pin != nil }

// PinLabel is the status bar's note of the pin, "" when there is none.
func (l *Pane) PinLabel() string {
	if p := l.st.pin; p != nil {
		return "pinned: " + p.label + " (esc clears)"
	}
	return ""
}
