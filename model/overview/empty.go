package overview

// hideEmpty leaves out the rows and the columns that have no value in
// any cell (a task every model ran without a figure, a run of a model
// whose tasks hold none): a folder where most files report another task
// than the one in view would otherwise open on a screen of "–". A group
// stays while one of its subtasks stays.
func (t *Table) hideEmpty() {
	keepCol := make([]bool, len(t.Columns))
	for _, r := range t.Rows {
		for c, cell := range r.Cells {
			keepCol[c] = keepCol[c] || cell.Valued()
		}
	}
	keepRow := make([]bool, len(t.Rows))
	for i := len(t.Rows) - 1; i >= 0; i-- { // subtasks come after their group
		r := t.Rows[i]
		for c, cell := range r.Cells {
			keepRow[i] = keepRow[i] || keepCol[c] && cell.Valued()
		}
		for _, k := range r.Children {
			keepRow[i] = keepRow[i] || keepRow[k]
		}
	}
	cols := make([]int, 0, len(t.Columns))
	for c, k := range keepCol {
		if k {
			cols = append(cols, c)
		}
	}
	t.HiddenColumns = len(t.Columns) - len(cols)
	if t.HiddenColumns > 0 {
		kept := make([]Column, 0, len(cols))
		for _, c := range cols {
			kept = append(kept, t.Columns[c])
		}
		t.Columns = kept
		for i := range t.Rows {
			cells := make([]Cell, 0, len(cols))
			for _, c := range cols {
				cells = append(cells, t.Rows[i].Cells[c])
			}
			t.Rows[i].Cells = cells
		}
	}
	at := make([]int, len(t.Rows))
	var rows []Row
	for i, r := range t.Rows {
		at[i] = -1
		if !keepRow[i] {
			continue
		}
		at[i] = len(rows)
		if r.Parent >= 0 {
			r.Parent = at[r.Parent]
		}
		r.Children = nil
		rows = append(rows, r)
	}
	t.HiddenRows = len(t.Rows) - len(rows)
	for i := range rows {
		if p := rows[i].Parent; p >= 0 {
			rows[p].Children = append(rows[p].Children, i)
		}
	}
	t.Rows = rows
}
