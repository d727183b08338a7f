package list

import (
	"slices"
	"sort"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/query"
)

// refresh takes in records the index gained since the last look: those
// pinned (pin.go), matching the query and, with wrong-only, failed.
func (l *Pane) refresh() {
	if l.ds == nil || l.st.pending != 0 {
		return
	}
	n := l.ds.Records.Len()
	if n > l.st.known {
		added := visibleRows(l.ds, l.Env(), l.st.pin, l.st.whereQ, l.st.wrongOnly, l.st.known, n)
		if len(added) > 0 && l.st.sortKey.Column != "" {
			// Keep the cursor's record under the cursor while rows arrive.
			sel, had := l.Selected()
			l.st.visible = append(l.st.visible, added...)
			query.Sort(l.Env(), l.st.visible, l.st.sortKey)
			if had {
				l.st.cursor = l.position(sel)
			}
		} else {
			l.st.visible = append(l.st.visible, added...)
		}
	}
	l.st.known = max(l.st.known, n)
	l.clamp()
}

// visibleRows returns the records in [from, to) of ds that the list shows:
// those pinned (a nil pin keeps all), matching q (nil: all) and, with
// wrongOnly, failed under env.Filter. It reads summaries (and records for
// a query on a field held in them alone, Presentation.FieldLabels) and is
// safe off the event loop.
func visibleRows(ds *model.Dataset, env query.Env, pin *pinSet, q *query.Query, wrongOnly bool, from, to int) []int {
	out := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		if !pin.has(i) {
			continue
		}
		s := env.Summary(i)
		if wrongOnly && s.Outcome(env.Filter).Status != model.StatusFail {
			continue
		}
		if q.Empty() || q.MatchAt(env, i, s) {
			out = append(out, i)
		}
	}
	return out
}

// position returns the list position of record i, or 0 (the first row)
// when i is not shown: after a query, a facet or a pin replaced the list,
// the row "after" a record that is gone means nothing to the user, who
// expects to start reading the new list from its top.
func (l *Pane) position(i int) int {
	v := l.st.visible
	if l.st.sortKey.Column == "" {
		if k := sort.SearchInts(v, i); k < len(v) && v[k] == i {
			return k
		}
		return 0
	}
	for pos, j := range v {
		if j == i {
			return pos
		}
	}
	return 0
}

// rebuild recomputes the visible records after the filter, the query, the
// sort, the pin or the wrong-only switch changed, keeping the cursor on
// the same record when it is still shown, else on the first row.
func (l *Pane) rebuild() {
	sel, hadSel := l.Selected()
	l.st.visible, l.st.known, l.st.pending = l.st.visible[:0:0], 0, 0
	l.st.matches, l.st.matchIdx = nil, 0
	l.refresh()
	if hadSel {
		l.st.cursor = l.position(sel)
	}
	l.clamp()
	l.center()
}

// setVisible installs rows computed off the event loop for the records
// [0, known), keeping the cursor's record, then takes in newer records.
func (l *Pane) setVisible(rows []int, known int) {
	sel, hadSel := l.Selected()
	l.st.visible, l.st.known, l.st.pending = rows, known, 0
	l.st.matches, l.st.matchIdx = nil, 0
	if hadSel {
		l.st.cursor = l.position(sel)
	}
	l.refresh()
	l.clamp()
	l.center()
}

// Resync takes in what the dataset learnt (its filters, as a growing
// index learns them): a filter the list selects by name (--filter) may
// be known only now, before being the index of the filter selected
// until now, and the rows picked under another filter are picked again.
func (l *Pane) Resync(before int) {
	if l.FilterIndex() != before && l.filtered() {
		l.rebuild()
	}
	l.refresh()
}

// Known is how many records of the (possibly growing) index the list
// looked at.
func (l *Pane) Known() int { return l.st.known }

// TakeIn takes in the records the index gained since the last look, and
// places a raw search's hits among them; hadRows says whether the list
// showed rows before, so the cursor's record is reported when the first
// ones came.
func (l *Pane) TakeIn(hadRows bool) tea.Cmd {
	l.refresh()
	l.remapHits() // the raw search's hits among the rows that came in
	if !hadRows && len(l.st.visible) > 0 {
		return cursorMoved()
	}
	return nil
}

// Show puts the cursor on record idx, showing every record again if a
// pin or wrong-only hid it; false when the list does not have it.
func (l *Pane) Show(idx int) (tea.Cmd, bool) {
	pos := slices.Index(l.st.visible, idx)
	if pos < 0 && (l.st.pin != nil || l.st.wrongOnly) {
		l.st.pin, l.st.wrongOnly = nil, false
		l.rebuild()
		pos = slices.Index(l.st.visible, idx)
	}
	if pos < 0 {
		return nil, false
	}
	l.moveTo(pos)
	l.center()
	return cursorMoved(), true
}

// Find looks for the record with id among those the list took in from
// record from on: found says whether it is there, shown whether the list
// shows it, and then the cursor is on it (a reload keeps the cursor on
// its record, by id).
func (l *Pane) Find(id string, from int) (found, shown bool) {
	st := l.st
	for r := from; r < st.known; r++ {
		if l.ds.Records.Summary(r).ID != id {
			continue
		}
		pos, ok := positionFunc(st.visible)(r)
		if ok {
			l.moveTo(pos)
			l.center()
		}
		return true, ok
	}
	return false, false
}

// Reloaded carries st, the state of old, over to ds, a reload of it: the
// query (parsed again; dropped when it no longer parses), the sort, the
// columns, the filter by name, the switches and the selection by record
// id; the rows are listed again. It returns the id of the record under
// the cursor, which the caller places the cursor on again (Find). When
// st is the state shown, the list shows ds.
func (l *Pane) Reloaded(st *State, old, ds *model.Dataset) (cursorID string) {
	if st.cursor >= 0 && st.cursor < len(st.visible) {
		cursorID = old.Records.Summary(st.visible[st.cursor]).ID
	}
	delete(l.values, old)
	CancelSearch(old)
	// The filter is kept by name; a filter the new dataset lacks gives
	// way to its first.
	st.visible, st.known, st.pending, st.matches, st.matchIdx = nil, 0, 0, nil, 0
	st.selected, st.anchor = remapSelection(old, ds, st.selected), 0
	if st.whereQ != nil {
		if q, err := l.valueIndexOf(ds, st.filterIn(ds)).Parse(st.where); err == nil {
			st.whereQ = q
		} else {
			st.where, st.whereQ = "", nil
		}
	}
	if st == l.st {
		l.SetDataset(ds, st)
		l.rebuild()
	}
	return cursorID
}
