// Package overview is the overview sheet (T, and the first screen when
// several datasets are open): one row per task, group tasks as parents
// that fold their subtasks, one column per configuration of a model
// (runs of one model with the same settings merged, each task's cell its
// latest run, ↻ where it ran more than once), each cell the task's main
// figure as reported (≠ where the samples recompute another value), and
// with two columns or more a delta against a baseline column. Rows sort
// by any column and filter as you type; enter opens a task of a model
// with its records, x its wrong answers, and esc in the list comes back
// here as it was left; C compares a task's runs doc by doc, r the runs
// of one cell; E shows a model run by run; a shows the rows and columns
// without any value, which are hidden at first.
//
// The figures are model/overview's, from each dataset's metrics as the
// root recomputes them (Source): the sheet decides nothing by format.
package overview

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	ov "evalview/model/overview"
	"evalview/tui/sheets/runs"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// Sheet is the overview of the open datasets.
type Sheet struct {
	c   *ui.Common
	src ui.MetricsSource
	dss []*model.Dataset
	// entries are each dataset's figures; final marks those taken from
	// a complete index, which are not taken again unless the dataset was
	// reloaded (seen is the dataset they were taken from).
	entries []ov.Entry
	final   []bool
	seen    []*model.Dataset
	table   *ov.Table
	// groupedCols is whether the table's headings are grouped under
	// their models (grouped), taken once a table: headings ask it for
	// every column they draw.
	groupedCols bool
	view        ov.View
	// opts are how the table is built: the models shown run by run, and
	// whether empty rows and columns show.
	opts ov.Options
	// rows are the rows shown (view), cursor the position among them.
	rows   []int
	cursor int
	offset int
	// pos is the column cursor: 0 the task, 1 the delta (with two
	// columns or more), then the models.
	pos    int
	stderr bool
	// filter is the row filter (/).
	filter ui.Filter
	// meas are the rows' widths, measured once until the rows change.
	meas *measures
	// drawn is the layout of the last view, for clicks.
	drawn layout
	w, h  int
	// placed is the view as the sheet placed it, before the user moved
	// anything: while it stays so, datasets coming in place it again.
	placed placedView
}

// placedView is what place chose.
type placedView struct {
	ok                       bool
	base, compared, pos, row int
	sort                     ov.SortBy
	desc                     bool
	filter                   string
}

// New lines the datasets up.
func New(c *ui.Common, src ui.MetricsSource, dss []*model.Dataset) *Sheet {
	s := &Sheet{c: c, src: src, dss: dss, entries: make([]ov.Entry, len(dss)), final: make([]bool, len(dss)), seen: make([]*model.Dataset, len(dss))}
	s.view.Folded = map[int]bool{}
	s.opts.Expand = map[string]bool{}
	s.Refresh()
	s.view.Compared = min(1, len(s.table.Columns)-1)
	s.pos = s.firstModelPos()
	if len(s.table.Columns) > 1 {
		s.pos++ // on the second model: the delta compares it with the first
	}
	s.place()
	return s
}

// place compares the first column with the one that shares the most
// tasks with it (Partner), the column cursor on it, and puts the row
// cursor on the first task they share: a folder whose first two models
// ran different tasks opened on two columns of "–". The first column
// is the baseline (the paths' first model), as the datasets come in too.
func (s *Sheet) place() {
	if len(s.table.Columns) > 1 {
		s.view.Baseline = 0
		s.view.Compared = 1
		s.pos = s.firstModelPos() + 1
		if p := s.table.Partner(0); p > 0 {
			s.view.Compared = p
			s.pos = s.firstModelPos() + p
		}
		if i := s.table.FirstShared(s.rows, 0, s.view.Compared); i > 0 {
			// The shared task near the top, one row of what comes
			// before it above (the view keeps it in sight from there).
			s.cursor, s.offset = i, i-1
		}
	}
	s.placed = s.viewNow()
}

// viewNow is the view as it stands, to tell whether the user moved.
func (s *Sheet) viewNow() placedView {
	return placedView{ok: true, base: s.view.Baseline, compared: s.view.Compared, pos: s.pos, row: s.row(),
		sort: s.view.Sort, desc: s.view.Desc, filter: s.view.Filter}
}

// Refresh takes in what the datasets' indexes learnt since the last
// time: the figures of the datasets whose index was still growing.
func (s *Sheet) Refresh() {
	changed := s.table == nil
	for i, ds := range s.dss {
		if s.final[i] && s.seen[i] == ds {
			continue
		}
		comps, final := s.src.Metrics(ds)
		s.entries[i] = ov.EntryOf(i, ds, comps)
		s.entries[i].Pending = !final
		s.final[i], s.seen[i] = final, ds
		changed = true
	}
	if !changed {
		return
	}
	s.rebuild()
}

// Grow takes in datasets opened after the sheet was made (the browser
// opens its paths while it shows): dss is every dataset, the sheet's
// first among them in their order.
func (s *Sheet) Grow(dss []*model.Dataset) {
	if len(dss) <= len(s.dss) {
		return
	}
	n := len(dss) - len(s.dss)
	s.dss = dss
	s.entries = append(s.entries, make([]ov.Entry, n)...)
	s.final = append(s.final, make([]bool, n)...)
	s.seen = append(s.seen, make([]*model.Dataset, n)...)
	hadTwo := len(s.table.Columns) > 1
	untouched := s.placed.ok && s.placed == s.viewNow()
	s.Refresh()
	if !hadTwo && len(s.table.Columns) > 1 && s.pos == s.firstModelPos() {
		// As New places them: the delta compares the second model
		// with the first, the cursor on the second.
		s.view.Compared = 1
		s.pos++
	}
	if untouched {
		s.place()
	}
}

// rebuild builds the table again (the datasets' figures grew, a model
// was expanded, empty rows were asked for) and keeps the view on what it
// showed: the baseline, the compared and sorted columns, the column and
// row under the cursors, the folded groups. A column that is gone (a
// model's runs merged or split) gives way to its model's first column.
func (s *Sheet) rebuild() {
	old := s.table
	if old == nil {
		s.setTable(ov.Build(s.entries, s.opts))
		s.relist()
		return
	}
	oldCol, oldRow := s.column(), s.row()
	s.setTable(ov.Build(s.entries, s.opts))
	t := s.table
	find := func(c int) int {
		if c < 0 || c >= len(old.Columns) {
			return 0
		}
		if i := t.ColumnIndex(old.Columns[c].Key); i >= 0 {
			return i
		}
		for i, col := range t.Columns {
			if col.Model == old.Columns[c].Model {
				return i
			}
		}
		return 0
	}
	switch {
	case oldCol >= 0:
		s.pos = s.firstModelPos() + find(oldCol)
	case s.pos > 0 && len(t.Columns) < 2:
		s.pos = 0 // the delta went with the second column
	}
	s.pos = max(0, min(s.pos, s.firstModelPos()+len(t.Columns)-1))
	s.view.Baseline, s.view.Compared = find(s.view.Baseline), find(s.view.Compared)
	if s.view.Compared == s.view.Baseline && len(t.Columns) > 1 {
		s.view.Compared = (s.view.Baseline + 1) % len(t.Columns)
	}
	if s.view.Sort == ov.ByColumn {
		s.view.Column = find(s.view.Column)
	}
	folded := map[int]bool{}
	for r, f := range s.view.Folded {
		if f && r < len(old.Rows) {
			if i := t.RowIndex(old.Rows[r].Task); i >= 0 {
				folded[i] = true
			}
		}
	}
	s.view.Folded = folded
	task := ""
	if oldRow >= 0 {
		task = old.Rows[oldRow].Task
	}
	s.rows = nil
	s.relist()
	if i := t.RowIndex(task); i >= 0 {
		s.moveTo(i)
	}
}

// relist recomputes the rows shown, keeping the cursor on its row.
func (s *Sheet) relist() {
	cur := -1
	if s.cursor >= 0 && s.cursor < len(s.rows) {
		cur = s.rows[s.cursor]
	}
	s.view.Filter = s.filter.Value()
	s.rows = s.table.Visible(s.view)
	s.meas = nil
	s.cursor = 0
	for i, r := range s.rows {
		if r == cur {
			s.cursor = i
		}
	}
}

// Complete reports whether every dataset's figures are final (their
// indexes complete and taken in).
func (s *Sheet) Complete() bool {
	for _, f := range s.final {
		if !f {
			return false
		}
	}
	return true
}

// Valued reports whether every dataset shows its value: final, or
// reported by its writer (a results file) while the index that checks it
// still grows.
func (s *Sheet) Valued() bool {
	for i, e := range s.entries {
		if s.final[i] {
			continue
		}
		for _, t := range e.Tasks {
			if len(t.Figures) == 0 || !t.Figures[0].Reported {
				return false
			}
		}
	}
	return true
}

// Table is the overview the sheet shows.
func (s *Sheet) Table() *ov.Table { return s.table }

// Title names the sheet in the status bar.
func (s *Sheet) Title() string { return "overview" }

// SetSize sets the body rectangle.
func (s *Sheet) SetSize(w, h int) { s.w, s.h = w, h }

// Typing reports whether the row filter is being typed.
func (s *Sheet) Typing() bool { return s.filter.Typing }

// firstModelPos is the column cursor's position of the first model.
func (s *Sheet) firstModelPos() int {
	if len(s.table.Columns) > 1 {
		return 2
	}
	return 1
}

// column is the model column under the column cursor, -1 on the task or
// the delta.
func (s *Sheet) column() int {
	c := s.pos - s.firstModelPos()
	if c < 0 || c >= len(s.table.Columns) {
		return -1
	}
	return c
}

// target is the column enter opens: the one under the cursor, else the
// compared one.
func (s *Sheet) target() int {
	if c := s.column(); c >= 0 {
		return c
	}
	return s.view.Compared
}

// row is the table row under the cursor, -1 when none is shown.
func (s *Sheet) row() int {
	if s.cursor < 0 || s.cursor >= len(s.rows) || s.rows[s.cursor] >= len(s.table.Rows) {
		return -1
	}
	return s.rows[s.cursor]
}

// Update takes the sheet's keys, and the root's news of growing indexes.
func (s *Sheet) Update(msg tea.Msg) tea.Cmd {
	if handled, changed := s.filter.Update(msg, s.c.Keys); handled {
		if changed {
			s.relist()
		}
		return nil
	}
	switch msg := msg.(type) {
	case ui.IndexMsg:
		s.Refresh()
	case tea.KeyPressMsg:
		return s.key(msg)
	}
	return nil
}

// key runs a key of the sheet.
func (s *Sheet) key(k tea.KeyPressMsg) tea.Cmd {
	cmd, _, _ := ui.Run(s.Actions(), k)
	return cmd
}

// Actions are the overview's keys: opening the task under the cursor
// (its list, its wrong answers, its runs compared), the column cursor,
// sorting, the baseline, stderr, folding groups, the / filter, the
// cursor over the tasks. While the filter is typed it takes every key
// (ui.Filter), and only says how it ends.
func (s *Sheet) Actions() []ui.Action {
	km, o := s.c.Keys, &s.c.Keys.Overview
	if s.filter.Typing {
		return []ui.Action{ui.OnLine(&km.Search.Confirm, ""), ui.OnLine(&km.Search.Cancel, "")}
	}
	do := func(f func()) func() tea.Cmd { return func() tea.Cmd { f(); return nil } }
	column := func(d int) func() tea.Cmd {
		return do(func() {
			s.pos = max(0, min(s.pos+d, s.firstModelPos()+len(s.table.Columns)-1))
			if c := s.column(); c >= 0 && c != s.view.Baseline {
				s.view.Compared = c
			}
		})
	}
	acts := []ui.Action{
		{Binding: &o.Choose, Do: func() tea.Cmd { return s.open(false) }, Line: true},
		{Binding: &o.Wrong, Do: func() tea.Cmd { return s.open(true) }, Line: true},
		{Binding: &o.Left, Do: column(-1), Line: true},
		{Binding: &o.Sort, Do: do(s.sortHere), Line: true},
		// b before the moving keys: it is pgup's other key.
		{Binding: &o.Baseline, Do: s.setBaseline, Line: true},
		{Binding: &o.Filter, Do: do(func() { s.filter.Typing = true }), Line: true},
		{Binding: &o.Fold, Do: do(s.fold), Line: true},
		{Binding: &o.Compare, Do: s.compare, Line: true},
		{Binding: &o.Reruns, Do: s.reruns, Line: true},
		{Binding: &o.Expand, Do: s.expand, Line: true},
		{Binding: &o.Empty, Do: do(func() { s.opts.ShowEmpty = !s.opts.ShowEmpty; s.rebuild() }), Line: true},
		{Binding: &o.Stderr, Do: do(func() { s.stderr = !s.stderr; s.meas = nil }), Line: true},
		{Binding: &o.Close, When: func() bool { return s.filter.Value() != "" }, Do: do(func() {
			s.filter.Clear()
			s.relist()
		})},
		{Binding: &o.Close, Do: func() tea.Cmd { return ui.Done(s, nil) }, Line: true, Help: s.c.Back()},
		ui.OnLine(&km.Global.Help, ""),
		{Binding: &km.Global.Quit, Do: func() tea.Cmd { return tea.Quit }, Line: true},
		{Binding: &o.Right, Do: column(1)},
		{Binding: &o.Reverse, Do: do(func() { s.view.Desc = !s.view.Desc; s.relist() })},
		{Binding: &o.FoldAll, Do: do(s.foldAll)},
	}
	n := func() int { return len(s.rows) }
	return append(acts, ui.CursorActions(&km.Nav, &s.cursor, n, s.listRows, nil)...)
}

// setBaseline makes the column under the cursor the baseline.
func (s *Sheet) setBaseline() tea.Cmd {
	c := s.column()
	if c < 0 {
		return note("b: put the cursor on a model's column (h/l) to make it the baseline")
	}
	s.view.Baseline = c
	if s.view.Compared == c {
		s.view.Compared = 0
		if c == 0 {
			s.view.Compared = min(1, len(s.table.Columns)-1)
		}
	}
	if s.view.Sort == ov.ByDelta {
		s.relist()
	}
	return nil
}

// sortHere sorts by the column under the cursor, or reverses the sort
// when it is that column's already.
func (s *Sheet) sortHere() {
	by, col := ov.ByTask, 0
	switch c := s.column(); {
	case c >= 0:
		by, col = ov.ByColumn, c
	case s.pos == 1 && len(s.table.Columns) > 1:
		by = ov.ByDelta
	}
	if s.view.Sort == by && (by != ov.ByColumn || s.view.Column == col) {
		s.view.Desc = !s.view.Desc
	} else {
		s.view.Sort, s.view.Column, s.view.Desc = by, col, false
	}
	s.relist()
}

// fold folds or unfolds the group under the cursor; on a subtask, it
// folds the subtask's group and goes up to it.
func (s *Sheet) fold() {
	r := s.row()
	if r < 0 {
		return
	}
	row := s.table.Rows[r]
	switch {
	case row.Group:
		s.view.Folded[r] = !s.view.Folded[r]
	case row.Parent >= 0:
		s.view.Folded[row.Parent] = true
		r = row.Parent
	default:
		return
	}
	s.relist()
	s.moveTo(r)
}

// foldAll folds every group, or unfolds them all when all are folded;
// the cursor goes up to its outermost group when that folds.
func (s *Sheet) foldAll() {
	all := true
	for i, r := range s.table.Rows {
		if r.Group && !s.view.Folded[i] {
			all = false
		}
	}
	for i, r := range s.table.Rows {
		if r.Group {
			s.view.Folded[i] = !all
		}
	}
	r := s.row()
	for !all && r >= 0 && s.table.Rows[r].Parent >= 0 {
		r = s.table.Rows[r].Parent
	}
	s.relist()
	s.moveTo(r)
}

// moveTo puts the cursor on table row r, when it is shown.
func (s *Sheet) moveTo(r int) {
	for i, x := range s.rows {
		if x == r {
			s.cursor = i
		}
	}
}

// open shows the task under the cursor of the column enter opens, in
// the list (its wrong answers only with wrong); a group without a record
// of its own folds or unfolds.
func (s *Sheet) open(wrong bool) tea.Cmd {
	r := s.row()
	if r < 0 {
		return nil
	}
	row := s.table.Rows[r]
	c := s.target()
	if c < 0 {
		return nil
	}
	cell := row.Cells[c]
	if cell.Entry < 0 {
		if row.Group {
			s.fold()
			return nil
		}
		return note(text.OneLine(row.Task) + ": " + cell.Note + " (" + text.OneLine(s.table.Columns[c].Name()) + ")")
	}
	e := s.table.Entries[cell.Entry]
	return ui.Send(ui.OpenMsg{Dataset: s.dss[e.Dataset], Record: cell.Record, WrongOnly: wrong && cell.Record < 0})
}

// compare opens the comparison of the task's runs, doc by doc: the
// datasets of its cells that hold its records, in column order.
func (s *Sheet) compare() tea.Cmd {
	r := s.row()
	if r < 0 {
		return nil
	}
	row := s.table.Rows[r]
	var in []runs.Run
	_, filter, _ := strings.Cut(row.Metric, ",")
	for c, cell := range row.Cells {
		if cell.Entry < 0 || cell.Record >= 0 {
			continue
		}
		ds := s.dss[s.table.Entries[cell.Entry].Dataset]
		in = append(in, runs.Run{Dataset: ds, Label: s.table.Columns[c].Label, Filter: ds.FilterIndex(filter),
			Value: cell.ValueText(false)})
	}
	if len(in) < 2 {
		return note("C: " + text.OneLine(row.Task) + " has the records of fewer than two models or runs here")
	}
	return ui.Send(ui.PushMsg{Sheet: runs.New(s.c, text.OneLine(row.Task), in)})
}

// reruns lists the runs of the task under the cursor in the column
// enter opens, oldest first, each with its value (the cell shows the
// latest's): the runs sheet, doc by doc where their records are here.
func (s *Sheet) reruns() tea.Cmd {
	r, c := s.row(), s.target()
	if r < 0 || c < 0 {
		return nil
	}
	t := s.table
	row, col := t.Rows[r], t.Columns[c]
	rvs := t.CellRuns(r, c)
	if len(rvs) < 2 {
		what := "ran once"
		if len(rvs) == 0 {
			what = "did not run"
		}
		return note("r: " + text.OneLine(row.Task) + " " + what + " in " + text.OneLine(col.Label) + " (↻ marks a task run more than once)")
	}
	_, filter, _ := strings.Cut(row.Metric, ",")
	var in []runs.Run
	for i, rv := range rvs {
		ds := s.dss[t.Entries[rv.Entry].Dataset]
		label := model.RunTime(rv.Run)
		if rv.Run == "" {
			label = "run " + strconv.Itoa(i+1) + " (time unknown)"
		}
		v := ov.Cell{Figure: rv.Figure, HasFigure: rv.HasFigure, Other: rv.Other, Pending: rv.Pending}.ValueText(false)
		in = append(in, runs.Run{Dataset: ds, Label: label, Filter: ds.FilterIndex(filter), Value: v, NoDocs: rv.Record >= 0, Record: rv.Record})
	}
	return ui.Send(ui.PushMsg{Sheet: runs.NewReruns(s.c, text.OneLine(row.Task), text.OneLine(col.Label), in)})
}

// expand shows the model of the column under the cursor run by run, or
// merges its runs again.
func (s *Sheet) expand() tea.Cmd {
	c := s.target()
	if c < 0 {
		return nil
	}
	m := s.table.Columns[c].Model
	if s.opts.Expand[m] {
		delete(s.opts.Expand, m)
	} else {
		s.opts.Expand[m] = true
	}
	s.rebuild()
	return nil
}

// note reports a transient note for the status bar.
func note(t string) tea.Cmd { return ui.Send(ui.NoteMsg{Text: t}) }

// ShortHelp lists the sheet's keys for the help line.
func (s *Sheet) ShortHelp() []key.Binding { return ui.ShortHelp(s.Actions()) }

// FullHelp lists the sheet's keys for the `?` overlay.
func (s *Sheet) FullHelp() [][]key.Binding {
	o := s.c.Keys.Overview
	return [][]key.Binding{{o.Left, o.Right, o.Sort, o.Reverse, o.Baseline, o.Stderr, o.Fold, o.FoldAll, o.Filter, o.Choose, o.Wrong, o.Compare,
		o.Reruns, o.Expand, o.Empty, s.c.Keys.Dataset.Picker, o.Close}}
}
