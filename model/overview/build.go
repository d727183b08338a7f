package overview

import (
	"slices"
	"strconv"
	"strings"

	"evalview/model"
)

// Column is one model, or one run of a model, of the overview.
type Column struct {
	Model string
	// Run is the run's stamp when the column is one run of the model
	// among several; "" when it gathers every run of the model (Runs of
	// them), which happens when no task was run twice.
	Run  string
	Runs int
	// Note says how the model was found, when the artifact does not
	// state it.
	Note string
	// Label is the column's short heading (Labels).
	Label string
	// Tasks counts the column's tasks.
	Tasks int
}

// Name is the column's full name: the model and, for a column of one
// run among several, the run's time ("org/model @ 2025-09-09 13:31").
func (c Column) Name() string {
	name := c.Model
	if name == "" {
		name = "model unknown"
	}
	if c.Run != "" {
		name += " @ " + model.RunTime(c.Run)
	}
	return name
}

// Cell is one task of one column.
type Cell struct {
	// Entry is the index of the entry the cell comes from (Table.Entries),
	// -1 for none (the model did not run the task).
	Entry int
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

// Table is the overview: rows of tasks by columns of models.
type Table struct {
	Columns []Column
	// Rows are in tree order: each group followed by its subtasks, the
	// tasks of one level in natural name order.
	Rows    []Row
	Entries []Entry
	// colOf is each entry's column; groups each column's group
	// aggregates by group name.
	colOf  []int
	groups []map[string][]Figure
}

// Build lines the entries up. Columns follow the entries' order (the
// paths the user gave): one per model, or one per run of a model when
// some task was run more than once by it.
func Build(entries []Entry) *Table {
	t := &Table{Entries: entries}
	colOf := t.columns()
	t.colOf = colOf
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
		c := colOf[ei]
		for _, task := range e.Tasks {
			cell := &t.Rows[nodes[task.Name]].Cells[c]
			if cell.Entry >= 0 {
				continue // the same task of the same run twice (a copy): the first stands
			}
			cell.Entry, cell.Record, cell.Pending = ei, task.Record, e.Pending
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
	labels := Labels(t.Columns)
	for c := range t.Columns {
		t.Columns[c].Label = labels[c]
	}
	return t
}

// columns makes the columns and returns each entry's column. Entries
// of a model whose run is unknown ("") are one run unless they hold the
// same task: then they are runs of their own (two Sample files of one
// task), never taken for a copy of one run, whose first alone shows.
func (t *Table) columns() []int {
	type run struct {
		name  string
		id    string // name, or a key of its own for an unknown run
		tasks map[string]bool
	}
	var models []string
	runs := map[string][]*run{}
	note := map[string]string{}
	runOf := make([]*run, len(t.Entries))
	for i, e := range t.Entries {
		if _, ok := runs[e.Model]; !ok {
			models = append(models, e.Model)
			note[e.Model] = e.Note
		}
		var r *run
		for _, x := range runs[e.Model] {
			if x.name == e.Run && (e.Run != "" || !holdsAny(x.tasks, e.Tasks)) {
				r = x
				break
			}
		}
		if r == nil {
			r = &run{name: e.Run, id: e.Run, tasks: map[string]bool{}}
			if e.Run == "" {
				r.id = "\x00" + strconv.Itoa(i)
			}
			runs[e.Model] = append(runs[e.Model], r)
		}
		runOf[i] = r
		for _, task := range e.Tasks {
			r.tasks[task.Name] = true
		}
	}
	colOf := make([]int, len(t.Entries))
	key := map[[2]string]int{}
	for _, m := range models {
		rs := runs[m]
		split := false
		seen := map[string]bool{}
		for _, r := range rs {
			for task := range r.tasks {
				split = split || seen[task]
				seen[task] = true
			}
		}
		if !split {
			c := Column{Model: m, Runs: len(rs), Note: note[m]}
			if len(rs) == 1 {
				c.Run = rs[0].name
			}
			key[[2]string{m, ""}] = len(t.Columns)
			t.Columns = append(t.Columns, c)
			continue
		}
		slices.SortStableFunc(rs, func(a, b *run) int { return strings.Compare(a.name, b.name) })
		for _, r := range rs {
			key[[2]string{m, r.id}] = len(t.Columns)
			t.Columns = append(t.Columns, Column{Model: m, Run: r.name, Runs: 1, Note: note[m]})
		}
	}
	for i, e := range t.Entries {
		if c, ok := key[[2]string{e.Model, ""}]; ok {
			colOf[i] = c
			continue
		}
		colOf[i] = key[[2]string{e.Model, runOf[i].id}]
	}
	return colOf
}

// holdsAny reports whether tasks holds one of ts.
func holdsAny(tasks map[string]bool, ts []Task) bool {
	for _, t := range ts {
		if tasks[t.Name] {
			return true
		}
	}
	return false
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
	for c := range r.Cells {
		cell := &r.Cells[c]
		if len(figs[c]) == 0 {
			cell.Note = t.noFigure(r, c)
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
// a run carries those of its task's groups, the same ones.
func (t *Table) groupFigures() {
	t.groups = make([]map[string][]Figure, len(t.Columns))
	seen := make([]map[string]bool, len(t.Columns))
	for c := range t.groups {
		t.groups[c], seen[c] = map[string][]Figure{}, map[string]bool{}
	}
	for i, e := range t.Entries {
		c := t.colOf[i]
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

// noFigure says why cell c of row r is empty.
func (t *Table) noFigure(r *Row, c int) string {
	cell := r.Cells[c]
	switch {
	case cell.Entry < 0 && r.Group:
		return "no aggregate reported for this group"
	case cell.Entry < 0:
		return "not run by this model"
	case cell.Pending:
		return "still indexing"
	}
	return strconv.Itoa(t.Entries[cell.Entry].Records) + " records, none scored"
}

// natCompare orders names naturally: digit runs compare as numbers
// (bbh_2 before bbh_10).
func natCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, _ := strconv.ParseUint(a[:da], 10, 64)
			nb, _ := strconv.ParseUint(b[:db], 10, 64)
			if na != nb {
				if na < nb {
					return -1
				}
				return 1
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

func digits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
