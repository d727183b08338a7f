package overview

import (
	"slices"
	"strconv"
	"strings"

	ov "evalview/model/overview"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// layout is where the sheet's columns go at its width.
type layout struct {
	taskW, metricW int
	delta          bool
	// colW are the models' widths; first and last the ones shown.
	colW        []int
	first, last int
}

// deltaW is the delta column's width ("−0.0310" and its heading).
const deltaW = 8

// footLines are the lines under the rows: the worst task of each
// column, how many are worse than the baseline, the cell's details.
func (s *Sheet) footLines() int {
	if len(s.table.Columns) > 1 {
		return 3
	}
	return 2
}

// listRows is how many task rows fit.
func (s *Sheet) listRows() int { return max(1, s.h-2-s.headLines()-s.footLines()) }

// headLines is 1 when the columns' models are named on a line of their
// own above the headings (grouped), 0 otherwise.
func (s *Sheet) headLines() int {
	if s.grouped() {
		return 1
	}
	return 0
}

// grouped reports whether the headings name the models on a line of
// their own: there are several models and one of them has several
// columns, whose headings then say only what tells them apart (their
// settings, their runs) under their model's name.
func (s *Sheet) grouped() bool { return s.groupedCols }

// setTable shows table t.
func (s *Sheet) setTable(t *ov.Table) {
	s.table, s.groupedCols = t, groupedColumns(t)
}

// groupedColumns reports whether t's columns are grouped under their
// models: some model has several columns, and there are several models.
func groupedColumns(t *ov.Table) bool {
	models := map[string]int{}
	multi := false
	for _, c := range t.Columns {
		models[c.Model]++
		multi = multi || models[c.Model] > 1
	}
	return multi && len(models) > 1
}

// headText is column c's heading: its label, or under a model's name
// (grouped), what tells it from the model's other columns.
func (s *Sheet) headText(c int) string {
	col := s.table.Columns[c]
	if s.grouped() && col.Tail != "" {
		return col.Tail
	}
	return col.Label
}

// modelHead is a column's model as its label names it (the label
// without its tail).
func modelHead(col ov.Column) string {
	return strings.TrimSpace(strings.TrimSuffix(col.Label, col.Tail))
}

// taskText is a row's task cell: indented by depth, a group marked
// folded (▸) or not (▾).
func (s *Sheet) taskText(r int) string {
	row := s.table.Rows[r]
	mark := "  "
	if row.Group {
		mark = "▾ "
		if s.view.Folded[r] && s.view.Filter == "" {
			mark = "▸ "
		}
	}
	return strings.Repeat("  ", row.Depth) + mark + text.OneLine(row.Task)
}

// layout fits the columns to the width: the task and metric columns,
// the delta, and as many models as fit around the one under the cursor.
// A wide sheet shows whole metric names and column labels; a narrow one
// shortens the metric column, then drops it (the line under the rows
// names the cell's metric), then shortens the tasks, so that two model
// columns (the baseline and the one compared) show side by side. When
// every row has the same metric and not every model fits, the metric
// column gives its room to the models.
func (s *Sheet) layout() layout {
	t := s.table
	m := s.measure()
	l := layout{delta: len(t.Columns) > 1, colW: slices.Clone(m.colW), taskW: m.taskW}
	metricNat, metrics := m.metricNat, m.metrics
	wide := slices.Clone(l.colW)
	for c := range t.Columns {
		lw := text.Width(text.OneLine(s.headText(c))) + 2
		l.colW[c] = max(l.colW[c], min(lw, 16), 6)
		wide[c] = max(wide[c], min(lw, 32), 6)
	}
	l.taskW = min(max(l.taskW, 6), max(16, s.w*2/5))
	metricNat = min(max(metricNat, 6), 40)
	l.metricW = min(metricNat, 22)
	fixed := func() int {
		f := 2 + l.taskW + 1
		if l.metricW > 0 {
			f += l.metricW + 1
		}
		if l.delta {
			f += deltaW + 1
		}
		return f
	}
	all := span(wide, 0, len(wide)-1)
	if l.metricW = metricNat; fixed()+all <= s.w {
		l.colW = wide
	} else if l.metricW = min(metricNat, 22); fixed()+all <= s.w {
		l.colW = wide
	}
	if metrics == 1 && fixed()+span(l.colW, 0, len(l.colW)-1) > s.w {
		l.metricW = 0 // one metric for every row: room for more models
	}
	need := 0 // the widest two neighbouring model columns
	for c := range l.colW {
		need = max(need, span(l.colW, c, min(c+1, len(l.colW)-1)))
	}
	for l.metricW > 10 && s.w-fixed() < need {
		l.metricW--
	}
	if s.w-fixed() < need {
		l.metricW = 0
	}
	if s.w-fixed() < need {
		l.taskW = max(min(l.taskW, 12), l.taskW-(need-(s.w-fixed())))
	}
	if len(l.colW) > 0 && s.w-fixed() < l.colW[0]+1 {
		l.taskW = max(8, l.taskW-(l.colW[0]+1-(s.w-fixed())))
	}
	room := s.w - fixed()
	cur := s.column()
	if cur < 0 {
		cur = s.view.Compared
	}
	l.first = 0
	for l.first < cur && span(l.colW, l.first, cur) > room {
		l.first++
	}
	l.last = l.first - 1
	for l.last+1 < len(l.colW) && span(l.colW, l.first, l.last+1) <= room {
		l.last++
	}
	return l
}

// measures are the widths the rows shown need: the task column, the
// metric's, each model column's values; how many metrics the rows have.
type measures struct {
	taskW, metricNat, metrics int
	colW                      []int
}

// measure measures the rows shown once for every frame until they
// change (relist, the stderr switch): a table of 200 runs shown run by
// run has 14,000 cells, too many to write out again for every key.
func (s *Sheet) measure() *measures {
	if s.meas != nil {
		return s.meas
	}
	t := s.table
	m := &measures{colW: make([]int, len(t.Columns))}
	metrics := map[string]bool{}
	for _, r := range s.rows {
		m.taskW = max(m.taskW, text.Width(s.taskText(r)))
		m.metricNat = max(m.metricNat, text.Width(text.OneLine(t.Rows[r].Metric)))
		metrics[t.Rows[r].Metric] = true
		for c, cell := range t.Rows[r].Cells {
			m.colW[c] = max(m.colW[c], text.Width(cell.ValueText(s.stderr)))
		}
	}
	m.metrics = len(metrics)
	s.meas = m
	return m
}

// span is the width of columns a..b with their separators.
func span(w []int, a, b int) int {
	n := 0
	for i := a; i <= b && i < len(w); i++ {
		n += w[i] + 1
	}
	return n
}

// View renders the sheet.
func (s *Sheet) View() string {
	if s.w <= 0 || s.h <= 0 {
		return ""
	}
	l := s.layout()
	s.drawn = l
	lines := []string{s.titleLine(l)}
	if s.grouped() {
		lines = append(lines, s.modelLine(l))
	}
	lines = append(lines, s.headingLine(l))
	n := s.listRows()
	s.offset = ui.KeepInView(s.cursor, s.offset, n, len(s.rows))
	st := s.c.Styles
	if len(s.rows) == 0 {
		msg := "  No tasks."
		if s.filter.Value() != "" {
			msg = "  No task matches " + strconv.Quote(s.filter.Value()) + " (esc clears the filter)."
		}
		lines = append(lines, st.List.Empty.Render(text.OneLine(msg)))
	}
	for i := s.offset; i < len(s.rows) && i < s.offset+n; i++ {
		lines = append(lines, s.rowLine(l, s.rows[i], i == s.cursor))
	}
	for len(lines) < 2+s.headLines()+n {
		lines = append(lines, "")
	}
	lines = append(lines, s.footer(l)...)
	return ui.FitLines(lines, s.w, s.h)
}

// headingLine heads the columns; the one under the cursor is in [ ].
func (s *Sheet) headingLine(l layout) string {
	st := s.c.Styles
	head := func(label string, w int, here bool) string {
		label = text.OneLine(label)
		if here {
			return text.PadLeft("["+text.TruncateMiddle(label, max(1, w-2))+"]", w)
		}
		return text.PadLeft(text.TruncateMiddle(label, w), w)
	}
	colHead := func(c int, w int, here bool) string {
		col := s.table.Columns[c]
		if col.Tail == "" {
			return head(col.Label, w, here)
		}
		label := text.OneLine(s.headText(c))
		if here {
			return text.PadLeft("["+keepTail(label, max(1, w-2))+"]", w)
		}
		return text.PadLeft(keepTail(label, w), w)
	}
	taskHead := "task"
	if s.pos == 0 {
		taskHead = "[task]"
	}
	line := "  " + text.Pad(taskHead, l.taskW) + " "
	if l.metricW > 0 {
		line += text.Pad("metric", l.metricW) + " "
	}
	if l.delta {
		line += head("Δ", deltaW, s.pos == 1) + " "
	}
	for c := l.first; c <= l.last; c++ {
		line += colHead(c, l.colW[c], c == s.column()) + " "
	}
	return st.Detail.TableHeader.Render(text.Truncate(line, s.w))
}

// modelLine names the models over their columns (grouped): a model of
// several columns over all of them ("rwkv7-1.5B-world ─────"), a model
// of one column left to its heading.
func (s *Sheet) modelLine(l layout) string {
	st := s.c.Styles
	t := s.table
	w := 2 + l.taskW + 1
	if l.metricW > 0 {
		w += l.metricW + 1
	}
	if l.delta {
		w += deltaW + 1
	}
	line := strings.Repeat(" ", w)
	for c := l.first; c <= l.last; {
		m := t.Columns[c].Model
		end := c
		for end+1 <= l.last && t.Columns[end+1].Model == m {
			end++
		}
		span := -1
		for i := c; i <= end; i++ {
			span += l.colW[i] + 1
		}
		name := ""
		if t.Columns[c].Tail != "" {
			name = text.OneLine(modelHead(t.Columns[c]))
			if name == "" {
				name = "model unknown"
			}
		}
		cell := ""
		if name != "" {
			cell = text.TruncateMiddle(name, span)
			if rest := span - text.Width(cell); rest >= 2 {
				cell += " " + strings.Repeat("─", rest-1)
			}
		}
		line += text.Pad(cell, span) + " "
		c = end + 1
	}
	return st.Detail.Subheading.Render(text.Truncate(line, s.w))
}

// rowLine renders one task row: values coloured by their change against
// the baseline.
func (s *Sheet) rowLine(l layout, r int, cursor bool) string {
	st := s.c.Styles
	row := s.table.Rows[r]
	mark := "  "
	if cursor {
		mark = "▸ "
	}
	line := mark + text.Pad(text.Truncate(s.taskText(r), l.taskW), l.taskW) + " "
	if l.metricW > 0 {
		line += st.Detail.Subtle.Render(text.Pad(text.TruncateMiddle(text.OneLine(row.Metric), l.metricW), l.metricW)) + " "
	}
	if l.delta {
		d, ok := s.table.Delta(r, s.view.Compared, s.view.Baseline)
		cell := "–"
		if ok {
			cell = ov.DeltaText(d)
		}
		line += s.tone(r, s.view.Compared, text.PadLeft(cell, deltaW), cursor) + " "
	}
	for c := l.first; c <= l.last; c++ {
		line += s.tone(r, c, text.PadLeft(row.Cells[c].ValueText(s.stderr), l.colW[c]), cursor) + " "
	}
	line = text.Truncate(line, s.w)
	if cursor {
		return st.List.Cursor.Render(text.Pad(line, s.w))
	}
	return line
}

// tone colours a cell of column c by row r's change against the
// baseline there: better green, worse red; not on the cursor's line,
// which is styled whole.
func (s *Sheet) tone(r, c int, cell string, cursor bool) string {
	if cursor || len(s.table.Columns) < 2 || c == s.view.Baseline {
		return cell
	}
	st := s.c.Styles
	switch s.table.Change(r, c, s.view.Baseline) {
	case 1:
		return st.Status.Pass.Render(cell)
	case -1:
		return st.Status.Fail.Render(cell)
	}
	return cell
}

// footer is the worst task of each column, how many tasks are worse
// than the baseline, and the details of the cell under the cursor.
func (s *Sheet) footer(l layout) []string {
	st := s.c.Styles
	t := s.table
	lead := func(label string) string {
		w := 2 + l.taskW + 1
		if l.metricW > 0 {
			w += l.metricW + 1
		}
		if l.delta {
			w += deltaW + 1
		}
		return st.Detail.Subheading.Render(text.Pad("  "+label, w))
	}
	worst := lead("worst task")
	for c := l.first; c <= l.last; c++ {
		name := "–"
		if r := t.Worst(c); r >= 0 {
			name = text.OneLine(t.Rows[r].Task)
		}
		worst += text.PadLeft(text.TruncateMiddle(name, l.colW[c]), l.colW[c]) + " "
	}
	out := []string{text.Truncate(worst, s.w)}
	if len(t.Columns) > 1 {
		worse := lead("worse than " + text.OneLine(t.Columns[s.view.Baseline].Label))
		for c := l.first; c <= l.last; c++ {
			n := "baseline"
			if c != s.view.Baseline {
				n = strconv.Itoa(t.Worse(c, s.view.Baseline))
			}
			worse += text.PadLeft(text.TruncateMiddle(n, l.colW[c]), l.colW[c]) + " "
		}
		out = append(out, text.Truncate(worse, s.w))
	}
	return append(out, st.Detail.Subtle.Render(text.Truncate(s.details(), s.w)))
}

// details describes the cell enter opens: the model or run, the task,
// its value as reported beside the recomputed one, or why there is none.
func (s *Sheet) details() string {
	r, c := s.row(), s.target()
	if r < 0 || c < 0 {
		return ""
	}
	t := s.table
	col, cell := t.Columns[c], t.Rows[r].Cells[c]
	out := col.Name()
	if col.Run == "" && col.Runs > 1 {
		out += " (" + strconv.Itoa(col.Runs) + " runs)"
	}
	out += " · " + t.Rows[r].Task
	if n := len(cell.Runs); n > 1 {
		out += " · ran " + strconv.Itoa(n) + " times here, the latest shown (" + s.c.Keys.Overview.Reruns.Help().Key + " lists them)"
	}
	f := cell.Figure
	if cell.HasFigure {
		out += " · " + f.Key() + " " + s.figureText(f, t.Rows[r].Group)
	}
	if cell.Note != "" {
		out += " · " + cell.Note
	}
	if col.Note != "" {
		out += " · " + col.Note
	}
	if c == s.view.Compared {
		if dn := t.DeltaNote(r, c, s.view.Baseline); dn != "" {
			out += " · " + dn
		}
	}
	return text.OneLine(out)
}

// keepTail shortens a label to w cells from its start: the end of a
// column's label is what tells it from the model's other columns
// ("…160m step143000").
func keepTail(label string, w int) string {
	if text.Width(label) <= w {
		return label
	}
	if w <= 1 {
		return text.Truncate(label, w)
	}
	r := []rune(label)
	n, i := 1, len(r) // the ellipsis takes one cell
	for i > 0 && n+text.Width(string(r[i-1])) <= w {
		i--
		n += text.Width(string(r[i]))
	}
	return "…" + string(r[i:])
}

// figureText is a figure's value, stderr, and recomputed value (a
// group's from its subtasks).
func (s *Sheet) figureText(f ov.Figure, group bool) string {
	v := ov.Cell{Figure: f, HasFigure: true}.ValueText(true)
	v = strings.TrimSuffix(v, "≠")
	if f.Reported {
		v += " reported"
	} else {
		v += " computed"
	}
	if f.HasRecomputed && f.Reported {
		v += ", recomputed " + ov.Cell{Figure: ov.Figure{Value: f.Recomputed}, HasFigure: true}.ValueText(false)
		switch {
		case f.N > 0 && group:
			v += " from " + text.Plural(f.N, "subtask")
		case f.N > 0:
			v += " from " + text.Plural(f.N, "row")
		}
		if f.Differs {
			v += " (DIFFERS)"
		}
	}
	return v
}
