// Package list is the record list, a room of the browser: one row per
// record of the current dataset under the selected filter, narrowed by
// the `:` query, the wrong-only switch and a pin, sorted by the column
// under the column cursor, searched with `/`, with a selection that
// label, note, export and copy act on.
//
// Its state is a State per dataset, which the root keeps (switching back
// restores it) and hands to the Pane with SetDataset; nothing outside
// this package reads or writes its fields. The Pane is a ui.Component:
// the root routes it the keys while it has the focus and its own
// background messages (Msg), and calls its methods for what other rooms
// ask (a sheet's query or pin, a threshold moved). What the list decides
// is reported upward with messages: CursorMsg (another record is under
// the cursor), OpenMsg (enter on a row), RepeatLabelMsg (`.`).
package list

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/query"
	"evalview/tui/content"
	"evalview/tui/sheets/columns"
	"evalview/tui/sheets/facets"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// State is the record list's state for one dataset; the browser keeps
// one per dataset so switching back restores it.
type State struct {
	// filter names the selected lm-eval filter: the one the user chose
	// (f, a filter= term), else the one --filter asked for, else "" (the
	// first). It is the one owner of the selection: the header, the
	// detail, the queries and the sheets read its index (FilterIndex),
	// which follows a growing index as it learns its filters, and a
	// reload.
	filter    string
	wrongOnly bool
	// pin, when set, restricts the list to records chosen in a sheet (pin.go).
	pin *pinSet
	// visible lists the record indexes shown, ascending; known is how many
	// records of the (possibly growing) index were looked at.
	visible []int
	known   int
	cursor  int
	offset  int
	// tab is the detail tab the user last chose here.
	tab string
	// search: the query, the matching list positions and the current one.
	query    string
	matches  []int
	matchIdx int
	// hitRecords are a raw search's hits as records (nil for other
	// searches): matches follows them as the list grows. counting is set
	// while the search still runs (the count is not final).
	hitRecords []int
	rawRunning bool // the raw search's stream still runs
	counting   bool
	// where is the `:` query line narrowing the list, whereQ its parse
	// (nil when where is empty); sortKey orders the list (empty column:
	// file order, visible ascending).
	where   string
	whereQ  *query.Query
	sortKey query.SortKey
	// pending tags a filter computed off the event loop; while it runs
	// the list shows the old rows and takes in no new ones.
	pending int
	// columns are the fields shown (`c`); nil: the kind's defaults.
	columns []string
	// selected are the records selected (select.go); anchor is the
	// record last toggled, plus one (0: none), where a range starts.
	selected selection
	anchor   int
	// column is the field under the column cursor (sort.go), ""
	// for the first shown.
	column string
}

// NewState is a dataset's list state before the user changed anything;
// filter names the lm-eval filter to select ("" for the first).
func NewState(filter string) *State { return &State{filter: filter} }

// Sources are what the list reads of the browser around it.
type Sources struct {
	// Notes gives a dataset's error-analysis notes to queries, sorting
	// and the label column; nil or a nil result: no notes.
	Notes func(*model.Dataset) query.NoteLookup
	// Threshold is the one a scored dataset's statuses are read at
	// (the rows' glyphs, the query, the sort), nil for other datasets.
	Threshold func(*model.Dataset) *float64
	// Gate is what the background passes pause at while the user waits:
	// a search of the source bytes holds it.
	Gate func() *model.Gate
}

// Pane is the record list: a status glyph, an issue marker and the
// columns of each record, under the selected filter.
type Pane struct {
	c       *ui.Common
	src     Sources
	ds      *model.Dataset
	st      *State
	w, h    int
	focused bool
	// relistID tags the latest filter computed off the event loop;
	// searchID the latest search.
	relistID, searchID int
	// values caches each dataset's value index (completion, parsing).
	values map[*model.Dataset]*query.ValueIndex
}

// The list is a component like the sheets.
var _ ui.Component = (*Pane)(nil)

// New builds the list over no dataset yet (SetDataset shows one).
func New(c *ui.Common, src Sources) *Pane {
	if src.Threshold == nil {
		src.Threshold = func(*model.Dataset) *float64 { return nil }
	}
	if src.Gate == nil {
		g := model.NewGate()
		src.Gate = func() *model.Gate { return g }
	}
	return &Pane{c: c, src: src, st: &State{}}
}

// CursorMsg reports that the record under the cursor may have changed:
// the cursor moved, or the rows under it did. The root shows the record
// under the cursor (Selected) in the detail.
type CursorMsg struct{}

// OpenMsg reports enter on a row: the user opens the record's detail.
type OpenMsg struct{}

// RepeatLabelMsg asks for the labels last added to go to the row under
// the cursor, and the cursor to move down (`.`).
type RepeatLabelMsg struct{}

// Msg is a message of the list's own background work (a filter or a
// search computed off the event loop): the root hands it back to Update.
type Msg interface{ listMsg() }

// cursorMoved is the command that reports the cursor's record.
func cursorMoved() tea.Cmd { return ui.Send(CursorMsg{}) }

// SetDataset shows ds with its state, which the root keeps.
func (l *Pane) SetDataset(ds *model.Dataset, st *State) {
	l.ds, l.st = ds, st
	l.refresh()
}

// SetFocused says whether the list has the keys (the cursor mark and the
// heading's column cursor show it).
func (l *Pane) SetFocused(f bool) { l.focused = f }

// filterIn is the index in ds.Filters of the selected filter: the named
// one when ds has it, else the first; -1 when ds has none.
func (st *State) filterIn(ds *model.Dataset) int {
	if len(ds.Filters) == 0 {
		return -1
	}
	if i := ds.FilterIndex(st.filter); i >= 0 {
		return i
	}
	return 0
}

// FilterIndex is the index of the list's selected filter, -1 without one.
func (l *Pane) FilterIndex() int {
	if l.ds == nil || l.st == nil {
		return -1
	}
	return l.st.filterIn(l.ds)
}

// SetSize sets the pane's size, heading line included.
func (l *Pane) SetSize(w, h int) {
	l.w, l.h = w, h
	l.clamp()
}

// rows is the number of record rows that fit under the heading.
func (l *Pane) rows() int { return max(1, l.h-1) }

// Env is what the list's query and sort are evaluated against: the
// dataset, the selected filter, the threshold and the notes.
func (l *Pane) Env() query.Env {
	env := query.Env{Dataset: l.ds, Filter: l.FilterIndex(), Threshold: l.src.Threshold(l.ds)}
	if l.src.Notes != nil {
		env.Notes = l.src.Notes(l.ds)
	}
	return env
}

// filtered reports whether the visible rows depend on more than the index
// (a query, the wrong-only switch or a sort), so a filter change must
// rebuild them.
func (l *Pane) filtered() bool {
	return l.st.wrongOnly || !l.st.whereQ.Empty() || l.st.sortKey.Column != ""
}

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

// Selected returns the index of the record under the cursor.
func (l *Pane) Selected() (int, bool) {
	if l.st.cursor < 0 || l.st.cursor >= len(l.st.visible) {
		return 0, false
	}
	return l.st.visible[l.st.cursor], true
}

// Visible are the records the list shows, in list order (the caller must
// not change them).
func (l *Pane) Visible() []int { return l.st.visible }

// Position is the cursor's 1-based row and the number of rows shown.
func (l *Pane) Position() (pos, shown int) { return l.st.cursor + 1, len(l.st.visible) }

// Tab is the detail tab the user last chose on this dataset.
func (l *Pane) Tab() string { return l.st.tab }

// SetTab remembers the detail tab the user chose, which the next records
// open on when they have it.
func (l *Pane) SetTab(name string) { l.st.tab = name }

// clamp keeps the cursor on a row and in view.
func (l *Pane) clamp() {
	n := len(l.st.visible)
	l.st.cursor = max(0, min(l.st.cursor, n-1))
	rows := l.rows()
	if l.st.cursor < l.st.offset {
		l.st.offset = l.st.cursor
	}
	if l.st.cursor >= l.st.offset+rows {
		l.st.offset = l.st.cursor - rows + 1
	}
	l.st.offset = max(0, min(l.st.offset, n-rows))
}

// center scrolls so the cursor sits in the middle, after a jump.
func (l *Pane) center() {
	l.st.offset = l.st.cursor - l.rows()/2
	l.clamp()
}

// moveBy moves the cursor by d rows.
func (l *Pane) moveBy(d int) {
	l.st.cursor += d
	l.clamp()
}

// moveTo puts the cursor on list position pos.
func (l *Pane) moveTo(pos int) {
	l.st.cursor = pos
	l.clamp()
}

// MoveBy moves the cursor by d rows (the wheel, `.`), reporting the
// record under it when it moved.
func (l *Pane) MoveBy(d int) tea.Cmd {
	before := l.st.cursor
	l.moveBy(d)
	if l.st.cursor != before {
		return cursorMoved()
	}
	return nil
}

// Update takes the list's keys while it has the focus (navigation, the
// selection, the column cursor, enter) and its own background messages.
func (l *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case filteredMsg:
		return l.handleFiltered(msg)
	case searchMsg:
		return l.handleSearchDone(msg)
	case rawSearchMsg:
		return l.handleRawSearch(msg)
	case tea.KeyPressMsg:
		return l.handleKey(msg)
	}
	return nil
}

// handleKey runs the list's action of k.
func (l *Pane) handleKey(k tea.KeyPressMsg) tea.Cmd {
	cmd, _, _ := ui.Run(l.Actions(), k)
	return cmd
}

// moved moves the cursor with move and reports the record under it when
// it moved.
func (l *Pane) moved(move func()) func() tea.Cmd {
	return func() tea.Cmd {
		before := l.st.cursor
		move()
		if l.st.cursor != before {
			return cursorMoved()
		}
		return nil
	}
}

// rowAt returns the list position of the row at pane-relative line y.
func (l *Pane) rowAt(y int) (int, bool) {
	pos := l.st.offset + y - 1
	if y < 1 || pos >= len(l.st.visible) {
		return 0, false
	}
	return pos, true
}

// Click takes a click at pane-relative (x, y): on the heading it sorts by
// the column under it, on a row it moves the cursor there.
func (l *Pane) Click(x, y int) tea.Cmd {
	if y == 0 { // a heading: sort by its column
		if f, ok := l.columnAt(x); ok {
			l.st.column = f
			return l.CycleSort()
		}
		return nil
	}
	if pos, ok := l.rowAt(y); ok && pos != l.st.cursor {
		l.moveTo(pos)
		return cursorMoved()
	}
	return nil
}

// columns returns the fields the list shows: the user's choice (`c`) or
// the dataset kind's defaults.
func (l *Pane) columns() []string {
	if l.st.columns != nil {
		return l.st.columns
	}
	return l.defaultColumns()
}

// defaultColumns are the kind's default columns, with the notes' label
// column once the dataset has notes.
func (l *Pane) defaultColumns() []string {
	cols := defaultColumns(l.ds)
	if l.src.Notes != nil && l.src.Notes(l.ds) != nil {
		cols = withLabelColumn(cols)
	}
	return cols
}

// SetColumns sets the fields shown (`c`); nil goes back to the format's
// defaults.
func (l *Pane) SetColumns(cols []string) { l.st.columns = cols }

// rowPrefix is the width of the cursor mark, status glyph and issue marker
// before the columns.
const rowPrefix = 6

// View renders the heading and the visible rows, exactly l.h lines.
func (l *Pane) View() string {
	if l.h <= 0 || l.w <= 0 {
		return ""
	}
	st := l.c.Styles
	out := make([]string, 0, l.h)
	page := l.page()
	env := l.Env()
	cols := l.layout(env, page)
	out = append(out, l.headingView(cols))

	if len(l.st.visible) == 0 {
		out = append(out, st.List.Empty.Render(text.Pad(l.emptyText(), l.w)))
	}
	for k, s := range page {
		out = append(out, l.row(l.st.offset+k, s, env, cols))
	}
	for len(out) < l.h {
		out = append(out, strings.Repeat(" ", l.w))
	}
	return strings.Join(out[:l.h], "\n")
}

func (l *Pane) emptyText() string {
	switch {
	case l.ds == nil || l.ds.Records.Len() == 0 && l.ds.Records.Done():
		return "  No records."
	case l.ds.Records.Len() == 0:
		return "  Indexing…"
	case l.st.pending != 0:
		return "  Filtering…"
	case !l.st.whereQ.Empty():
		return "  No records match :" + text.OneLine(l.st.where) + " (: edits the query)."
	case l.st.wrongOnly && l.FilterIndex() >= 0:
		return "  No wrong answers under " + text.OneLine(l.ds.Filters[l.FilterIndex()]) + " (x shows all)."
	default:
		return "  No wrong answers (x shows all)."
	}
}

// row renders list position pos, record summary s.
func (l *Pane) row(pos int, s model.Summary, env query.Env, cols []colLayout) string {
	st := l.c.Styles
	o := s.Outcome(env.Filter)
	status := ShownStatus(o)
	cursor := pos == l.st.cursor
	mark := " "
	if cursor && l.focused {
		mark = "▸"
	} else if cursor {
		mark = "▹"
	}
	sel := l.selectMark(l.st.visible[pos])
	issue := " "
	issueStyle := st.Issue.Warning
	if s.Errors > 0 {
		issue, issueStyle = content.IssueGlyph(model.SeverityError), st.Issue.Error
	} else if s.Warnings > 0 {
		issue = content.IssueGlyph(model.SeverityWarning)
	}
	cells := make([]string, len(cols))
	for k, c := range cols {
		cells[k] = c.cell(cellText(env, s, c.field))
	}
	if cursor {
		rs := st.List.CursorBlurred
		if l.focused {
			rs = st.List.Cursor
		}
		line := mark + sel + content.Glyph(status) + " " + issue + " " + joinCells(cols, cells)
		return rs.Render(text.Pad(line, l.w))
	}
	for k, c := range cols {
		switch c.field {
		case "id":
			cells[k] = st.List.ID.Render(cells[k])
		case "score":
			cells[k] = st.List.Score.Render(cells[k])
		}
	}
	if sel != " " {
		sel = st.List.Selected.Render(sel)
	}
	line := mark + sel + st.Outcome(status).Render(content.Glyph(status)) + " " +
		issueStyle.Render(issue) + " " + joinCells(cols, cells)
	return text.Pad(line, l.w)
}

// ShownStatus is the status a row shows: unscored when the filter has no
// row for the record, and for values the model does not define. The
// header counts records by it.
func ShownStatus(o model.Outcome) model.Status {
	if !o.Present || o.Status < model.StatusUnscored || o.Status > model.StatusError {
		return model.StatusUnscored
	}
	return o.Status
}

// Actions are the list's keys: its help line first, most useful first
// (the line is cut on the right): the error-analysis keys a new user
// would not guess (x, v, V, F, :, l, w), then selecting and sorting;
// with a selection, what acts on it. j/k, enter and tab are everyone's
// habits. Many of the line's keys are the browser's tools, which it runs
// and offers; the list places them on its line.
func (l *Pane) Actions() []ui.Action {
	k := l.c.Keys
	t, ls, nav := &k.Tools, &k.List, &k.Nav
	sel := len(l.st.selected)
	selected := func() bool { return len(l.st.selected) > 0 }
	selectRow := ui.Action{Binding: &ls.Select, Do: l.moved(l.toggleSelected), Line: true, Help: "select"}
	var acts []ui.Action
	if sel > 0 {
		acts = []ui.Action{ui.OnLine(&t.Label, "label "+itoa(sel)), ui.OnLine(&t.Annotate, "note"),
			ui.OnLine(&t.Export, "export "+itoa(sel)), ui.OnLine(&t.Copy, "copy ids"), selectRow,
			{Binding: &ls.SelectAll, Do: l.selectAll, Line: true, Help: "all shown"},
			{Binding: &k.Search.Cancel, When: selected, Do: l.unselect, Line: true, Help: "unselect"},
			{Binding: &ls.RepeatLabel, Do: repeatLabel, Line: true, Help: "repeat label"}}
	} else {
		acts = []ui.Action{
			ui.OnLine(&k.Global.WrongOnly, "wrong only"), ui.OnLine(&k.Compare.Filters, "filters"), ui.OnLine(&k.Run.Distribution, "scores"),
			ui.OnLine(&k.Compare.Slices, "slices"), ui.OnLine(&t.Facets, "facets"), ui.OnLine(&t.Query, ""), ui.OnLine(&t.Label, "label"),
			ui.OnLine(&t.Export, "export"), selectRow, ui.OnLine(&t.Sort, "sort"),
			ui.OnLine(&k.Search.Start, ""), ui.OnLine(&k.Global.CycleFilter, "filter"), ui.OnLine(&k.Global.Zoom, "zoom"),
			{Binding: &ls.SelectAll, Do: l.selectAll},
			{Binding: &k.Search.Cancel, When: selected, Do: l.unselect},
			{Binding: &ls.RepeatLabel, Do: repeatLabel},
		}
	}
	// esc clears the pin before the selection (and the browser the
	// search before either).
	acts = append([]ui.Action{{Binding: &k.Search.Cancel, When: l.Pinned, Do: l.ClearPin}}, acts...)
	return append(acts,
		ui.Action{Binding: &ls.Open, Do: func() tea.Cmd { return ui.Send(OpenMsg{}) }},
		ui.Action{Binding: &ls.SelectRange, Do: l.selectRange},
		ui.Action{Binding: &ls.ColumnLeft, Do: func() tea.Cmd { l.moveColumn(-1); return nil }},
		ui.Action{Binding: &ls.ColumnRight, Do: func() tea.Cmd { l.moveColumn(1); return nil }},
		ui.Action{Binding: &nav.Up, Do: l.moved(func() { l.moveBy(-1) })},
		ui.Action{Binding: &nav.Down, Do: l.moved(func() { l.moveBy(1) })},
		ui.Action{Binding: &nav.PageUp, Do: l.moved(func() { l.moveBy(-l.rows()) })},
		ui.Action{Binding: &nav.PageDown, Do: l.moved(func() { l.moveBy(l.rows()) })},
		ui.Action{Binding: &nav.HalfUp, Do: l.moved(func() { l.moveBy(-l.rows() / 2) })},
		ui.Action{Binding: &nav.HalfDown, Do: l.moved(func() { l.moveBy(l.rows() / 2) })},
		ui.Action{Binding: &nav.Top, Do: l.moved(func() { l.moveTo(0) })},
		ui.Action{Binding: &nav.Bottom, Do: l.moved(func() { l.moveTo(len(l.st.visible) - 1) })},
	)
}

// repeatLabel asks the browser for the labels last added (`.`).
func repeatLabel() tea.Cmd { return ui.Send(RepeatLabelMsg{}) }

// ShortHelp is the list's part of the help line (Actions).
func (l *Pane) ShortHelp() []key.Binding { return ui.ShortHelp(l.Actions()) }

// FullHelp is the list's keys by kind, for a full help.
func (l *Pane) FullHelp() [][]key.Binding {
	k := l.c.Keys
	return [][]key.Binding{
		{k.Nav.Up, k.Nav.Down, k.Nav.PageUp, k.Nav.PageDown, k.Nav.HalfUp, k.Nav.HalfDown, k.Nav.Top, k.Nav.Bottom},
		{k.List.Open, k.Global.CycleFilter, k.Global.WrongOnly, k.Global.Zoom},
		{k.List.Select, k.List.SelectRange, k.List.SelectAll, k.List.RepeatLabel, k.List.ColumnLeft, k.List.ColumnRight},
		{k.Tools.Query, k.Tools.Sort, k.Tools.Reverse, k.Tools.Columns, k.Tools.Facets, k.Tools.Export, k.Tools.Reload, k.Tools.Follow},
		{k.Tools.Copy, k.Tools.CopyPath, k.Tools.Pager, k.Tools.Editor, k.Tools.Label, k.Tools.Annotate},
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// Len is the number of rows shown.
func (l *Pane) Len() int { return len(l.st.visible) }

// WrongOnly reports whether the list shows only the failed records (x).
func (l *Pane) WrongOnly() bool { return l.st.wrongOnly }

// ToggleWrongOnly shows only the records that failed, or all again.
func (l *Pane) ToggleWrongOnly() tea.Cmd {
	if l.ds == nil {
		return nil
	}
	l.st.wrongOnly = !l.st.wrongOnly
	l.rebuild()
	return tea.Batch(cursorMoved(), l.Research())
}

// CycleFilter selects the next lm-eval filter (f).
func (l *Pane) CycleFilter() tea.Cmd {
	ds := l.ds
	if ds == nil || len(ds.Filters) < 2 {
		return nil
	}
	l.st.filter = ds.Filters[(l.FilterIndex()+1)%len(ds.Filters)]
	if l.filtered() {
		l.rebuild()
	}
	return tea.Batch(cursorMoved(), l.Research())
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

// Facets is the facets sheet over the rows shown (F), counting them by
// field ("" for the first that tells them apart).
func (l *Pane) Facets(field string) *facets.Sheet {
	ds := l.ds
	return facets.New(l.c, facets.List{
		Env: l.Env(), Rows: l.st.visible, Fields: l.ValueIndex().FacetFields(), Where: l.st.where,
		Head: func(f string) string { return columnHead(ds, f) },
	}, field)
}

// Columns is the column chooser over the list (c).
func (l *Pane) Columns() *columns.Sheet {
	ds := l.ds
	return columns.New(l.c, columns.List{
		Shown: l.columns(), Defaults: l.defaultColumns(), Picked: l.st.columns != nil,
		Fields: l.ValueIndex().Columns(), Fit: l.fitColumns,
		Head: func(f string) string { return columnHead(ds, f) },
	})
}

// Hits are the list positions the search matched so far.
func (l *Pane) Hits() []int { return l.st.matches }

// IsSelected reports whether record i is selected.
func (l *Pane) IsSelected(i int) bool { return l.st.selected.has(i) }

// SortKey is the column and direction the list is sorted by (none: file
// order).
func (l *Pane) SortKey() query.SortKey { return l.st.sortKey }

// SetColumn puts the column cursor on field f, the column `s` sorts by
// (a click on a heading does).
func (l *Pane) SetColumn(f string) { l.st.column = f }

// Filtering reports a filter or sort still computed off the event loop
// (the list shows the old rows until it ends).
func (l *Pane) Filtering() bool { return l.st.pending != 0 }

// Fields are the fields the list shows, and whether the user chose them
// (`c`) rather than the format.
func (l *Pane) Fields() (fields []string, picked bool) { return l.columns(), l.st.columns != nil }
