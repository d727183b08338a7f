package tui

import (
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/query"
	"evalview/tui/content"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// listState is the record list's state for one dataset; the browser keeps
// one per dataset so switching back restores it.
type listState struct {
	// filter names the selected lm-eval filter: the one the user chose
	// (f, a filter= term), else the one --filter asked for, else "" (the
	// first). It is the one owner of the selection: the header, the
	// detail, the queries and the sheets read its index (filterIn), which
	// follows a growing index as it learns its filters, and a reload.
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
	// selected are the records selected (list_select.go); anchor is the
	// record last toggled, plus one (0: none), where a range starts.
	selected selection
	anchor   int
	// column is the field under the column cursor (list_sort.go), ""
	// for the first shown.
	column string
}

// listPane is the record list: a status glyph, an issue marker, the id,
// the title and the score of each record, under the selected filter.
type listPane struct {
	c       *ui.Common
	ds      *model.Dataset
	st      *listState
	w, h    int
	focused bool
	// notesFor gives a dataset's error-analysis notes to queries, sorting
	// and the label column (notes.go); nil or a nil result: no notes.
	notesFor func(*model.Dataset) query.NoteLookup
	// scoring gives a scored dataset's threshold, which the rows'
	// statuses, the query and the sort read them at (the root's).
	scoring *scoringState
}

func newListPane(c *ui.Common) listPane { return listPane{c: c, st: &listState{}} }

// SetDataset shows ds with its state, which the root keeps.
func (l *listPane) SetDataset(ds *model.Dataset, st *listState) {
	l.ds, l.st = ds, st
	l.refresh()
}

// filterIn is the index in ds.Filters of the selected filter: the named
// one when ds has it, else the first; -1 when ds has none.
func (st *listState) filterIn(ds *model.Dataset) int {
	if len(ds.Filters) == 0 {
		return -1
	}
	if i := ds.FilterIndex(st.filter); i >= 0 {
		return i
	}
	return 0
}

// filterIndex is the index of the list's selected filter, -1 without one.
func (l *listPane) filterIndex() int {
	if l.ds == nil || l.st == nil {
		return -1
	}
	return l.st.filterIn(l.ds)
}

// SetSize sets the pane's size, heading line included.
func (l *listPane) SetSize(w, h int) {
	l.w, l.h = w, h
	l.clamp()
}

// rows is the number of record rows that fit under the heading.
func (l *listPane) rows() int { return max(1, l.h-1) }

// env is what the list's query and sort are evaluated against.
func (l *listPane) env() query.Env {
	env := query.Env{Dataset: l.ds, Filter: l.filterIndex(), Threshold: l.scoring.at(l.ds)}
	if l.notesFor != nil {
		env.Notes = l.notesFor(l.ds)
	}
	return env
}

// filtered reports whether the visible rows depend on more than the index
// (a query, the wrong-only switch or a sort), so a filter change must
// rebuild them.
func (l *listPane) filtered() bool {
	return l.st.wrongOnly || !l.st.whereQ.Empty() || l.st.sortKey.Column != ""
}

// refresh takes in records the index gained since the last look: those
// pinned (pin.go), matching the query and, with wrong-only, failed.
func (l *listPane) refresh() {
	if l.ds == nil || l.st.pending != 0 {
		return
	}
	n := l.ds.Records.Len()
	if n > l.st.known {
		added := visibleRows(l.ds, l.env(), l.st.pin, l.st.whereQ, l.st.wrongOnly, l.st.known, n)
		if len(added) > 0 && l.st.sortKey.Column != "" {
			// Keep the cursor's record under the cursor while rows arrive.
			sel, had := l.Selected()
			l.st.visible = append(l.st.visible, added...)
			query.Sort(l.env(), l.st.visible, l.st.sortKey)
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
func (l *listPane) position(i int) int {
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
func (l *listPane) rebuild() {
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
func (l *listPane) setVisible(rows []int, known int) {
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
func (l *listPane) Selected() (int, bool) {
	if l.st.cursor < 0 || l.st.cursor >= len(l.st.visible) {
		return 0, false
	}
	return l.st.visible[l.st.cursor], true
}

// clamp keeps the cursor on a row and in view.
func (l *listPane) clamp() {
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
func (l *listPane) center() {
	l.st.offset = l.st.cursor - l.rows()/2
	l.clamp()
}

// moveBy moves the cursor by d rows.
func (l *listPane) moveBy(d int) {
	l.st.cursor += d
	l.clamp()
}

// moveTo puts the cursor on list position pos.
func (l *listPane) moveTo(pos int) {
	l.st.cursor = pos
	l.clamp()
}

// Update handles navigation keys; the root handles everything else.
func (l *listPane) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if cmd, ok := l.selectKey(k); ok {
		return cmd
	}
	if l.columnKey(k) {
		return nil
	}
	nav := l.c.Keys.Nav
	switch {
	case key.Matches(k, nav.Up):
		l.moveBy(-1)
	case key.Matches(k, nav.Down):
		l.moveBy(1)
	case key.Matches(k, nav.PageUp):
		l.moveBy(-l.rows())
	case key.Matches(k, nav.PageDown):
		l.moveBy(l.rows())
	case key.Matches(k, nav.HalfUp):
		l.moveBy(-l.rows() / 2)
	case key.Matches(k, nav.HalfDown):
		l.moveBy(l.rows() / 2)
	case key.Matches(k, nav.Top):
		l.moveTo(0)
	case key.Matches(k, nav.Bottom):
		l.moveTo(len(l.st.visible) - 1)
	}
	return nil
}

// rowAt returns the list position of the row at pane-relative line y.
func (l *listPane) rowAt(y int) (int, bool) {
	pos := l.st.offset + y - 1
	if y < 1 || pos >= len(l.st.visible) {
		return 0, false
	}
	return pos, true
}

// columns returns the fields the list shows: the user's choice (`c`) or
// the dataset kind's defaults.
func (l *listPane) columns() []string {
	if l.st.columns != nil {
		return l.st.columns
	}
	return l.defaultColumns()
}

// defaultColumns are the kind's default columns, with the notes' label
// column once the dataset has notes.
func (l *listPane) defaultColumns() []string {
	cols := defaultColumns(l.ds)
	if l.notesFor != nil && l.notesFor(l.ds) != nil {
		cols = withLabelColumn(cols)
	}
	return cols
}

// rowPrefix is the width of the cursor mark, status glyph and issue marker
// before the columns.
const rowPrefix = 6

// View renders the heading and the visible rows, exactly l.h lines.
func (l *listPane) View() string {
	if l.h <= 0 || l.w <= 0 {
		return ""
	}
	st := l.c.Styles
	out := make([]string, 0, l.h)
	page := l.page()
	env := l.env()
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

func (l *listPane) emptyText() string {
	switch {
	case l.ds == nil || l.ds.Records.Len() == 0 && l.ds.Records.Done():
		return "  No records."
	case l.ds.Records.Len() == 0:
		return "  Indexing…"
	case l.st.pending != 0:
		return "  Filtering…"
	case !l.st.whereQ.Empty():
		return "  No records match :" + text.OneLine(l.st.where) + " (: edits the query)."
	case l.st.wrongOnly && l.filterIndex() >= 0:
		return "  No wrong answers under " + text.OneLine(l.ds.Filters[l.filterIndex()]) + " (x shows all)."
	default:
		return "  No wrong answers (x shows all)."
	}
}

// row renders list position pos, record summary s.
func (l *listPane) row(pos int, s model.Summary, env query.Env, cols []colLayout) string {
	st := l.c.Styles
	o := s.Outcome(env.Filter)
	status := shownStatus(o)
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

// shownStatus is the status a row shows: unscored when the filter has no
// row for the record, and for values the model does not define.
func shownStatus(o model.Outcome) model.Status {
	if !o.Present || o.Status < model.StatusUnscored || o.Status > model.StatusError {
		return model.StatusUnscored
	}
	return o.Status
}

// ShortHelp is the list's part of the help line, most useful first (the
// line is cut on the right): the error-analysis keys a new user would not
// guess (x, v, V, F, :, l, w), then selecting and sorting; with a
// selection, what acts on it. j/k, enter and tab are everyone's habits.
func (l *listPane) ShortHelp() []key.Binding {
	k := l.c.Keys
	t := k.Tools
	if n := len(l.st.selected); n > 0 {
		return []key.Binding{ui.Short(t.Label, "label "+itoa(n)), ui.Short(t.Annotate, "note"),
			ui.Short(t.Export, "export "+itoa(n)), ui.Short(t.Copy, "copy ids"), ui.Short(k.List.Select, "select"),
			ui.Short(k.List.SelectAll, "all shown"), ui.Short(k.Search.Cancel, "unselect"), ui.Short(k.List.RepeatLabel, "repeat label")}
	}
	return []key.Binding{
		ui.Short(k.Global.WrongOnly, "wrong only"), ui.Short(k.Compare.Filters, "filters"), ui.Short(k.Run.Distribution, "scores"),
		ui.Short(k.Compare.Slices, "slices"), ui.Short(t.Facets, "facets"), t.Query, ui.Short(t.Label, "label"),
		ui.Short(t.Export, "export"), ui.Short(k.List.Select, "select"), ui.Short(t.Sort, "sort"),
		k.Search.Start, ui.Short(k.Global.CycleFilter, "filter"), ui.Short(k.Global.Zoom, "zoom"),
	}
}

// FullHelp is the list's part of the `?` overlay.
func (l *listPane) FullHelp() [][]key.Binding {
	k := l.c.Keys
	return [][]key.Binding{
		{k.Nav.Up, k.Nav.Down, k.Nav.PageUp, k.Nav.PageDown, k.Nav.HalfUp, k.Nav.HalfDown, k.Nav.Top, k.Nav.Bottom},
		{k.List.Open, k.Global.CycleFilter, k.Global.WrongOnly, k.Global.Zoom},
		{k.List.Select, k.List.SelectRange, k.List.SelectAll, k.List.RepeatLabel, k.List.ColumnLeft, k.List.ColumnRight},
		{k.Tools.Query, k.Tools.Sort, k.Tools.Reverse, k.Tools.Columns, k.Tools.Facets, k.Tools.Export, k.Tools.Reload, k.Tools.Follow},
		{k.Tools.Copy, k.Tools.CopyPath, k.Tools.Pager, k.Tools.Editor, k.Tools.Label, k.Tools.Annotate},
	}
}
