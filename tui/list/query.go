package list

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/query"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// AsyncRows is the list size above which filtering and sorting run
// off the event loop: below it they take a few milliseconds.
const AsyncRows = 50_000

// filteredMsg carries the visible rows of a filter or sort computed
// off the event loop over the records [0, known) of ds, for st.
type filteredMsg struct {
	id    int
	ds    *model.Dataset
	st    *State
	rows  []int
	known int
}

func (filteredMsg) listMsg() {}

// handleFiltered installs rows computed off the event loop: in the state
// shown, or in the state of a dataset the user switched away from.
func (l *Pane) handleFiltered(msg filteredMsg) tea.Cmd {
	if msg.st.pending != msg.id {
		return nil // superseded, or the dataset was reloaded
	}
	if msg.st != l.st || msg.ds != l.ds {
		st := msg.st
		st.visible, st.known, st.pending = msg.rows, msg.known, 0
		st.cursor = min(st.cursor, max(0, len(msg.rows)-1))
		return nil
	}
	l.setVisible(msg.rows, msg.known)
	return tea.Batch(cursorMoved(), l.Research())
}

// ValueIndex returns the current dataset's value index for the list's
// filter (completion, facets, the columns there are), built once and
// again when the index grew.
func (l *Pane) ValueIndex() *query.ValueIndex {
	ds := l.ds
	if l.values == nil {
		l.values = map[*model.Dataset]*query.ValueIndex{}
	}
	idx := l.values[ds]
	if idx == nil || idx.Len() != ds.Records.Len() {
		idx = query.Values(ds)
		l.values[ds] = idx
	}
	idx = idx.ForFilter(l.FilterIndex())
	if notes := l.Env().Notes; notes != nil {
		idx = idx.WithNotes(notes)
	}
	return idx
}

// valueIndexOf builds a value index of ds for filter fi, with its notes.
func (l *Pane) valueIndexOf(ds *model.Dataset, fi int) *query.ValueIndex {
	idx := query.Values(ds).ForFilter(fi)
	if l.src.Notes != nil {
		if notes := l.src.Notes(ds); notes != nil {
			idx = idx.WithNotes(notes)
		}
	}
	return idx
}

// Forget drops what the list cached of ds (a reload replaced it).
func (l *Pane) Forget(ds *model.Dataset) { delete(l.values, ds) }

// ParseQuery parses q against the current dataset; "" (or only spaces)
// is the empty query.
func (l *Pane) ParseQuery(q string) (*query.Query, error) {
	if strings.TrimSpace(q) == "" {
		return nil, nil
	}
	return l.ValueIndex().Parse(q)
}

// SetQuery narrows the list to the records matching q (the `:` query
// language, see model/query) and the wrong-only switch, keeping the
// cursor on the same record when it stays visible; "" clears the query.
// A filter=NAME term also selects that filter for the list. A query that
// does not parse leaves the list as it was and returns the error. Sheets
// send the user to a slice of the list through it.
func (l *Pane) SetQuery(q string) (tea.Cmd, error) {
	if l.ds == nil {
		return nil, nil
	}
	parsed, err := l.ParseQuery(q)
	if err != nil {
		return nil, err
	}
	return l.ApplyQuery(q, parsed), nil
}

// ApplyQuery installs a parsed query (nil: none) and rebuilds the list.
func (l *Pane) ApplyQuery(q string, parsed *query.Query) tea.Cmd {
	st := l.st
	if parsed.Empty() {
		q, parsed = "", nil
	}
	st.where, st.whereQ = strings.TrimSpace(q), parsed
	if fi := parsed.Selected(l.Env()); fi >= 0 && fi != l.FilterIndex() {
		st.filter = l.ds.Filters[fi] // a filter= term selects it
	}
	return l.relist()
}

// Where is the `:` query narrowing the list, "" for none.
func (l *Pane) Where() string { return l.st.where }

// CompleteQuery completes a query line at its end: field names, values.
func (l *Pane) CompleteQuery(line string) []query.Candidate {
	return query.Complete(l.ValueIndex(), line, len(line))
}

// relist recomputes the visible rows after the query, the sort or the
// filter changed: at once for small lists, off the event loop for big
// ones (the old rows stay until the new ones arrive).
func (l *Pane) relist() tea.Cmd {
	ds := l.ds
	n := ds.Records.Len()
	if n <= AsyncRows {
		l.rebuild()
		return tea.Batch(cursorMoved(), l.Research())
	}
	l.relistID++
	id := l.relistID
	l.st.pending = id
	env, pin, q, wrong, key, st := l.Env(), l.st.pin, l.st.whereQ, l.st.wrongOnly, l.st.sortKey, l.st
	return ui.SafeCmd(func() tea.Msg {
		rows := visibleRows(ds, env, pin, q, wrong, 0, n)
		query.Sort(env, rows, key)
		return filteredMsg{id: id, ds: ds, st: st, rows: rows, known: n}
	})
}

// Refilter lists the rows again when they depend on more than the index
// (a query, the wrong-only switch or a sort): the notes or the threshold
// they read changed.
func (l *Pane) Refilter() tea.Cmd {
	if l.ds == nil || !l.filtered() {
		return nil
	}
	return l.relist()
}

// QueryStatus is the status bar's text for the list's query and sort:
// ":score<5", "sort score↓", "filtering…".
func (l *Pane) QueryStatus() []string {
	if l.ds == nil {
		return nil
	}
	st := l.st
	var parts []string
	if st.where != "" {
		parts = append(parts, ":"+text.OneLine(st.where))
	}
	if k := st.sortKey.String(); k != "" {
		parts = append(parts, "sort "+text.OneLine(k))
	}
	if st.pending != 0 {
		parts = append(parts, "filtering…")
	}
	return parts
}

// LiveQuery is the part of a query line being typed that live filtering
// applies (liveQuery).
func (l *Pane) LiveQuery(line string) (string, bool) { return liveQuery(l.ValueIndex(), line) }

// liveQuery is the part of a query line being typed that live filtering
// applies: the whole line, except a trailing bare word with no operator
// yet that may still become a field name (it completes to one: "tas" of
// task_type=, "-categ"), which would otherwise filter everything out
// until the "=" arrives. held reports that a word was held back; enter
// applies the line as typed.
func liveQuery(idx *query.ValueIndex, line string) (string, bool) {
	if line == "" || strings.HasSuffix(line, " ") {
		return line, false
	}
	cands := query.Complete(idx, line, len(line))
	if len(cands) == 0 || !cands[0].Field {
		return line, false
	}
	start := max(0, min(cands[0].Replace[0], len(line)))
	word := line[start:]
	if word == "" || strings.ContainsAny(word, "\"=<>!~:") {
		return line, false
	}
	head := strings.TrimRight(line[:start], "-")
	if h := strings.TrimRight(head, " "); h == "not" || strings.HasSuffix(h, " not") {
		head = strings.TrimSuffix(h, "not")
	}
	return head, true
}
