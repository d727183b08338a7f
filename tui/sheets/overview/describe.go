package overview

import (
	"strconv"
	"strings"

	"evalview/model"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// Describe says what the overview holds, for the header and the status
// bar: the tasks and columns, the models, the baseline and the column
// compared with it, the sort and the filter; and where the cursors are.
func (s *Sheet) Describe() ui.Description {
	t := s.table
	tasks := 0
	for _, r := range t.Rows {
		if !r.Group {
			tasks++
		}
	}
	d := ui.Description{
		Title: "Overview",
		What:  text.Plural(tasks, "task") + " × " + text.Plural(len(t.Columns), "column") + " · " + text.Plural(len(s.dss), "dataset"),
	}
	if len(t.Columns) > 1 {
		d.Facts = append(d.Facts,
			model.Fact{Key: "baseline", Value: text.OneLine(t.Columns[s.view.Baseline].Label)},
			model.Fact{Key: "Δ", Value: text.OneLine(t.Columns[s.view.Compared].Label) + " − " + text.OneLine(t.Columns[s.view.Baseline].Label)})
	}
	if by := s.sortName(); by != "" {
		d.Facts = append(d.Facts, model.Fact{Key: "sorted by", Value: by})
	}
	if f := s.filter.Value(); f != "" {
		d.Facts = append(d.Facts, model.Fact{Key: "filter", Value: strconv.Quote(text.OneLine(f))})
	}
	if h := s.hiddenText(false); h != "" {
		d.Facts = append(d.Facts, model.Fact{Key: "hidden", Value: h})
	}
	var models []string
	seen := map[string]bool{}
	for _, c := range t.Columns {
		if !seen[c.Model] {
			seen[c.Model] = true
			models = append(models, text.OneLine(c.Model))
		}
	}
	if len(models) > 0 {
		key := "model"
		if len(models) > 1 {
			key = strconv.Itoa(len(models)) + " models"
		}
		d.Facts = append(d.Facts, model.Fact{Key: key, Value: strings.Join(models, ", ")})
	}
	if len(s.rows) > 0 {
		d.Pos = "row " + strconv.Itoa(s.cursor+1) + "/" + strconv.Itoa(len(s.rows))
		if r := s.row(); r >= 0 {
			d.Pos += " " + text.OneLine(t.Rows[r].Task)
		}
	}
	col := ""
	switch c := s.column(); {
	case c >= 0:
		col = text.OneLine(t.Columns[c].Label)
	case s.pos == 1 && len(t.Columns) > 1:
		col = "Δ"
	}
	if d.Pos != "" && col != "" {
		d.Pos += " · "
	}
	d.Pos += col
	return d
}
