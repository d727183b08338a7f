package overview

import "evalview/model"

// Grid is the overview as a table of text, for `summary --format table`
// and `markdown`: a heading, then one row per task in tree order, each
// non-baseline value followed by its delta against the baseline.
type Grid struct {
	Head []string
	Rows []GridRow
}

// GridRow is one task or group of a Grid.
type GridRow struct {
	Task   string
	Group  bool
	Depth  int
	Metric string
	// Cells are the columns' values ("0.5000 (+0.2500)"); Worse marks
	// those worse than the baseline's.
	Cells []string
	Worse []bool
}

// Grid writes the table's cells against column base.
func (t *Table) Grid(base int) Grid {
	g := Grid{Head: []string{"task", "metric"}}
	for _, c := range t.Columns {
		g.Head = append(g.Head, c.Label)
	}
	for _, r := range t.Visible(View{}) {
		row := t.Rows[r]
		gr := GridRow{Task: row.Task, Group: row.Group, Depth: row.Depth, Metric: row.Metric,
			Cells: make([]string, len(t.Columns)), Worse: make([]bool, len(t.Columns))}
		for c, cell := range row.Cells {
			v := cell.ValueText(false)
			if d, ok := t.Delta(r, c, base); ok && c != base {
				v += " (" + DeltaText(d) + ")"
			}
			gr.Cells[c], gr.Worse[c] = v, t.Change(r, c, base) < 0
		}
		g.Rows = append(g.Rows, gr)
	}
	return g
}

// JSON is the overview as `summary --format json` writes it under
// "overview".
type JSON struct {
	// Baseline is the index of the column deltas are against.
	Baseline int          `json:"baseline"`
	Columns  []ColumnJSON `json:"columns"`
	Rows     []RowJSON    `json:"rows"`
	// MergedUntimed counts runs without a time merged into their
	// configuration's column past overview.MaxAlone (Table.MergedUntimed).
	MergedUntimed int `json:"merged_untimed_runs,omitempty"`
}

// ColumnJSON is one configuration of a model, or one run of it.
type ColumnJSON struct {
	Label string `json:"label"`
	Model string `json:"model"`
	// Run is the run's stamp, "" for a column of several runs (Runs).
	Run   string `json:"run"`
	Runs  int    `json:"runs"`
	Tasks int    `json:"tasks"`
	Note  string `json:"note,omitempty"`
	// Config are the column's settings as the artifacts state them
	// (model.Origin.Config); Differs names those that tell the model's
	// columns apart, which the label shows.
	Config  []SettingJSON `json:"config"`
	Differs []string      `json:"differs,omitempty"`
	// RunList are the runs the column holds, oldest first, each with
	// the files it was read from.
	RunList []RunJSON `json:"run_list"`
	// Expanded marks one run of a model shown run by run.
	Expanded bool `json:"expanded,omitempty"`
}

// SettingJSON is one setting of a configuration.
type SettingJSON struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// RunJSON is one run of a column.
type RunJSON struct {
	// Run is the run's stamp, "" when the artifact does not say.
	Run   string   `json:"run"`
	Paths []string `json:"paths"`
}

// RowJSON is one task or group, in tree order; Parent names its group.
type RowJSON struct {
	Task   string     `json:"task"`
	Group  bool       `json:"group"`
	Parent string     `json:"parent,omitempty"`
	Metric string     `json:"metric"`
	Cells  []CellJSON `json:"cells"`
}

// CellJSON is one task of one column. Numbers are JSON numbers, or the
// strings "NaN", "Infinity" and "-Infinity"; absent ones are null.
type CellJSON struct {
	// Value is the reported value when Reported, else the one evalview
	// computed (Note says how); null when the column has none.
	Value    any  `json:"value"`
	Reported bool `json:"reported"`
	// Recomputed is the value recomputed from the samples (a group's
	// from its subtasks); Differs when it disagrees with Value.
	Recomputed any  `json:"recomputed"`
	Differs    bool `json:"differs"`
	Stderr     any  `json:"stderr,omitempty"`
	N          int  `json:"n,omitempty"`
	// Delta is Value minus the baseline's, null for the baseline or
	// where either has no value of the row's metric; Change says whether
	// it is "better" or "worse" (following the metric's direction) or
	// "same".
	Delta  any    `json:"delta"`
	Change string `json:"change,omitempty"`
	// Runs are the column's runs of the task, oldest first, when it ran
	// more than once: Value is the latest's.
	Runs []CellRunJSON `json:"runs,omitempty"`
	// Metric names the cell's metric when it is not the row's (the
	// column has no value for it: its own main one is given).
	Metric string `json:"metric,omitempty"`
	Path   string `json:"path,omitempty"`
	Note   string `json:"note,omitempty"`
}

// CellRunJSON is one run of a task in a column.
type CellRunJSON struct {
	Run    string `json:"run"`
	Value  any    `json:"value"`
	Metric string `json:"metric,omitempty"`
	Path   string `json:"path"`
}

// JSON writes the table against column base.
func (t *Table) JSON(base int) JSON {
	out := JSON{Baseline: base, Columns: []ColumnJSON{}, Rows: []RowJSON{}, MergedUntimed: t.MergedUntimed}
	for _, c := range t.Columns {
		cj := ColumnJSON{Label: c.Label, Model: c.Model, Run: c.Run, Runs: c.Runs, Tasks: c.Tasks, Note: c.Note,
			Config: []SettingJSON{}, Differs: c.Differs, RunList: []RunJSON{}, Expanded: c.Expanded}
		for _, f := range c.Config {
			cj.Config = append(cj.Config, SettingJSON{Key: f.Key, Value: f.Value})
		}
		for _, r := range c.RunList {
			rj := RunJSON{Run: r.Run, Paths: []string{}}
			for _, e := range r.Entries {
				rj.Paths = append(rj.Paths, t.Entries[e].Path)
			}
			cj.RunList = append(cj.RunList, rj)
		}
		out.Columns = append(out.Columns, cj)
	}
	for _, r := range t.Visible(View{}) {
		row := t.Rows[r]
		rj := RowJSON{Task: row.Task, Group: row.Group, Metric: row.Metric, Cells: make([]CellJSON, len(row.Cells))}
		if row.Parent >= 0 {
			rj.Parent = t.Rows[row.Parent].Task
		}
		for c, cell := range row.Cells {
			cj := CellJSON{Note: cell.Note}
			if cell.Entry >= 0 {
				cj.Path = t.Entries[cell.Entry].Path
			}
			if f := cell.Figure; cell.HasFigure {
				cj.Value, cj.Reported, cj.Differs, cj.N = model.JSONNumber(f.Value), f.Reported, f.Differs, f.N
				if f.HasRecomputed {
					cj.Recomputed = model.JSONNumber(f.Recomputed)
				}
				if f.HasStderr {
					cj.Stderr = model.JSONNumber(f.Stderr)
				}
				if cell.Other {
					cj.Metric = f.Key()
				}
			}
			if d, ok := t.Delta(r, c, base); ok && c != base {
				cj.Delta = model.JSONNumber(d)
				cj.Change = [...]string{"worse", "same", "better"}[t.Change(r, c, base)+1]
			}
			if len(cell.Runs) > 1 {
				for _, rv := range t.CellRuns(r, c) {
					cr := CellRunJSON{Run: rv.Run, Path: t.Entries[rv.Entry].Path}
					if rv.HasFigure {
						cr.Value = model.JSONNumber(rv.Figure.Value)
						if rv.Other {
							cr.Metric = rv.Figure.Key()
						}
					}
					cj.Runs = append(cj.Runs, cr)
				}
			}
			rj.Cells[c] = cj
		}
		out.Rows = append(out.Rows, rj)
	}
	return out
}
