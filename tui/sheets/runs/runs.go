// Package runs compares one task across N runs (models or checkpoints
// in order, C in the overview; or the runs of one cell, oldest first, r
// in the overview): each run's value, per doc a row of glyphs saying
// which runs got it right, the docs that flipped between neighbouring
// runs, and the N x N agreement counts (compare.Many). Enter shows the
// doc in the run under the column cursor.
package runs

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/compare"
	"evalview/tui/content"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// Run is one of the runs compared: its dataset, its column's label, and
// its filter (an index of its Filters; -1 reads each record's status).
type Run struct {
	Dataset *model.Dataset
	Label   string
	Filter  int
	// Value is the run's value of the task as the overview shows it.
	Value string
	// NoDocs marks a run whose dataset holds no records of the task (a
	// results file alone, whose records are its tasks): it has a value
	// and no doc to compare. Record is then the record that shows the
	// task in it, which enter opens.
	NoDocs bool
	Record int
}

// Sheet compares a task's runs.
type Sheet struct {
	c    *ui.Common
	task string
	// of names the column whose runs these are, "" for runs of several
	// columns (C).
	of    string
	runs  []Run
	table compare.ManyTable
	// all lists every doc, not only those that flipped.
	all    bool
	docs   []int
	cursor int
	offset int
	// col is the run enter shows the doc in, the agreement table's row
	// and column under the cursor.
	col int
	// rowOff and colOff are the first run the agreement table shows as a
	// row and as a column, when it is longer or wider than the body: the
	// table scrolls to keep col in view.
	rowOff, colOff int
	w, h           int
	// hits are the docs' lines and runHits the runs' (the values table),
	// glyphX and glyphW where the runs' glyph columns start and how
	// wide each is, for clicks.
	hits, runHits  ui.Rows
	glyphX, glyphW int
}

// New compares runs (two or more) of task.
func New(c *ui.Common, task string, runs []Run) *Sheet {
	dss := make([]*model.Dataset, len(runs))
	fs := make([]int, len(runs))
	none := &model.Dataset{Records: model.NewMemIndex(nil)}
	for i, r := range runs {
		dss[i], fs[i] = r.Dataset, r.Filter
		if r.NoDocs {
			dss[i] = none
		}
	}
	s := &Sheet{c: c, task: task, runs: runs, table: compare.Many(dss, fs)}
	s.relist()
	return s
}

// NewReruns lists the runs of task in the overview's column of (one
// configuration of a model), oldest first.
func NewReruns(c *ui.Common, task, of string, runs []Run) *Sheet {
	s := New(c, task, runs)
	s.of = of
	return s
}

// relist picks the docs shown: those that flipped between neighbours,
// or all of them.
func (s *Sheet) relist() {
	s.docs = s.docs[:0]
	for i, d := range s.table.Docs {
		if s.all || d.Flips > 0 {
			s.docs = append(s.docs, i)
		}
	}
	s.cursor, s.offset = 0, 0
}

// Title names the sheet in the status bar.
func (s *Sheet) Title() string {
	if s.of != "" {
		return "runs of a cell"
	}
	return "compare " + strconv.Itoa(len(s.runs)) + " runs"
}

// SetSize sets the body rectangle.
func (s *Sheet) SetSize(w, h int) { s.w, s.h = w, h }

// Table is the comparison shown.
func (s *Sheet) Table() compare.ManyTable { return s.table }

// Update moves the cursors, switches the docs listed, shows a doc.
func (s *Sheet) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	cmd, _, _ := ui.Run(s.Actions(), k)
	return cmd
}

// Actions are the sheet's keys: the run enter opens (which the table
// scrolls to), the flipped docs only or all, the cursor over the docs.
func (s *Sheet) Actions() []ui.Action {
	km := s.c.Keys
	r := &km.Runs
	do := func(f func()) func() tea.Cmd { return func() tea.Cmd { f(); return nil } }
	acts := []ui.Action{ui.OnLine(&km.Nav.Down, ""), ui.OnLine(&km.Nav.Up, ""),
		// Short on the line: esc, where it goes, fits 100 columns.
		{Binding: &r.Right, Do: do(func() { s.col = min(len(s.runs)-1, s.col+1) }), Line: true, Help: "next run"},
		{Binding: &r.Left, Do: do(func() { s.col = max(0, s.col-1) }), Line: true, Help: "previous run"},
		{Binding: &r.Choose, Do: s.choose, Line: true},
		{Binding: &r.Close, Do: func() tea.Cmd { return ui.Done(s, nil) }, Line: true, Help: s.c.Back()},
		{Binding: &r.Flips, Do: do(func() { s.all = !s.all; s.relist() }), Line: true},
		ui.OnLine(&km.Global.Help, ""),
		{Binding: &km.Global.Quit, Do: func() tea.Cmd { return tea.Quit }},
	}
	n := func() int { return len(s.docs) }
	return append(acts, ui.CursorActions(&km.Nav, &s.cursor, n, s.listRows, nil)...)
}

// choose shows the doc under the cursor in the run chosen (enter).
func (s *Sheet) choose() tea.Cmd {
	if r := s.runs[s.col]; r.NoDocs && (s.allNoDocs() || s.cursor >= len(s.docs)) {
		return ui.Send(ui.OpenMsg{Dataset: r.Dataset, Record: r.Record})
	}
	if s.cursor >= len(s.docs) {
		return nil
	}
	d := s.table.Docs[s.docs[s.cursor]]
	if s.runs[s.col].NoDocs {
		return ui.Send(ui.NoteMsg{Text: "run " + strconv.Itoa(s.col+1) + " (" + text.OneLine(s.runs[s.col].Label) + ") has no records of this task here: its file reports figures only"})
	}
	if d.Recs[s.col] < 0 {
		return ui.Send(ui.NoteMsg{Text: "doc " + text.OneLine(d.Key) + " is not in run " + strconv.Itoa(s.col+1) + " (" + text.OneLine(s.runs[s.col].Label) + ")"})
	}
	return ui.Send(ui.OpenMsg{Dataset: s.runs[s.col].Dataset, Record: d.Recs[s.col]})
}

// ShortHelp lists the sheet's keys for the help line.
func (s *Sheet) ShortHelp() []key.Binding { return ui.ShortHelp(s.Actions()) }

// FullHelp lists the sheet's keys for the `?` overlay.
func (s *Sheet) FullHelp() [][]key.Binding {
	km := s.c.Keys
	return [][]key.Binding{{km.Runs.Left, km.Runs.Right, km.Runs.Flips, km.Runs.Choose, km.Runs.Close}}
}

// head renders the lines above the doc list: one table of the runs, each
// with its right answers, the docs it flipped against the run above, and
// its agreement counts with every run (the N x N matrix). A table longer
// or wider than the body shows a window of rows and of columns that
// follows the run cursor (h/l), and says which runs it shows.
func (s *Sheet) head() []string {
	st := s.c.Styles
	t := s.table
	n := len(s.runs)
	flipped := 0
	for _, d := range t.Docs {
		if d.Flips > 0 {
			flipped++
		}
	}
	heading, what := "Compare runs", text.OneLine(s.task)+" · "+strconv.Itoa(n)+" runs"
	if s.of != "" {
		heading, what = "Runs", strconv.Itoa(n)+" runs of "+text.OneLine(s.task)+", oldest first · in "+text.OneLine(s.of)
	}
	if !s.allNoDocs() {
		what += " · " + text.Plural(len(t.Docs), "doc") + " · " + strconv.Itoa(flipped) + " flipped between neighbouring runs"
	}
	out := []string{st.Detail.Heading.Render(heading) + "  " + st.Detail.Subtle.Render(what)}
	right := func(i int) string { return strconv.Itoa(t.Right[i]) + "/" + strconv.Itoa(t.Scored[i]) }
	flips := func(i int) string {
		if i == 0 || i-1 >= len(t.Flips) {
			return "–"
		}
		return strconv.Itoa(t.Flips[i-1])
	}
	cell := func(i, j int) string {
		if i == j {
			return "–"
		}
		return strconv.Itoa(t.Agree[i][j]) + "/" + strconv.Itoa(t.Placed[i][j])
	}
	numW, labelW, valueW, rightW, flipsW, cellW := len(strconv.Itoa(n)), len("run"), 0, len("right"), len("flips"), 3
	for i, r := range s.runs {
		labelW = max(labelW, text.Width(text.OneLine(r.Label)))
		if r.Value != "" {
			valueW = max(valueW, len("value"), text.Width(text.OneLine(r.Value)))
		}
		rightW = max(rightW, len(right(i)))
		flipsW = max(flipsW, len(flips(i)))
		for j := range n {
			cellW = max(cellW, len(cell(i, j)), len(strconv.Itoa(j+1)))
		}
	}
	labelW = min(labelW, max(8, s.w/4))
	if s.allNoDocs() {
		return s.valuesHead(out, numW, labelW, valueW)
	}
	valueCol := func(v string) string {
		if valueW == 0 {
			return ""
		}
		return text.PadLeft(text.OneLine(v), valueW) + "  "
	}
	prefixW := 2 + numW + 1 + labelW + 2 + rightW + 2 + flipsW + 2
	if valueW > 0 {
		prefixW += valueW + 2
	}
	cols := max(1, (s.w-prefixW)/(cellW+1))
	if cols >= n {
		cols = n
	}
	s.colOff = ui.KeepInView(s.col, s.colOff, cols, n)
	rows := s.tableRows()
	s.rowOff = ui.KeepInView(s.col, s.rowOff, rows, n)
	sub := "Agreement: docs judged the same way / judged by both · flips: docs judged otherwise than by the run above"
	if rows < n || cols < n { // what is shown leads: a narrow body cuts the rest
		sub = "Runs " + span(s.rowOff, rows) + ", columns " + span(s.colOff, cols) + " of " + strconv.Itoa(n) +
			" (h/l) · agreement: same verdict / both judged · flips: against the run above"
	} else if text.Width(sub) > s.w {
		sub = "Agreement: same verdict / both judged · flips: against the run above"
	}
	out = append(out, st.Detail.Subheading.Render(text.Truncate(sub, max(1, s.w))))
	head := "  " + strings.Repeat(" ", numW) + " " + text.Pad("run", labelW) + "  " + valueCol("value") + text.PadLeft("right", rightW) + "  " +
		text.PadLeft("flips", flipsW) + " │"
	for j := s.colOff; j < s.colOff+cols; j++ {
		head += " " + text.PadLeft(strconv.Itoa(j+1), cellW)
	}
	out = append(out, st.Detail.TableHeader.Render(head))
	for i := s.rowOff; i < s.rowOff+rows; i++ {
		line := "  " + text.PadLeft(strconv.Itoa(i+1), numW) + " " + text.Pad(text.TruncateMiddle(text.OneLine(s.runs[i].Label), labelW), labelW) +
			"  " + valueCol(s.runs[i].Value) + text.PadLeft(right(i), rightW) + "  " + text.PadLeft(flips(i), flipsW) + " │"
		for j := s.colOff; j < s.colOff+cols; j++ {
			line += " " + text.PadLeft(cell(i, j), cellW)
		}
		if i == s.col {
			line = st.Detail.Selected.Render("▸" + line[1:])
		}
		out = append(out, line)
	}
	what = "Flipped docs (" + strconv.Itoa(len(s.docs)) + "; f: all docs)"
	if s.all {
		what = "All docs (" + strconv.Itoa(len(s.docs)) + "; f: flipped only)"
	}
	return append(out, "", st.Detail.Subheading.Render(what))
}

// minDocRows is how many doc rows the table of runs leaves at least,
// when the body has room for them.
const minDocRows = 5

// tableRows is how many runs the table shows: all of them, or as many as
// leave minDocRows docs under it (three at least).
func (s *Sheet) tableRows() int {
	n := len(s.runs)
	const fixed = 1 + 1 + 1 + 2 + 1 // title, subheading, table heading, blank and docs heading, docs' heading
	if fixed+n+minDocRows <= s.h {
		return n
	}
	return max(1, min(n, max(3, s.h-fixed-minDocRows)))
}

// span writes the 1-based range of k items from off ("3–9").
func span(off, k int) string {
	if k == 1 {
		return strconv.Itoa(off + 1)
	}
	return strconv.Itoa(off+1) + "–" + strconv.Itoa(off+k)
}

// listRows is how many doc rows fit under the head and the heading.
func (s *Sheet) listRows() int { return max(1, s.h-len(s.head())-1) }

// View renders the body rectangle.
func (s *Sheet) View() string {
	if s.w <= 0 || s.h <= 0 {
		return ""
	}
	st := s.c.Styles
	s.hits.Reset()
	s.runHits.Reset()
	lines := s.head()
	if s.allNoDocs() {
		return ui.FitLines(lines, s.w, s.h)
	}
	rows := s.listRows()
	s.offset = ui.KeepInView(s.cursor, s.offset, rows, len(s.docs))
	end := min(len(s.docs), s.offset+rows)
	keyW := 2
	for _, d := range s.docs[s.offset:end] {
		keyW = max(keyW, text.Width(text.OneLine(s.table.Docs[d].Key)))
	}
	keyW = min(keyW, max(6, s.w/5))
	n := len(s.runs)
	glyphW := len(strconv.Itoa(n)) + 1 // run 10 and on need a wider column than 1..9
	glyphs := ""
	for i := 0; i < n; i++ {
		glyphs += text.PadLeft(strconv.Itoa(i+1), glyphW)
	}
	lines = append(lines, st.Detail.TableHeader.Render("  "+text.Pad("id", keyW)+" "+glyphs+"  question"))
	s.glyphX, s.glyphW = 2+keyW+1, glyphW
	if len(s.docs) == 0 {
		msg := "  No doc flipped: neighbouring runs are right on the same docs."
		switch {
		case len(s.table.Docs) == 0 && s.noDocs():
			msg = "  No records to compare doc by doc: these runs' files report figures only."
		case s.all:
			msg = "  No docs."
		}
		lines = append(lines, st.List.Empty.Render(msg))
	}
	for i := s.offset; i < end; i++ {
		s.hits.Set(len(lines), i)
		d := s.table.Docs[s.docs[i]]
		g := ""
		for _, v := range d.Verdicts {
			g += text.PadLeft(verdictGlyph(v), glyphW)
		}
		mark := "  "
		if i == s.cursor {
			mark = "▸ "
		}
		line := mark + text.Pad(text.TruncateMiddle(text.OneLine(d.Key), keyW), keyW) + " " + g + "  " + text.FirstLine(s.title(d))
		line = text.Pad(text.Truncate(line, s.w), s.w)
		if i == s.cursor {
			line = st.List.Cursor.Render(line)
		}
		lines = append(lines, line)
	}
	return ui.FitLines(lines, s.w, s.h)
}

// valuesHead is head for runs none of which has records of the task
// here (results files alone): each run's value, no agreement to count.
func (s *Sheet) valuesHead(out []string, numW, labelW, valueW int) []string {
	st := s.c.Styles
	valueW = max(valueW, len("value"))
	out = append(out, st.Detail.Subheading.Render(text.Truncate("Each run's value (enter opens it); their files report figures, no records to compare doc by doc", max(1, s.w))))
	out = append(out, st.Detail.TableHeader.Render("  "+strings.Repeat(" ", numW)+" "+text.Pad("run", labelW)+"  "+text.PadLeft("value", valueW)))
	rows := max(1, s.h-len(out)-1)
	s.rowOff = ui.KeepInView(s.col, s.rowOff, rows, len(s.runs))
	for i := s.rowOff; i < len(s.runs) && i < s.rowOff+rows; i++ {
		s.runHits.Set(len(out), i)
		r := s.runs[i]
		line := "  " + text.PadLeft(strconv.Itoa(i+1), numW) + " " + text.Pad(text.TruncateMiddle(text.OneLine(r.Label), labelW), labelW) +
			"  " + text.PadLeft(text.OneLine(r.Value), valueW)
		if i == s.col {
			line = st.Detail.Selected.Render("▸" + line[1:])
		}
		out = append(out, line)
	}
	return out
}

// allNoDocs reports whether no run has records of the task here.
func (s *Sheet) allNoDocs() bool {
	for _, r := range s.runs {
		if !r.NoDocs {
			return false
		}
	}
	return len(s.runs) > 0
}

// noDocs reports whether some run has no records of the task here.
func (s *Sheet) noDocs() bool {
	for _, r := range s.runs {
		if r.NoDocs {
			return true
		}
	}
	return false
}

// title is a doc's question, from the first run that has it.
func (s *Sheet) title(d compare.ManyDoc) string {
	for run, rec := range d.Recs {
		if rec >= 0 {
			return s.runs[run].Dataset.Records.Summary(rec).Title
		}
	}
	return ""
}

// verdictGlyph is ✓ for right, ✗ for wrong, · for no verdict.
func verdictGlyph(v compare.Verdict) string {
	switch v {
	case compare.Right:
		return content.Glyph(model.StatusPass)
	case compare.Wrong:
		return content.Glyph(model.StatusFail)
	}
	return "·"
}

// Describe says what the sheet compares, for the header and the status
// bar: the task, its runs and their values, the docs listed; and where
// the cursors are.
func (s *Sheet) Describe() ui.Description {
	flipped := 0
	for _, d := range s.table.Docs {
		if d.Flips > 0 {
			flipped++
		}
	}
	d := ui.Description{Title: "Runs of " + text.OneLine(s.task), What: text.Plural(len(s.runs), "run")}
	if len(s.table.Docs) > 0 {
		d.What += " · " + text.Plural(len(s.table.Docs), "doc") + ", " + strconv.Itoa(flipped) + " flipped"
	}
	if s.of != "" {
		d.Facts = append(d.Facts, model.Fact{Key: "in", Value: text.OneLine(s.of)})
	}
	for _, r := range s.runs {
		v := text.OneLine(r.Value)
		if v == "" {
			v = "–"
		}
		d.Facts = append(d.Facts, model.Fact{Key: text.OneLine(r.Label), Value: v})
	}
	if len(s.docs) > 0 {
		d.Pos = "doc " + strconv.Itoa(s.cursor+1) + "/" + strconv.Itoa(len(s.docs))
		if !s.all {
			d.Pos += " flipped"
		}
	}
	if s.col >= 0 && s.col < len(s.runs) {
		if d.Pos != "" {
			d.Pos += " · "
		}
		d.Pos += text.OneLine(s.runs[s.col].Label)
	}
	return d
}

// Click moves the cursor to the doc clicked, and to the run of the glyph
// clicked (or of the values table's row); a second click on the same
// shows the doc in that run (as enter).
func (s *Sheet) Click(x, y int) tea.Cmd {
	if run, ok := s.runHits.At(y); ok {
		return ui.ClickRow(&s.col, run, s.choose)
	}
	row, ok := s.hits.At(y)
	if !ok {
		return nil
	}
	col := s.col
	if s.glyphW > 0 && x >= s.glyphX && x < s.glyphX+s.glyphW*len(s.runs) {
		col = (x - s.glyphX) / s.glyphW
	}
	if row == s.cursor && col == s.col {
		return s.choose()
	}
	s.cursor, s.col = row, col
	return nil
}

// Wheel moves the cursor by delta docs.
func (s *Sheet) Wheel(delta int) { ui.WheelCursor(&s.cursor, delta, len(s.docs)) }
