package overview

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"evalview/model"
)

// Column is one configuration of a model (what was evaluated), or one
// run of it (a model shown run by run, or a run whose time is unknown
// that holds a task of another).
type Column struct {
	Model string
	// Config are the column's settings (model.Origin.Config, and the
	// task settings that split the model's columns: n-shot in a few-shot
	// sweep).
	Config []model.Fact
	// Differs are the keys of Config whose values differ among the
	// model's columns: what the label shows.
	Differs []string
	// Run is the run's stamp when the column holds one run; "" when it
	// holds several (RunList) or its one run's time is unknown.
	Run  string
	Runs int
	// RunList are the runs the column holds, oldest first.
	RunList []RunRef
	// Expanded marks a column of one run of a model shown run by run.
	Expanded bool
	// Note says how the model was found, when the artifact does not
	// state it.
	Note string
	// Label is the column's short heading (Labels); Tail is its end that
	// tells it apart from the model's other columns (its settings, its
	// run's time), which a narrow heading keeps; "" when the model has
	// one column.
	Label, Tail string
	// Tasks counts the column's tasks.
	Tasks int
	// Key names the column across builds (its model, settings and run),
	// so that a sheet keeps its cursor, baseline and sort on it when
	// runs expand or empty columns show.
	Key string
}

// Name is the column's full name: the model, the settings that tell its
// columns apart, and for a column of one run the run's time
// ("org/model revision=step1000 @ 2025-09-09 13:31").
func (c Column) Name() string {
	name := c.Model
	if name == "" {
		name = "model unknown"
	}
	if s := c.Settings(); s != "" {
		name += " " + s
	}
	if c.Run != "" {
		name += " @ " + model.RunTime(c.Run)
	}
	return name
}

// Settings writes the settings that tell the column apart from its
// model's other columns ("revision=step1000 num_fewshot=5"), those it
// leaves unset left out; "" for none.
func (c Column) Settings() string {
	var parts []string
	for _, k := range c.Differs {
		if v, ok := factValue(c.Config, k); ok {
			parts = append(parts, k+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// Cell is one task of one column.
type Cell struct {
	// Entry is the index of the entry the cell comes from (Table.Entries),
	// -1 for none (the model did not run the task): the latest of the
	// column's runs that ran the task.
	Entry int
	// Runs are the entries of the column's runs that ran the task, oldest
	// first (Entry the last); more than one marks a task run again.
	Runs []int
	// Record is the record that shows the task in its dataset, -1 for
	// the dataset's list.
	Record int
	// Figure is the row's metric in this column; HasFigure is false when
	// there is none (Note says why).
	Figure    Figure
	HasFigure bool
	// Other is set when the column has no value for the row's metric and
	// shows another of its own (Figure names it).
	Other   bool
	Pending bool
	// Unscored counts the records of a dataset that has no figure at all
	// (a testset's cases: nothing in it is scored), 0 otherwise.
	Unscored int
	Note     string
}

// Valued reports whether the cell shows anything: a value, one still to
// come, or a count of unscored records.
func (c Cell) Valued() bool { return c.HasFigure || c.Pending || c.Unscored > 0 }

// Row is one task, or one group of tasks, of the overview.
type Row struct {
	Task string
	// Group marks a group of tasks: the rows whose Parent it is follow
	// it in Table.Rows.
	Group  bool
	Depth  int
	Parent int
	// Children are the rows directly under a group.
	Children []int
	// Metric is the row's metric as the harness names it ("acc,none").
	Metric string
	Cells  []Cell
}

// Table is the overview: rows of tasks by columns of model
// configurations.
type Table struct {
	Columns []Column
	// Rows are in tree order: each group followed by its subtasks, the
	// tasks of one level in natural name order.
	Rows    []Row
	Entries []Entry
	// HiddenRows and HiddenColumns count the rows and columns left out
	// for having no value in any cell (Options.ShowEmpty keeps them).
	HiddenRows, HiddenColumns int
	// MergedUntimed counts the runs without a time that joined their
	// configuration's column as runs again, rather than stand alone,
	// past MaxAlone of one model: which of them is the later is not
	// known; the cell shows the last by path.
	MergedUntimed int
	// colOf is the column of each entry's tasks; groups each column's
	// group aggregates by group name.
	colOf  [][]int
	groups []map[string][]Figure
	// runAt is each entry's run stamp as runs are ordered (runOrder).
	runAt []string
	// shareScale marks the metrics whose every value is in [0, 1]
	// (Worst), once it is asked.
	shareScale map[string]bool
}

// Build lines the entries up. Models follow the entries' order (the
// paths the user gave), each model's configurations in natural order of
// what tells them apart; rows and columns without any value are left
// out unless opts.ShowEmpty.
func Build(entries []Entry, opts Options) *Table {
	t := &Table{Entries: entries, runAt: make([]string, len(entries))}
	for i, e := range entries {
		t.runAt[i] = runOrder(e.Run)
	}
	t.colOf = t.place(opts)
	labelColumns(t.Columns)
	t.groupFigures()
	nodes := map[string]int{}
	var roots []string
	children := map[string][]string{}
	isGroup := map[string]bool{}
	add := func(name, parent string) {
		if _, ok := nodes[name]; ok {
			return
		}
		nodes[name] = -1
		if parent == "" {
			roots = append(roots, name)
		} else {
			children[parent] = append(children[parent], name)
		}
	}
	for _, e := range entries {
		for _, task := range e.Tasks {
			parent := ""
			for _, g := range task.Groups {
				add(g, parent)
				isGroup[g] = true
				parent = g
			}
			add(task.Name, parent)
			if task.Group {
				isGroup[task.Name] = true
			}
		}
	}
	var walk func(names []string, parent, depth int)
	walk = func(names []string, parent, depth int) {
		slices.SortFunc(names, func(a, b string) int { return natCompare(a, b) })
		for _, n := range names {
			i := len(t.Rows)
			nodes[n] = i
			kids := children[n]
			t.Rows = append(t.Rows, Row{Task: n, Group: isGroup[n] || len(kids) > 0, Depth: depth, Parent: parent})
			if parent >= 0 {
				t.Rows[parent].Children = append(t.Rows[parent].Children, i)
			}
			walk(kids, i, depth+1)
		}
	}
	walk(roots, -1, 0)
	for i := range t.Rows {
		t.Rows[i].Cells = make([]Cell, len(t.Columns))
		for c := range t.Rows[i].Cells {
			t.Rows[i].Cells[c] = Cell{Entry: -1, Record: -1}
		}
	}
	for ei, e := range entries {
		for j, task := range e.Tasks {
			cell := &t.Rows[nodes[task.Name]].Cells[t.colOf[ei][j]]
			cell.Runs = append(cell.Runs, ei)
		}
	}
	for r := range t.Rows {
		for c := range t.Rows[r].Cells {
			t.latest(&t.Rows[r].Cells[c], t.Rows[r].Task)
		}
	}
	for i := len(t.Rows) - 1; i >= 0; i-- { // subtasks first: a group takes their metric
		t.fill(i)
	}
	for c := range t.Columns {
		for _, r := range t.Rows {
			if !r.Group && r.Cells[c].Entry >= 0 {
				t.Columns[c].Tasks++
			}
		}
	}
	if !opts.ShowEmpty {
		t.hideEmpty()
	}
	return t
}

// latest settles a cell's runs: the entries that ran the task, one per
// run (a copy of a run's file is the same run: its first stands), oldest
// first; the cell shows the last.
func (t *Table) latest(cell *Cell, task string) {
	if len(cell.Runs) == 0 {
		return
	}
	if len(cell.Runs) > 1 {
		slices.SortStableFunc(cell.Runs, func(a, b int) int { return strings.Compare(t.runAt[a], t.runAt[b]) })
	}
	runs := cell.Runs[:0]
	for k, ei := range cell.Runs {
		if k > 0 && t.Entries[ei].Run != "" && t.Entries[ei].Run == t.Entries[runs[len(runs)-1]].Run {
			continue
		}
		runs = append(runs, ei)
	}
	cell.Runs = runs
	ei := runs[len(runs)-1]
	e := t.Entries[ei]
	cell.Entry, cell.Pending = ei, e.Pending
	for _, tk := range e.Tasks {
		if tk.Name == task {
			cell.Record = tk.Record
			break
		}
	}
}

// fill chooses row i's metric and each cell's figure. A task's metric is
// the main one of its first column that has one; other columns show the
// same metric, else (Other) their own main one. A group's is its
// aggregate as reported, beside the one recomputed from its subtasks.
func (t *Table) fill(i int) {
	r := &t.Rows[i]
	figs := make([][]Figure, len(r.Cells))
	for c := range r.Cells {
		figs[c] = t.figures(r, c)
		if len(figs[c]) > 0 && r.Metric == "" {
			r.Metric = figs[c][0].Key()
		}
	}
	var ran map[string][]int // the columns of each model that ran the task
	notRun := map[string]string{}
	for c := range r.Cells {
		cell := &r.Cells[c]
		if len(figs[c]) == 0 {
			if ran == nil {
				ran = map[string][]int{}
				for o, x := range r.Cells {
					if x.Entry >= 0 {
						ran[t.Columns[o].Model] = append(ran[t.Columns[o].Model], o)
					}
				}
			}
			m := t.Columns[c].Model
			if n, ok := notRun[m]; ok && cell.Entry < 0 && !r.Group {
				cell.Note = n // the same for every column of the model that did not run it
				continue
			}
			cell.Note = t.noFigure(r, c, ran[m])
			if cell.Entry < 0 && !r.Group {
				notRun[m] = cell.Note
			}
			if cell.Entry >= 0 && !cell.Pending && !r.Group {
				cell.Unscored = t.Entries[cell.Entry].Records
			}
			continue
		}
		f, other := pick(figs[c], r.Metric)
		cell.Figure, cell.HasFigure, cell.Other = f, f.HasValue, other
		switch {
		case other:
			cell.Note = "no " + r.Metric + " here: its own main metric, " + f.Key() + ", is shown"
		case !f.HasValue:
			cell.Note = f.Note
		}
	}
}

// figures are row r's candidate figures in column c: a task's own, or a
// group's aggregates (from any dataset of the column that carries them),
// the one of its subtasks' metric first.
func (t *Table) figures(r *Row, c int) []Figure {
	cell := r.Cells[c]
	var own []Figure
	if cell.Entry >= 0 {
		for _, task := range t.Entries[cell.Entry].Tasks {
			if task.Name == r.Task {
				own = task.Figures
			}
		}
	}
	if !r.Group || len(t.groups[c][r.Task]) == 0 {
		return own
	}
	out := slices.Clone(t.groups[c][r.Task])
	if first := t.firstChildMetric(r); first != "" {
		for i, f := range out {
			if f.Key() == first {
				out[0], out[i] = out[i], out[0]
				break
			}
		}
	}
	return out
}

// groupFigures gathers each column's group aggregates: every dataset of
// a run carries those of its task's groups, the same ones; of a column's
// runs, the latest's stand.
func (t *Table) groupFigures() {
	t.groups = make([]map[string][]Figure, len(t.Columns))
	seen := make([]map[string]bool, len(t.Columns))
	for c := range t.groups {
		t.groups[c], seen[c] = map[string][]Figure{}, map[string]bool{}
	}
	var order []int
	for i, e := range t.Entries {
		if len(e.Groups) > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return -strings.Compare(t.runAt[a], t.runAt[b]) })
	for _, i := range order {
		e := t.Entries[i]
		if len(e.Groups) == 0 || len(t.colOf[i]) == 0 {
			continue
		}
		c := t.colOf[i][0]
		for _, g := range e.Groups {
			k := g.Group + "\x00" + g.Name + "," + g.Filter
			if seen[c][k] {
				continue
			}
			seen[c][k] = true
			t.groups[c][g.Group] = append(t.groups[c][g.Group], groupFigure(g))
		}
	}
}

// firstChildMetric is the metric of group r's first subtask that has one.
func (t *Table) firstChildMetric(r *Row) string {
	for _, k := range r.Children {
		if m := t.Rows[k].Metric; m != "" {
			return m
		}
	}
	return ""
}

// groupFigure is a group aggregate as the overview shows it.
func groupFigure(g model.GroupComparison) Figure {
	f := Figure{Name: g.Name, Filter: g.Filter, Value: g.Reported, HasValue: true, Reported: true,
		Stderr: g.Stderr, HasStderr: g.HasStderr, N: g.Subtasks, Differs: g.Differs(), Note: g.Note}
	if g.HasRecomputed {
		f.Recomputed, f.HasRecomputed = g.Recomputed, true
		how := "plain mean"
		if g.WeightBySize {
			how = "weighted by size"
		}
		if f.Note == "" {
			f.Note = "recomputed from " + strconv.Itoa(g.Subtasks) + " subtasks' reported values (" + how + ")"
		}
	}
	return f
}

// pick is the figure of metric key among figs, else one of the same
// metric under another filter, else the first (other is then set).
func pick(figs []Figure, key string) (f Figure, other bool) {
	name, _, _ := strings.Cut(key, ",")
	for _, f := range figs {
		if f.Key() == key {
			return f, false
		}
	}
	for _, f := range figs {
		if f.Name == name {
			return f, true
		}
	}
	return figs[0], true
}

// noFigure says why cell c of row r is empty; a task the model ran in
// another of its columns (ran) says which.
func (t *Table) noFigure(r *Row, c int, ran []int) string {
	cell := r.Cells[c]
	switch {
	case cell.Entry < 0 && r.Group:
		return "no aggregate reported for this group"
	case cell.Entry < 0:
		var in []string
		for _, o := range ran {
			if o != c && len(in) < 4 {
				in = append(in, t.Columns[o].Label)
			}
		}
		if len(in) == 0 {
			return "not run by this model"
		}
		what := "not run in this configuration"
		if t.Columns[c].Expanded {
			what = "not run in this run"
		}
		if len(in) > 3 {
			in = append(in[:3], "…")
		}
		return what + "; the model ran it in " + strings.Join(in, ", ")
	case cell.Pending:
		return "still indexing"
	}
	return strconv.Itoa(t.Entries[cell.Entry].Records) + " records, none scored"
}

// natCompare orders names naturally: digit runs compare as numbers
// (bbh_2 before bbh_10).
func natCompare(a, b string) int { return natural(a, b, digits) }

// natCompareDec orders settings' values naturally, numbers as numbers
// with their decimals (alpha1.25 before alpha1.5, step128 before
// step1000).
func natCompareDec(a, b string) int { return natural(a, b, decimal) }

// natural compares a and b byte by byte, but for a number that starts
// at the same place in both (span measures it), which compares by its
// value.
func natural(a, b string, span func(string) int) int {
	for a != "" && b != "" {
		da, db := span(a), span(b)
		if da > 0 && db > 0 {
			if c := compareNumbers(a[:da], b[:db]); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			if a[0] < b[0] {
				return -1
			}
			return 1
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

// compareNumbers compares two unsigned decimal numbers (digits, and
// maybe a point and more digits) by value, exactly, however long: the
// integer parts by their length without leading zeros, then digit by
// digit, then the fractions without trailing zeros ("007" is "7", "1.50"
// is "1.5").
func compareNumbers(a, b string) int {
	ai, af, _ := strings.Cut(a, ".")
	bi, bf, _ := strings.Cut(b, ".")
	ai, bi = strings.TrimLeft(ai, "0"), strings.TrimLeft(bi, "0")
	if c := cmp.Compare(len(ai), len(bi)); c != 0 {
		return c
	}
	if c := strings.Compare(ai, bi); c != 0 {
		return c
	}
	return strings.Compare(strings.TrimRight(af, "0"), strings.TrimRight(bf, "0"))
}

func digits(s string) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// decimal is the length of the number s starts with: digits, and a
// decimal point followed by digits.
func decimal(s string) int {
	i := digits(s)
	if i > 0 && i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		i += 1 + digits(s[i+1:])
	}
	return i
}

// RunValue is one run of a task in a column: its value of the row's
// metric (or, Other, of its own main one).
type RunValue struct {
	Entry int
	// Run is the run's stamp, "" when unknown.
	Run string
	// Record is the record that shows the task in the run's dataset, -1
	// for the dataset's list.
	Record    int
	Figure    Figure
	HasFigure bool
	Other     bool
	Pending   bool
}

// CellRuns are the runs of row r's task in column c, oldest first (the
// cell shows the last), each with its value: what a re-run changed.
func (t *Table) CellRuns(r, c int) []RunValue {
	if r < 0 || r >= len(t.Rows) || c < 0 || c >= len(t.Columns) {
		return nil
	}
	row := t.Rows[r]
	var out []RunValue
	for _, ei := range row.Cells[c].Runs {
		e := t.Entries[ei]
		rv := RunValue{Entry: ei, Run: e.Run, Record: -1, Pending: e.Pending}
		for _, tk := range e.Tasks {
			if tk.Name != row.Task {
				continue
			}
			rv.Record = tk.Record
			if len(tk.Figures) > 0 {
				key := row.Metric
				if key == "" {
					key = tk.Figures[0].Key()
				}
				f, other := pick(tk.Figures, key)
				rv.Figure, rv.HasFigure, rv.Other = f, f.HasValue, other
			}
			break
		}
		out = append(out, rv)
	}
	return out
}

// ColumnIndex is the column whose Key is key, -1 when none is shown.
func (t *Table) ColumnIndex(key string) int {
	for c, col := range t.Columns {
		if col.Key == key {
			return c
		}
	}
	return -1
}

// RowIndex is the row of task (or group) name, -1 when none is shown.
func (t *Table) RowIndex(name string) int {
	for r, row := range t.Rows {
		if row.Task == name {
			return r
		}
	}
	return -1
}
