package overview

import (
	"slices"
	"strings"

	"evalview/model"
)

// SortBy is what rows are sorted by.
type SortBy int

// The sort keys.
const (
	// ByTask orders rows by task name (the tree order).
	ByTask SortBy = iota
	// ByColumn orders rows by their value in View.Column.
	ByColumn
	// ByDelta orders rows by the compared column's change against the
	// baseline.
	ByDelta
)

// View is how the overview is shown: the baseline and compared columns
// of the delta, the sort, the row filter and the folded groups.
type View struct {
	Baseline, Compared int
	// Sort is the key, Column its column (ByColumn); Desc reverses it.
	Sort   SortBy
	Column int
	Desc   bool
	// Filter keeps the rows whose task contains it (any case), with
	// their groups and, for a group, its subtasks.
	Filter string
	// Folded are the groups whose subtasks are hidden.
	Folded map[int]bool
}

// Delta is row r's value in column c minus the one in column base, when
// both show the row's metric. It compares like figures: two runs of
// which only one reports its mean (a scores_map's global mean, rounded
// half to even) are compared by their site means (rounded half up, Site),
// never one rounding against the other, which could put a delta of 0.01
// between two runs of the same scores.
func (t *Table) Delta(r, c, base int) (float64, bool) {
	if r < 0 || r >= len(t.Rows) || c < 0 || base < 0 || c >= len(t.Columns) || base >= len(t.Columns) {
		return 0, false
	}
	a, b := t.Rows[r].Cells[base], t.Rows[r].Cells[c]
	if !a.HasFigure || !b.HasFigure || a.Other || b.Other {
		return 0, false
	}
	fa, fb := a.Figure, b.Figure
	if fa.Reported != fb.Reported && fa.HasSite && fb.HasSite {
		return fb.Site - fa.Site, true
	}
	return fb.Value - fa.Value, true
}

// DeltaNote says what Delta(r, c, base) compares when it is not the
// values shown (the site means of a run that reports its mean and one
// that does not); "" otherwise.
func (t *Table) DeltaNote(r, c, base int) string {
	if _, ok := t.Delta(r, c, base); !ok || c == base {
		return ""
	}
	fa, fb := t.Rows[r].Cells[base].Figure, t.Rows[r].Cells[c].Figure
	if fa.Reported == fb.Reported || !fa.HasSite || !fb.HasSite {
		return ""
	}
	return "Δ of the site means " + model.FormatFloat(fb.Site, 2) + " − " + model.FormatFloat(fa.Site, 2) +
		" (a scores_map mean rounds otherwise)"
}

// Change tells whether row r in column c is better (1) or worse (-1)
// than in column base, following the metric's direction; 0 for the same
// value or no comparison.
func (t *Table) Change(r, c, base int) int {
	d, ok := t.Delta(r, c, base)
	if !ok || d == 0 || d != d {
		return 0
	}
	if t.Rows[r].Cells[c].Figure.LowerIsBetter {
		d = -d
	}
	if d > 0 {
		return 1
	}
	return -1
}

// Worse counts the tasks (not groups) that are worse in column c than in
// column base.
func (t *Table) Worse(c, base int) int {
	n := 0
	for r, row := range t.Rows {
		if !row.Group && t.Change(r, c, base) < 0 {
			n++
		}
	}
	return n
}

// Worst is the task (not a group) with column c's lowest value, among
// the metrics on the scale of a share, 0 to 1 (accuracies and the like),
// where higher is better: a metric with a value outside [0, 1] anywhere
// in the table (a BLEU of 8.19, a perplexity) is on a scale of its own,
// and a correlation (mcc) is 0 at chance, not at worst. -1 when none
// has a value.
func (t *Table) Worst(c int) int {
	if t.shareScale == nil {
		t.shareScale = map[string]bool{}
		off := map[string]bool{"mcc": true}
		for _, row := range t.Rows {
			for _, cell := range row.Cells {
				if f := cell.Figure; cell.HasFigure && (f.Value < 0 || f.Value > 1) {
					off[f.Name] = true
				}
			}
		}
		for _, row := range t.Rows {
			for _, cell := range row.Cells {
				if cell.HasFigure && !off[cell.Figure.Name] {
					t.shareScale[cell.Figure.Name] = true
				}
			}
		}
	}
	best, worst := 0.0, -1
	for r, row := range t.Rows {
		cell := row.Cells[c]
		if row.Group || !cell.HasFigure || cell.Other || cell.Figure.LowerIsBetter || cell.Figure.Value != cell.Figure.Value ||
			!t.shareScale[cell.Figure.Name] {
			continue
		}
		if worst < 0 || cell.Figure.Value < best {
			best, worst = cell.Figure.Value, r
		}
	}
	return worst
}

// Visible lists the rows shown under v, in display order: the tree, each
// level sorted by v's key, folded groups without their subtasks, and
// with a filter only the rows it keeps.
func (t *Table) Visible(v View) []int {
	keep := t.filtered(v.Filter)
	var out []int
	var walk func(rows []int)
	walk = func(rows []int) {
		rows = t.sorted(rows, v)
		for _, r := range rows {
			if keep != nil && !keep[r] {
				continue
			}
			out = append(out, r)
			if !v.Folded[r] || keep != nil {
				walk(t.Rows[r].Children)
			}
		}
	}
	var roots []int
	for i, r := range t.Rows {
		if r.Parent < 0 {
			roots = append(roots, i)
		}
	}
	walk(roots)
	return out
}

// filtered marks the rows a filter keeps (nil without one): those whose
// task contains it, their groups, and a kept group's subtasks.
func (t *Table) filtered(f string) map[int]bool {
	f = strings.ToLower(strings.TrimSpace(f))
	if f == "" {
		return nil
	}
	keep := map[int]bool{}
	var under func(r int)
	under = func(r int) {
		keep[r] = true
		for _, k := range t.Rows[r].Children {
			under(k)
		}
	}
	for i, r := range t.Rows {
		if !strings.Contains(strings.ToLower(r.Task), f) {
			continue
		}
		under(i)
		for p := r.Parent; p >= 0; p = t.Rows[p].Parent {
			keep[p] = true
		}
	}
	return keep
}

// sorted orders sibling rows by v's key; rows without a value go last
// either way, and ties keep the name order.
func (t *Table) sorted(rows []int, v View) []int {
	if v.Sort == ByTask && !v.Desc {
		return rows
	}
	out := slices.Clone(rows)
	key := func(r int) (float64, bool) {
		switch {
		case v.Sort == ByDelta:
			return t.Delta(r, v.Compared, v.Baseline)
		case v.Sort == ByColumn && v.Column >= 0 && v.Column < len(t.Columns):
			c := t.Rows[r].Cells[v.Column]
			return c.Figure.Value, c.HasFigure && !c.Other && c.Figure.Value == c.Figure.Value
		}
		return 0, false
	}
	slices.SortStableFunc(out, func(a, b int) int {
		if v.Sort == ByTask {
			return -natCompare(t.Rows[a].Task, t.Rows[b].Task)
		}
		ka, oka := key(a)
		kb, okb := key(b)
		switch {
		case !oka && !okb:
			return 0
		case !oka:
			return 1
		case !okb:
			return -1
		case ka == kb:
			return 0
		case (ka < kb) != v.Desc:
			return -1
		}
		return 1
	})
	return out
}

// Partner is the column the overview first compares with column base:
// the one that shares the most tasks with it (both with a figure), the
// first of those that share as many; -1 when no column shares one. A
// folder of many models whose first two ran different tasks opened on
// two columns of "–" and no delta.
func (t *Table) Partner(base int) int {
	best, most := -1, 0
	for c := range t.Columns {
		if c == base {
			continue
		}
		n := 0
		for _, r := range t.Rows {
			if !r.Group && r.Cells[base].HasFigure && r.Cells[c].HasFigure {
				n++
			}
		}
		if n > most {
			best, most = c, n
		}
	}
	return best
}

// FirstShared is the first of rows (row indexes, as Visible gives them)
// where columns a and b both have a figure, -1 when none has.
func (t *Table) FirstShared(rows []int, a, b int) int {
	for i, r := range rows {
		if cs := t.Rows[r].Cells; cs[a].HasFigure && cs[b].HasFigure {
			return i
		}
	}
	return -1
}
