// Package filters is the filter comparison of an lm-eval task (v): each
// filter's metrics recomputed from the samples beside the reported ones,
// pass@k from the deep pass, the 2x2 table of two filters A and B, and the
// docs whose logged answer disagrees with a re-extraction. Enter on a cell
// (or on the disagreement line) pins the list to those docs.
package filters

import (
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"evalview/model"
	"evalview/model/compare"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// Source is what the sheet reads that the root keeps: the figures it
// caches and the deep passes it runs.
type Source interface {
	// Metrics are ds's metrics recomputed from its samples beside the
	// reported ones.
	Metrics(ds *model.Dataset) []model.MetricComparison
	// Deep is ds's finished deep report (nil while pending) and, while
	// its pass runs, the progress ("re-extracting 45%").
	Deep(ds *model.Dataset) (*model.DeepReport, string)
}

// Sheet compares the filters of one dataset.
type Sheet struct {
	c      *ui.Common
	src    Source
	ds     *model.Dataset
	a, b   int
	table  compare.Table
	cells  []compare.Cell
	cursor int
	scroll ui.Scroll
	// cellHits are where View drew the table's cells, for clicks.
	cellHits []cellHit
}

// compareItem is a row of the sheet the cursor can stand on.
type compareItem struct {
	cell    compare.Cell
	flagged bool // the deep pass's disagreements, not a cell
}

// New opens the comparison of ds's filters, A and B the first two (or
// the selected filter and the next).
func New(c *ui.Common, src Source, ds *model.Dataset, selected int) *Sheet {
	s := &Sheet{c: c, src: src, ds: ds, a: 0, b: min(1, len(ds.Filters)-1)}
	if selected > 0 && selected < len(ds.Filters) {
		s.a, s.b = selected, (selected+1)%len(ds.Filters)
	}
	s.recount()
	return s
}

// Applies reports whether ds has filters to compare.
func Applies(ds *model.Dataset) bool {
	return ds != nil && len(ds.Filters) >= 1
}

func (s *Sheet) recount() {
	s.table, s.cells = compare.Filters(s.ds, s.a, s.b, nil)
	s.cursor = min(s.cursor, len(s.items())-1)
}

// items lists what the cursor can choose: the four cells, missing when
// some docs lack a row, and the deep pass's disagreements when there are.
func (s *Sheet) items() []compareItem {
	var out []compareItem
	if len(s.ds.Filters) > 1 {
		out = append(out, compareItem{cell: compare.Both}, compareItem{cell: compare.OnlyA}, compareItem{cell: compare.OnlyB}, compareItem{cell: compare.Neither})
	}
	if s.table.Missing > 0 && len(s.ds.Filters) > 1 {
		out = append(out, compareItem{cell: compare.Missing})
	}
	if rep, _ := s.src.Deep(s.ds); rep != nil && len(rep.Flagged) > 0 {
		out = append(out, compareItem{flagged: true})
	}
	return out
}

// Title names the sheet.
func (s *Sheet) Title() string { return "compare filters" }

// SetSize sets the body rectangle.
func (s *Sheet) SetSize(w, h int) { s.scroll.W, s.scroll.H = w, h }

// Update moves the cursor, picks filters A and B, pins the list; the end
// of the dataset's deep pass redraws it.
func (s *Sheet) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ui.DeepMsg:
		if msg.Dataset == s.ds {
			s.recount()
		}
	case tea.KeyPressMsg:
		return s.handleKey(msg)
	}
	return nil
}

func (s *Sheet) handleKey(k tea.KeyPressMsg) tea.Cmd {
	cmd, _, _ := ui.Run(s.Actions(), k)
	return cmd
}

// Actions are the sheet's keys: the filters compared (a, b), the cursor
// over the table's cells and the flags, and enter pinning the list to
// the records under it.
func (s *Sheet) Actions() []ui.Action {
	km := s.c.Keys
	c, nav := &km.Compare, &km.Nav
	n := len(s.ds.Filters)
	items := s.items()
	do := func(f func()) func() tea.Cmd { return func() tea.Cmd { f(); return nil } }
	filters := func() bool { return n > 0 }
	down := do(func() { s.cursor = min(s.cursor+1, len(items)-1) })
	up := do(func() { s.cursor = max(s.cursor-1, 0) })
	return []ui.Action{
		ui.OnLine(&nav.Down, ""), ui.OnLine(&nav.Up, ""),
		// With one filter, a and b pick it again; nothing to choose
		// without a table or flags.
		{Binding: &c.PickA, When: filters, Do: do(func() { s.a = (s.a + 1) % n; s.recount() }), Line: n > 1},
		{Binding: &c.PickB, When: filters, Do: do(func() { s.b = (s.b + 1) % n; s.recount() }), Line: n > 1},
		{Binding: &c.Choose, When: func() bool { return s.cursor >= 0 && s.cursor < len(items) }, Do: func() tea.Cmd {
			label, rows := s.chosen(items[s.cursor])
			return ui.Done(s, ui.PinMsg{Label: label, Rows: rows})
		}, Line: len(items) > 0},
		{Binding: &c.Close, Do: func() tea.Cmd { return ui.Done(s, nil) }, Line: true, Help: s.c.Back()},
		ui.OnLine(&km.Global.Help, ""),
		{Binding: &nav.Down, Do: down}, {Binding: &c.Right, Do: down},
		{Binding: &nav.Up, Do: up}, {Binding: &c.Left, Do: up},
		{Binding: &nav.Top, Do: do(func() { s.cursor = 0 })},
		{Binding: &nav.Bottom, Do: do(func() { s.cursor = len(items) - 1 })},
	}
}

// chosen returns the label and record indexes of an item.
func (s *Sheet) chosen(it compareItem) (string, []int) {
	if it.flagged {
		rep, _ := s.src.Deep(s.ds)
		if rep == nil {
			return "flagged by the deep check", nil
		}
		return "flagged by the deep check", rep.Flagged
	}
	var rows []int
	for i, c := range s.cells {
		if c == it.cell {
			rows = append(rows, i)
		}
	}
	return s.cellLabel(it.cell), rows
}

// cellLabel names a cell by its filters: "strict-match ✓ flexible-extract ✗".
func (s *Sheet) cellLabel(c compare.Cell) string {
	fa, fb := text.OneLine(s.ds.Filters[s.a]), text.OneLine(s.ds.Filters[s.b])
	switch c {
	case compare.Both:
		return fa + " ✓ " + fb + " ✓"
	case compare.OnlyA:
		return fa + " ✓ " + fb + " ✗"
	case compare.OnlyB:
		return fa + " ✗ " + fb + " ✓"
	case compare.Neither:
		return fa + " ✗ " + fb + " ✗"
	}
	return fa + " / " + fb + ": unscored or missing"
}

// ShortHelp lists the sheet's keys for the help line.
func (s *Sheet) ShortHelp() []key.Binding { return ui.ShortHelp(s.Actions()) }

// FullHelp lists the sheet's keys for the `?` overlay.
func (s *Sheet) FullHelp() [][]key.Binding {
	k := s.c.Keys.Compare
	return [][]key.Binding{{k.PickA, k.PickB, k.Left, k.Right, k.Choose, k.Close}}
}

// View renders the body rectangle.
func (s *Sheet) View() string {
	st := s.c.Styles
	var lines []string
	add := func(l ...string) { lines = append(lines, l...) }
	head := st.Detail.Heading
	add(head.Render("Compare filters · "+text.OneLine(s.ds.Title)), "")

	// Metrics recomputed from the samples beside the reported ones.
	var rows [][]string
	var differ []bool
	ms := s.src.Metrics(s.ds) // cached: View runs every frame
	for _, c := range ms {
		row := []string{text.OneLine(c.Filter), text.OneLine(c.Name), "–", "–", ""}
		if c.HasSamples {
			row[2] = fmtScore(c.Samples)
		}
		if c.N > 0 { // the rows read, recomputed or not, as summary counts them
			row[4] = strconv.Itoa(c.N)
		}
		if c.HasReport {
			row[3] = fmtScore(c.Reported)
		}
		rows = append(rows, row)
		differ = append(differ, c.Differs())
	}
	if len(rows) > 0 {
		add(st.Detail.Subheading.Render("Metrics"))
		add(ui.Table(st, []string{"filter", "metric", "samples", "reported", "n"}, rows, map[int]bool{2: true, 3: true, 4: true}, func(r, c int, cell string) string {
			if c == 2 && differ[r] {
				return st.Header.Differs.Render(cell)
			}
			return cell
		}, s.scroll.W)...)
		for r := range rows {
			if differ[r] {
				add(st.Header.Differs.Render("  recomputed values that differ from the reported ones are highlighted"))
				break
			}
		}
		add(s.metricNotes(ms)...)
		add("")
	}
	add(s.passAtK()...)

	items := s.items()
	var cur compareItem
	if s.cursor >= 0 && s.cursor < len(items) {
		cur = items[s.cursor]
	} else {
		cur.cell = -1
	}
	cursorLine := 0
	s.cellHits = s.cellHits[:0]
	if len(s.ds.Filters) < 2 {
		add(st.Detail.Subtle.Render("One filter: no 2x2 table to draw (C compares two runs of the task)."), "")
		add(s.deepLines(cur, &cursorLine, len(lines))...)
		return s.scroll.Render(lines, cursorLine)
	}
	// The 2x2 table.
	fa, fb := text.OneLine(s.ds.Filters[s.a]), text.OneLine(s.ds.Filters[s.b])
	// The keys as bound (a config may move them).
	ka, kb := s.c.Keys.Compare.PickA.Help().Key, s.c.Keys.Compare.PickB.Help().Key
	add(st.Detail.Subheading.Render("A ")+st.Detail.Selected.Render(fa)+st.Detail.Subtle.Render(" ("+ka+": next)")+
		st.Detail.Subheading.Render("   B ")+st.Detail.Selected.Render(fb)+st.Detail.Subtle.Render(" ("+kb+": next)"), "")
	labW := max(text.Width("A ✓ "+fa), text.Width("A ✗ "+fa), 10)
	labW = min(labW, max(10, s.scroll.W-34))
	x := labW + 2 // where the next cell of the line starts
	cell := func(c compare.Cell, word string) string {
		s.cellHits = append(s.cellHits, cellHit{line: len(lines), x0: x, x1: x + 16, cell: c})
		x += 17
		t := text.PadLeft(strconv.Itoa(s.table.Get(c)), 6) + " " + text.Pad(word, 8)
		if !cur.flagged && cur.cell == c {
			cursorLine = len(lines)
			return st.List.Cursor.Render("▸" + t)
		}
		return " " + t
	}
	lab := func(s string) string { return text.Pad(text.Truncate(s, labW), labW) }
	add(st.Detail.TableHeader.Render(lab("") + "  " + text.Pad("B ✓ "+text.Truncate(fb, 10), 16) + " " + text.Pad("B ✗ "+text.Truncate(fb, 10), 16)))
	add(lab("A ✓ "+fa) + "  " + cell(compare.Both, "both") + " " + cell(compare.OnlyA, "only A"))
	x = labW + 2
	add(lab("A ✗ "+fa) + "  " + cell(compare.OnlyB, "only B") + " " + cell(compare.Neither, "neither"))
	placed := s.table.Placed()
	summary := strconv.Itoa(placed) + " docs placed"
	if placed > 0 {
		summary += " · agree on " + strconv.FormatFloat(100*s.table.Agree(), 'f', 1, 64) + "%"
	}
	add(st.Detail.Subtle.Render(summary))
	if s.table.Missing > 0 {
		t := text.Plural(s.table.Missing, "doc") + " unscored or missing under A or B"
		s.cellHits = append(s.cellHits, cellHit{line: len(lines), x0: 0, x1: s.scroll.W, cell: compare.Missing})
		if !cur.flagged && cur.cell == compare.Missing {
			cursorLine = len(lines)
			add(st.List.Cursor.Render("▸ " + t))
		} else {
			add("  " + t)
		}
	}
	add("")
	add(s.deepLines(cur, &cursorLine, len(lines))...)
	add(st.Detail.Subtle.Render("enter shows the docs of the chosen cell in the list; esc in the list shows all again"))
	return s.scroll.Render(lines, cursorLine)
}

// metricNotes says, under the metrics, why each metric without a
// recomputed value ("–") has none ("corpus-level, not recomputed: ..."),
// each note once with the metrics it concerns, as summary prints them.
func (s *Sheet) metricNotes(ms []model.MetricComparison) []string {
	st := s.c.Styles
	var notes []string
	who := map[string][]string{}
	for _, c := range ms {
		if c.HasSamples {
			continue
		}
		note := c.Note
		if note == "" {
			note = "not recomputed from the samples"
		}
		if who[note] == nil {
			notes = append(notes, note)
		}
		who[note] = append(who[note], text.OneLine(c.Filter)+" "+text.OneLine(c.Name))
	}
	var out []string
	w := max(10, s.scroll.W-4)
	for _, note := range notes {
		for i, l := range text.Wrap(strings.Join(who[note], ", ")+": "+text.OneLine(note), w) {
			ind := "  "
			if i > 0 {
				ind = "    "
			}
			out = append(out, st.Detail.Subtle.Render(ind+l))
		}
	}
	return out
}

// passAtK renders the deep pass's pass@k per filter, when there are
// repeats to estimate it from.
func (s *Sheet) passAtK() []string {
	st := s.c.Styles
	rep, _ := s.src.Deep(s.ds)
	if rep == nil || len(rep.PassAtK) == 0 || rep.Repeats < 2 {
		return nil
	}
	ks := compare.KValues(rep.Repeats)
	cols := []string{"filter"}
	right := map[int]bool{}
	for i, k := range ks {
		cols = append(cols, "pass@"+strconv.Itoa(k))
		right[i+1] = true
	}
	var rows [][]string
	for _, f := range s.ds.Filters {
		byK, ok := rep.PassAtK[f]
		if !ok {
			continue
		}
		row := []string{text.OneLine(f)}
		for _, k := range ks {
			if v, ok := byK[k]; ok && !math.IsNaN(v) {
				row = append(row, fmtScore(v))
			} else {
				row = append(row, "–")
			}
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil
	}
	out := []string{st.Detail.Subheading.Render("pass@k over " + strconv.Itoa(rep.Repeats) + " repeats (unbiased estimator, re-extracted answers)")}
	out = append(out, ui.Table(st, cols, rows, right, nil, s.scroll.W)...)
	return append(out, "")
}

// deepLines says where the deep pass is, or how many docs it flagged.
func (s *Sheet) deepLines(cur compareItem, cursorLine *int, at int) []string {
	st := s.c.Styles
	if s.ds.Deep == nil {
		return nil
	}
	rep, status := s.src.Deep(s.ds)
	if status != "" {
		return []string{st.Bar.Loading.Render(status + "…"), ""}
	}
	if rep == nil {
		return []string{st.Detail.Subtle.Render("re-extraction pending"), ""}
	}
	// Its findings about the dataset (filters re-applied with the
	// harness's defaults) come first: they qualify the rest.
	var out []string
	for _, is := range rep.Issues {
		if is.Record == "" {
			out = append(out, s.wrapped("⚠ "+text.OneLine(is.Message), st.Issue.Warning)...)
		}
	}
	switch {
	case len(rep.Flagged) == 0 && rep.Reextracted == 0:
		// A multiple-choice task, one scored by its own code, filters
		// evalview cannot run: nothing was checked, so nothing agrees.
		return append(append(out, s.wrapped("The deep check re-extracted nothing here: no filter pipeline it re-applies to these answers.", st.Detail.Subtle)...), "")
	case len(rep.Flagged) == 0:
		return append(append(out, s.wrapped("✓ the deep check flags no doc: the logged answers of the "+
			text.Plural(rep.Reextracted, "filter row")+" it re-extracted agree", st.Status.Pass)...), "")
	}
	// The flagged docs hold every finding of the pass (a logged answer
	// that re-extraction does not reproduce, a logged exact_match its
	// answer does not give...): name them by code.
	t := text.Plural(len(rep.Flagged), "doc") + " flagged by the deep check"
	if codes := issueCodes(rep.Issues); codes != "" {
		t += " (" + codes + ")"
	}
	if cur.flagged {
		*cursorLine = at + len(out)
		return append(out, st.List.Cursor.Render("▸ ⚠ "+t), "")
	}
	return append(out, st.Issue.Warning.Render("  ⚠ "+t), "")
}

// wrapped wraps t to the sheet's width, each line in style.
func (s *Sheet) wrapped(t string, style lipgloss.Style) []string {
	var out []string
	for _, l := range text.Wrap(t, max(10, s.scroll.W)) {
		out = append(out, style.Render(l))
	}
	return out
}

// issueCodes counts the per-record issues by code, in order of first
// appearance: "2 reextract-mismatch, 1 rescore-mismatch".
func issueCodes(issues []model.Issue) string {
	n := map[string]int{}
	var order []string
	for _, is := range issues {
		if is.Record == "" {
			continue // about the dataset, not a flagged doc
		}
		if n[is.Code] == 0 {
			order = append(order, is.Code)
		}
		n[is.Code]++
	}
	parts := make([]string, len(order))
	for i, c := range order {
		parts[i] = strconv.Itoa(n[c]) + " " + text.OneLine(c)
	}
	return strings.Join(parts, ", ")
}

// fmtScore prints a metric value with four decimals (nan, inf, -inf as
// summary prints them).
func fmtScore(v float64) string { return model.FormatFloat(v, 4) }

// cellHit is where View drew a cell of the 2x2 table (or the line of the
// docs missing under A or B): a content line and its columns.
type cellHit struct {
	line, x0, x1 int
	cell         compare.Cell
}

// Click moves the cursor to the cell clicked; a second click lists its
// docs (as enter).
func (s *Sheet) Click(x, y int) tea.Cmd {
	y += s.scroll.Offset
	for _, h := range s.cellHits {
		if h.line != y || x < h.x0 || x >= h.x1 {
			continue
		}
		for i, it := range s.items() {
			if !it.flagged && it.cell == h.cell {
				return ui.ClickRow(&s.cursor, i, func() tea.Cmd { return ui.Do(s.Actions(), &s.c.Keys.Compare.Choose) })
			}
		}
	}
	return nil
}

// Wheel moves the cursor by delta items.
func (s *Sheet) Wheel(delta int) { ui.WheelCursor(&s.cursor, delta, len(s.items())) }
