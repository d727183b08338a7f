package content

import (
	"strconv"
	"strings"

	"evalview/model"
	"evalview/tui/text"
)

// filters renders the target and the filters side by side, one table row
// per filter: the logged answer (highlighted and marked ≠ where it differs
// from the other filters'), evalview's re-extraction when it has one, the
// metric values, the fraction of repeats right, and whether it matches the
// target. Vote histograms of the repeats follow (votes.go).
func (b *builder) filters(ds *model.Dataset, rec *model.Record) {
	if rec.Target != "" {
		b.kv("Target", rec.Target, 0)
		b.blank()
	}
	selected := ""
	if ds != nil && b.o.Filter >= 0 && b.o.Filter < len(ds.Filters) {
		selected = ds.Filters[b.o.Filter]
	}
	var metrics []string
	seen := map[string]bool{}
	for _, f := range rec.Filters {
		for _, m := range f.Metrics {
			if !seen[m.Name] {
				seen[m.Name] = true
				metrics = append(metrics, m.Name)
			}
		}
	}
	// Values that are not one number (f1's [gold, pred], a perplexity's
	// [loglikelihood, words]) have columns of their own after the numbers.
	var values []string
	for _, f := range rec.Filters {
		for _, v := range f.Values {
			if !seen[v.Name] {
				seen[v.Name] = true
				values = append(values, v.Name)
			}
		}
	}
	var long []longValue
	side := sideBySide(rec)
	// A task scored by its own code shows what that code compared, as
	// the loader puts it on the row, not the whole response it read.
	compared := false
	for _, f := range rec.Filters {
		compared = compared || f.Compared != ""
	}
	cols := []string{"", "filter", "answer"}
	if compared {
		cols[2] = "compared"
	}
	if side.extracted {
		cols = append(cols, "re-extracted")
	}
	firstMetric := len(cols)
	cols = append(cols, metrics...)
	cols = append(cols, values...)
	if side.repeats {
		cols = append(cols, "repeats ✓")
	}
	cols = append(cols, "", "")
	rows := make([][]string, 0, len(rec.Filters))
	for i, f := range rec.Filters {
		mark := " "
		if f.Filter == selected {
			mark = "▸"
		}
		row := []string{mark, f.Filter, oneLineAnswer(shownAnswer(f, compared))}
		if side.extracted {
			row = append(row, side.rows[i].extracted)
		}
		for _, name := range metrics {
			if v, ok := f.Metric(name); ok {
				row = append(row, text.FormatScore(v))
			} else {
				row = append(row, "–")
			}
		}
		for _, name := range values {
			v, ok := rowValue(f, name)
			cell := text.OneLine(v)
			switch {
			case !ok:
				cell = "–"
			case text.Width(cell) > maxValueCell:
				cell = text.Truncate(cell, maxValueCell)
				long = append(long, longValue{f.Filter + " " + name, v})
			}
			row = append(row, cell)
		}
		if side.repeats {
			row = append(row, side.rows[i].repeats)
		}
		differs := ""
		if side.rows[i].differs {
			differs = "≠"
		}
		rows = append(rows, append(row, Glyph(f.Status), differs))
	}
	t := table{cols: cols, rows: rows, flex: 2, rightAlign: map[int]bool{}, watch: map[int]bool{2: true}}
	if side.extracted {
		t.watch[3] = true
	}
	for i := range metrics {
		t.rightAlign[firstMetric+i] = true
	}
	if side.repeats {
		t.rightAlign[firstMetric+len(metrics)] = true
	}
	t.rowStyle = func(r int, cell int, s string) string {
		f := rec.Filters[r]
		switch {
		case cell == len(cols)-2:
			return render(b.st.Outcome(f.Status), s)
		case cell == len(cols)-1 || (cell == 2 && side.rows[r].differs):
			return render(b.st.Detail.Match, s)
		case cell == 3 && side.extracted && side.rows[r].mismatch:
			return render(b.st.Issue.Warning, s)
		case f.Filter == selected:
			return render(b.st.Detail.Selected, s)
		}
		return s
	}
	cut := b.table(t)
	basis := ""
	if ds != nil {
		basis = ds.StatusBasis
	}
	b.filterLegend(selected != "", side, basis, compared)
	// Answers the table had to cut, or that have several elements, in full.
	var full []model.FilterResult
	for i, f := range rec.Filters {
		shown := shownAnswer(f, compared)
		if cut[i] || (!compared && len(f.Answers) > 1) || strings.Contains(shown, "\n") {
			full = append(full, f)
		}
	}
	if len(full) > 0 {
		b.blank()
		if compared {
			b.heading("Compared in full")
		} else {
			b.heading("Answers in full")
		}
		for _, f := range full {
			ans := shownAnswer(f, compared)
			if !compared && len(f.Answers) > 1 {
				ans = strings.Join(f.Answers, "\n")
			}
			b.kv(f.Filter, ans, 2)
		}
	}
	if len(long) > 0 {
		b.blank()
		b.heading("Values in full")
		for _, v := range long {
			b.kv(v.key, v.text, 2)
		}
	}
	b.extractionNotes(rec)
	b.votes(rec, selected)
	if line := filterLines(rec.Filters); line != "" {
		b.blank()
		b.para(line, b.st.Detail.Subtle, 0)
	}
}

// maxValueCell is the widest a row value's cell gets; longer values
// (bleu's [reference, prediction]) follow the table in full.
const maxValueCell = 24

// longValue is a row value cut in the table, shown in full under it.
type longValue struct{ key, text string }

// rowValue is the text of f's non-numeric value name.
func rowValue(f model.FilterResult, name string) (string, bool) {
	for _, v := range f.Values {
		if v.Name == name {
			return v.Text, true
		}
	}
	return "", false
}

// shownAnswer is what the answer column shows of f: what the task
// compared when the table shows that (a row without it: "–").
func shownAnswer(f model.FilterResult, compared bool) string {
	switch {
	case !compared:
		return f.Answer
	case f.Compared == "":
		return "–"
	}
	return f.Compared
}

// oneLineAnswer shows an answer in one table cell.
func oneLineAnswer(s string) string {
	if s == "" {
		return `""`
	}
	return text.OneLine(s)
}

// filterLines names the samples lines the filter rows come from.
func filterLines(fs []model.FilterResult) string {
	var parts []string
	for _, f := range fs {
		if f.Line > 0 {
			parts = append(parts, text.OneLine(f.Filter)+" line "+strconv.Itoa(f.Line))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "rows: " + strings.Join(parts, ", ")
}

// table is a simple text table to lay out within the width.
type table struct {
	cols []string
	rows [][]string
	// flex is the column that shrinks first when the table is too wide;
	// -1 shrinks the widest column.
	flex       int
	rightAlign map[int]bool
	// watch lists the columns whose cutting is reported; nil watches all.
	watch map[int]bool
	// rowStyle styles a cell's padded text; nil leaves it plain.
	rowStyle func(row, col int, s string) string
}

// minCol is the narrowest a shrunk column gets.
const minCol = 6

// cellWidths returns the width of each column: its widest cell, heading
// included, each shown on one line. Cells beyond the columns are ignored.
func cellWidths(cols []string, rows [][]string) []int {
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = text.Width(text.OneLine(c))
	}
	for _, r := range rows {
		for i := 0; i < len(cols) && i < len(r); i++ {
			widths[i] = max(widths[i], text.Width(text.OneLine(r[i])))
		}
	}
	return widths
}

// table writes t and reports, per row, whether a cell was cut. When even
// shrunk columns do not fit, each row is written as a block instead.
func (b *builder) table(t table) []bool {
	n := len(t.cols)
	widths := cellWidths(t.cols, t.rows)
	gaps := 0
	for i := range widths {
		if widths[i] > 0 && i < n-1 {
			gaps++
		}
	}
	total := func() int {
		s := gaps
		for _, w := range widths {
			s += w
		}
		return s
	}
	for total() > b.w {
		i := t.flex
		if i < 0 || widths[i] <= minCol {
			i = widest(widths)
		}
		if widths[i] <= minCol {
			return b.tableBlocks(t)
		}
		widths[i] = max(minCol, widths[i]-(total()-b.w))
	}
	cut := make([]bool, len(t.rows))
	line := func(cells []string, row int, header bool) {
		var parts []string
		for i := 0; i < n; i++ {
			if widths[i] == 0 {
				continue
			}
			c := ""
			if i < len(cells) {
				c = text.OneLine(cells[i])
			}
			if row >= 0 && text.Width(c) > widths[i] && (t.watch == nil || t.watch[i]) {
				cut[row] = true
			}
			if t.rightAlign[i] {
				c = text.PadLeft(c, widths[i])
			} else {
				c = text.Pad(c, widths[i])
			}
			switch {
			case header:
				c = render(b.st.Detail.TableHeader, c)
			case t.rowStyle != nil:
				c = t.rowStyle(row, i, c)
			}
			parts = append(parts, c)
		}
		b.add(strings.TrimRight(strings.Join(parts, " "), " "))
	}
	line(t.cols, -1, true)
	for r, cells := range t.rows {
		line(cells, r, false)
	}
	return cut
}

func widest(ws []int) int {
	best := 0
	for i, w := range ws {
		if w > ws[best] {
			best = i
		}
	}
	return best
}

// tableBlocks writes each row as "column: value" lines, for tables that
// cannot fit side by side.
func (b *builder) tableBlocks(t table) []bool {
	for r, cells := range t.rows {
		if r > 0 {
			b.blank()
		}
		for i, c := range cells {
			name := ""
			if i < len(t.cols) {
				name = strings.TrimSpace(t.cols[i])
			}
			if name == "" {
				if strings.TrimSpace(c) != "" {
					b.para(c, b.st.Detail.Subheading, 0)
				}
				continue
			}
			b.kv(name, c, 2)
		}
	}
	return make([]bool, len(t.rows))
}

// filterLegend says what the table's marks mean, those it shows.
func (b *builder) filterLegend(selected bool, side side, basis string, compared bool) {
	var parts []string
	if selected {
		parts = append(parts, "▸ the list's filter (f)")
	}
	if basis == "" {
		basis = "against the target"
	} else {
		basis = "by " + basis
	}
	parts = append(parts, Glyph(model.StatusPass)+" "+Glyph(model.StatusFail)+" "+basis)
	differs := false
	mismatch := false
	for _, r := range side.rows {
		differs = differs || r.differs
		mismatch = mismatch || r.mismatch
	}
	if differs {
		parts = append(parts, "≠ differs from the other filters")
	}
	if compared {
		parts = append(parts, "compared: what the task's own code took from the response (below)")
	}
	if side.extracted {
		parts = append(parts, "re-extracted: by evalview")
		if mismatch {
			parts[len(parts)-1] += ", marked where not as logged"
		}
	}
	if side.repeats {
		parts = append(parts, "repeats ✓: repeats right")
	}
	b.para(strings.Join(parts, " · "), b.st.Detail.Subtle, 0)
}
