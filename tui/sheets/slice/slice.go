// Package slice is the slices sheet (V): the records grouped by a field
// (agreement class, status or any label: subject, category, level...),
// with the count and each filter's pass rate (or mean score) per slice;
// under it, for datasets with filters, the frequency tables of the
// extracted answers (selected filter) and of the targets. Enter on any
// row pins the list to its records.
package slice

import (
	"sort"
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/compare"
	"evalview/model/query"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// Sheet groups one dataset's records.
type Sheet struct {
	c      *ui.Common
	ds     *model.Dataset
	filter int
	// threshold is the one a scored dataset's statuses are read at (nil:
	// as loaded).
	threshold *float64
	fields    []string
	field     int
	items     []sliceItem
	// nSlices, nAnswers count the items of the first two tables.
	nSlices, nAnswers int
	cursor            int
	scroll            ui.Scroll
	// hits are the rows' lines in the content, for clicks.
	hits ui.Rows
}

// sliceItem is a row the cursor can choose: its cells and its records.
type sliceItem struct {
	label string
	cells []string
	rows  []int
}

// maxFreqRows caps each frequency table.
const maxFreqRows = 15

// New opens the slices of ds under filter (an index of ds.Filters, -1
// for none), grouped by the first field that tells records apart; a
// scored dataset's statuses are read at threshold (nil: as loaded), the
// list's.
func New(c *ui.Common, ds *model.Dataset, filter int, threshold *float64) *Sheet {
	s := &Sheet{c: c, ds: ds, filter: filter, fields: sliceFields(ds), threshold: threshold}
	// Like facets: open on a field that tells records apart (a testset's
	// kind, not its status when nothing is scored).
	s.field = query.StartField(s.fields, func(f string) int { return len(compare.SlicesAt(ds, f, nil, threshold)) })
	s.recount()
	return s
}

// sliceFields lists what ds can be grouped by: agreement (two filters or
// more), status, then every label key seen in the first records.
func sliceFields(ds *model.Dataset) []string {
	var out []string
	if len(ds.Filters) > 1 {
		out = append(out, compare.FieldAgreement)
	}
	out = append(out, compare.FieldStatus)
	seen := map[string]bool{}
	var labels []string
	for i := 0; i < min(ds.Records.Len(), 2000); i++ {
		for k := range ds.Records.Summary(i).Labels.All() {
			if !seen[k] && k != compare.TargetLabel {
				seen[k] = true
				labels = append(labels, k)
			}
		}
	}
	sort.Strings(labels)
	return append(out, labels...)
}

// recount rebuilds the rows for the chosen field.
func (s *Sheet) recount() {
	s.items = s.items[:0]
	for _, sl := range compare.SlicesAt(s.ds, s.fields[s.field], nil, s.threshold) {
		cells := []string{text.OneLine(sl.Value), strconv.Itoa(sl.Count)}
		for _, pm := range sl.PerFilter {
			switch {
			case pm.Pass+pm.Fail > 0:
				cells = append(cells, strconv.FormatFloat(100*pm.PassRate(), 'f', 1, 64)+"%")
			case pm.Scored > 0 && len(s.ds.Filters) > 0:
				cells = append(cells, text.FormatScore(pm.Mean))
			default:
				cells = append(cells, "–")
			}
			if len(s.ds.Filters) == 0 { // one "filter": its mean score too
				cells = append(cells, meanCell(pm))
			}
		}
		s.items = append(s.items, sliceItem{label: s.fields[s.field] + "=" + text.OneLine(sl.Value), cells: cells, rows: sl.Rows})
	}
	s.nSlices = len(s.items)
	s.nAnswers = 0
	if len(s.ds.Filters) == 0 { // answers are a filter's: none to count
		s.cursor = min(s.cursor, len(s.items)-1)
		return
	}
	fi := max(0, s.filter)
	answers := compare.Answers(s.ds, fi, nil)
	for _, f := range answers[:min(len(answers), maxFreqRows)] {
		s.items = append(s.items, sliceItem{label: "answer=" + text.OneLine(f.Value), cells: freqCells(f), rows: s.rowsWhere(func(sm model.Summary) bool {
			o := sm.Outcome(fi)
			return o.Present && o.Answer == f.Value
		})})
		s.nAnswers++
	}
	targets := compare.Targets(s.ds, fi, nil)
	for _, f := range targets[:min(len(targets), maxFreqRows)] {
		s.items = append(s.items, sliceItem{label: "target=" + text.OneLine(f.Value), cells: freqCells(f), rows: s.rowsWhere(func(sm model.Summary) bool {
			v, ok := sm.Labels.Lookup(compare.TargetLabel)
			return ok && v == f.Value
		})})
	}
	s.cursor = min(s.cursor, len(s.items)-1)
}

// meanCell is a slice's mean score, "–" without a scored record.
func meanCell(pm compare.SliceMetric) string {
	if pm.Scored == 0 {
		return "–"
	}
	return text.FormatScore(pm.Mean)
}

// freqCells are a frequency row's cells: value, count, right.
func freqCells(f compare.Freq) []string {
	return []string{text.OneLine(f.Value), strconv.Itoa(f.Count), strconv.Itoa(f.Pass)}
}

// rowsWhere lists the records whose summary satisfies keep.
func (s *Sheet) rowsWhere(keep func(model.Summary) bool) []int {
	var out []int
	for i := 0; i < s.ds.Records.Len(); i++ {
		if keep(s.ds.Records.Summary(i)) {
			out = append(out, i)
		}
	}
	return out
}

// Title names the sheet.
func (s *Sheet) Title() string { return "slices" }

// SetSize sets the body rectangle.
func (s *Sheet) SetSize(w, h int) { s.scroll.W, s.scroll.H = w, h }

// Update moves the cursor, changes the grouping, pins the list.
func (s *Sheet) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	cmd, _, _ := ui.Run(s.Actions(), k)
	return cmd
}

// Actions are the sheet's keys: the grouping, the cursor over its
// slices, and enter pinning the list to the slice under it.
func (s *Sheet) Actions() []ui.Action {
	km := s.c.Keys
	c := &km.Compare
	acts := []ui.Action{ui.OnLine(&km.Nav.Down, ""), ui.OnLine(&km.Nav.Up, ""),
		{Binding: &c.Field, Do: func() tea.Cmd {
			s.field = (s.field + 1) % len(s.fields)
			s.cursor = 0
			s.recount()
			return nil
		}, Line: true},
		{Binding: &c.Choose, When: func() bool { return s.cursor >= 0 && s.cursor < len(s.items) }, Do: func() tea.Cmd {
			it := s.items[s.cursor]
			return ui.Done(s, ui.PinMsg{Label: it.label, Rows: it.rows})
		}, Line: true},
		{Binding: &c.Close, Do: func() tea.Cmd { return ui.Done(s, nil) }, Line: true, Help: s.c.Back()},
		ui.OnLine(&km.Global.Help, ""),
	}
	n := func() int { return len(s.items) }
	return append(acts, ui.CursorActions(&km.Nav, &s.cursor, n, func() int { return s.scroll.H / 2 }, nil)...)
}

// ShortHelp lists the sheet's keys for the help line.
func (s *Sheet) ShortHelp() []key.Binding { return ui.ShortHelp(s.Actions()) }

// FullHelp lists the sheet's keys for the `?` overlay.
func (s *Sheet) FullHelp() [][]key.Binding {
	k := s.c.Keys
	return [][]key.Binding{{k.Compare.Field, k.Compare.Choose, k.Compare.Close}}
}

// View renders the body rectangle.
func (s *Sheet) View() string {
	st := s.c.Styles
	var lines []string
	add := func(l ...string) { lines = append(lines, l...) }
	cursorLine := 0
	s.hits.Reset()
	field := text.OneLine(s.fields[s.field])
	add(st.Detail.Heading.Render("Slices · "+text.OneLine(s.ds.Title))+st.Detail.Subtle.Render("  by ")+
		st.Detail.Selected.Render(field)+st.Detail.Subtle.Render(" (s: next of "+strconv.Itoa(len(s.fields))+")"), "")
	cols := []string{field, "count"}
	if len(s.ds.Filters) == 0 {
		// The pass rate (pass of pass and fail) and the mean score: a
		// rate under a "mean" heading read as a score.
		cols = append(cols, "✓ rate", "mean")
	}
	for _, f := range s.ds.Filters {
		cols = append(cols, text.OneLine(f)+" ✓")
	}
	table := func(cols []string, items []sliceItem, base int) {
		rows := make([][]string, len(items))
		right := map[int]bool{}
		for i := 1; i < len(cols); i++ {
			right[i] = true
		}
		for i, it := range items {
			rows[i] = it.cells
		}
		tl := ui.Table(st, append([]string{"  " + cols[0]}, cols[1:]...), prefixRows(rows, base, s.cursor), right, func(r, c int, cell string) string {
			if base+r == s.cursor {
				return st.List.Cursor.Render(cell)
			}
			return cell
		}, s.scroll.W)
		if s.cursor >= base && s.cursor < base+len(items) {
			cursorLine = len(lines) + 1 + s.cursor - base
		}
		for r := range items {
			s.hits.Set(len(lines)+1+r, base+r)
		}
		add(tl...)
	}
	table(cols, s.items[:s.nSlices], 0)
	if len(s.items) > s.nSlices {
		fname := "the filter"
		if s.filter >= 0 && s.filter < len(s.ds.Filters) {
			fname = text.OneLine(s.ds.Filters[s.filter])
		}
		add("", st.Detail.Subheading.Render("Extracted answers under "+fname))
		table([]string{"answer", "docs", "right"}, s.items[s.nSlices:s.nSlices+s.nAnswers], s.nSlices)
		if rest := s.items[s.nSlices+s.nAnswers:]; len(rest) > 0 {
			add("", st.Detail.Subheading.Render("Targets"))
			table([]string{"target", "docs", "right"}, rest, s.nSlices+s.nAnswers)
		}
	}
	add("", st.Detail.Subtle.Render("enter shows the records of the chosen row in the list; esc in the list shows all again"))
	return s.scroll.Render(lines, cursorLine)
}

// prefixRows puts the cursor mark before the first cell of each row.
func prefixRows(rows [][]string, base, cursor int) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		mark := "  "
		if base+i == cursor {
			mark = "▸ "
		}
		out[i] = append([]string{mark + firstCell(r)}, r[min(1, len(r)):]...)
	}
	return out
}

func firstCell(r []string) string {
	if len(r) == 0 {
		return ""
	}
	return r[0]
}

// Field is the field the records are grouped by.
func (s *Sheet) Field() string { return s.fields[s.field] }

// Click moves the cursor to the row clicked; a second click shows its
// records in the list (as enter).
func (s *Sheet) Click(_, y int) tea.Cmd {
	if row, ok := s.hits.At(y + s.scroll.Offset); ok {
		return ui.ClickRow(&s.cursor, row, func() tea.Cmd { return ui.Do(s.Actions(), &s.c.Keys.Compare.Choose) })
	}
	return nil
}

// Wheel moves the cursor by delta rows.
func (s *Sheet) Wheel(delta int) { ui.WheelCursor(&s.cursor, delta, len(s.items)) }
