// Package datasets is the dataset picker (D): one row per opened dataset
// with its kind, task, model, run, main figure, records and issues;
// typing after / filters the rows, enter shows the chosen one.
package datasets

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"evalview/model"
	ov "evalview/model/overview"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// Sheet picks one of the opened datasets.
type Sheet struct {
	c   *ui.Common
	ds  []*model.Dataset
	src ui.MetricsSource
	// cells are each dataset's columns, once known (figures once its
	// index is complete).
	cells map[int]*row
	// shown are the datasets the filter keeps, cursor a position in it.
	shown  []int
	cursor int
	offset int
	filter ui.Filter
	w, h   int
}

// row is one dataset's cells: task, kind, model, run, main figure,
// records and issues.
type row struct {
	cells []string
	final bool
}

// New opens the picker with the cursor on dataset cur.
func New(c *ui.Common, ds []*model.Dataset, cur int, src ui.MetricsSource) *Sheet {
	s := &Sheet{c: c, ds: ds, src: src, cells: map[int]*row{}}
	s.relist()
	s.cursor = max(0, cur)
	return s
}

// Grow takes in datasets opened after the picker was made: ds is every
// dataset, the picker's first among them in their order.
func (s *Sheet) Grow(ds []*model.Dataset) {
	if len(ds) <= len(s.ds) {
		return
	}
	s.ds = ds
	s.relist()
	s.clamp()
}

// Title is empty: the status bar names nothing while the picker shows.
func (s *Sheet) Title() string { return "" }

// Typing reports whether the filter is being typed.
func (s *Sheet) Typing() bool { return s.filter.Typing }

// SetSize sets the picker's area (title and heading lines included).
func (s *Sheet) SetSize(w, h int) {
	s.w, s.h = w, h
	s.clamp()
}

func (s *Sheet) rows() int { return max(1, s.h-2) }

func (s *Sheet) clamp() {
	s.cursor = max(0, min(s.cursor, len(s.shown)-1))
	s.offset = ui.KeepInView(s.cursor, s.offset, s.rows(), len(s.shown))
}

// relist keeps the datasets whose cells hold every word of the filter
// (any case), the cursor on the same dataset when it stays.
func (s *Sheet) relist() {
	cur := -1
	if s.cursor >= 0 && s.cursor < len(s.shown) {
		cur = s.shown[s.cursor]
	}
	words := strings.Fields(strings.ToLower(s.filter.Value()))
	s.shown = s.shown[:0]
	for i := range s.ds {
		hay := strings.ToLower(strings.Join(s.row(i).cells, " "))
		keep := true
		for _, w := range words {
			keep = keep && strings.Contains(hay, w)
		}
		if keep {
			s.shown = append(s.shown, i)
		}
	}
	s.cursor = 0
	for p, i := range s.shown {
		if i == cur {
			s.cursor = p
		}
	}
	s.clamp()
}

// Update moves in the picker, filters it, opens a dataset or closes.
func (s *Sheet) Update(msg tea.Msg) tea.Cmd {
	if handled, changed := s.filter.Update(msg, s.c.Keys); handled {
		if changed {
			s.relist()
		}
		return nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return s.key(k)
	}
	return nil
}

func (s *Sheet) key(k tea.KeyPressMsg) tea.Cmd {
	cmd, _, _ := ui.Run(s.Actions(), k)
	return cmd
}

// Actions are the picker's keys: the cursor over the datasets, enter
// showing the one under it, / typing a filter of them; while the filter
// is typed it takes every key (ui.Filter), and only says how it ends.
func (s *Sheet) Actions() []ui.Action {
	km := s.c.Keys
	d := &km.Dataset
	if s.filter.Typing {
		return []ui.Action{ui.OnLine(&km.Search.Confirm, ""), ui.OnLine(&km.Search.Cancel, "")}
	}
	acts := []ui.Action{ui.OnLine(&km.Nav.Down, ""), ui.OnLine(&km.Nav.Up, ""),
		{Binding: &d.Choose, Do: func() tea.Cmd {
			if s.cursor < len(s.shown) {
				return ui.Done(s, ui.DatasetMsg{Index: s.shown[s.cursor]})
			}
			return nil
		}, Line: true},
		{Binding: &d.Filter, Do: func() tea.Cmd { s.filter.Typing = true; return nil }, Line: true},
		{Binding: &d.Close, When: func() bool { return s.filter.Value() != "" }, Do: func() tea.Cmd {
			s.filter.Clear()
			s.relist()
			return nil
		}},
		{Binding: &d.Close, Do: func() tea.Cmd { return ui.Done(s, nil) }, Line: true, Help: s.c.Back()},
		{Binding: &km.Global.Quit, Do: func() tea.Cmd { return tea.Quit }, Line: true},
	}
	n := func() int { return len(s.shown) }
	return append(acts, ui.CursorActions(&km.Nav, &s.cursor, n, s.rows, s.clamp)...)
}

// Wheel moves the cursor by delta rows.
func (s *Sheet) Wheel(delta int) {
	s.cursor += delta
	s.clamp()
}

// Click opens the dataset on row y (under the title and heading lines).
func (s *Sheet) Click(_, y int) tea.Cmd {
	p := s.offset + y - 2
	if y < 2 || p >= len(s.shown) {
		return nil
	}
	return ui.Done(s, ui.DatasetMsg{Index: s.shown[p]})
}

// ShortHelp lists the picker's keys for the help line.
func (s *Sheet) ShortHelp() []key.Binding { return ui.ShortHelp(s.Actions()) }

// FullHelp lists the picker's keys.
func (s *Sheet) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

// heads are the picker's columns.
var heads = []string{"task", "kind", "model", "run", "main figure", "records"}

// (records: the count, then ‼ errors and ⚠ warnings of the dataset when
// there are, as the header counts them.)

// row is dataset i's cells, computed once its index is complete.
func (s *Sheet) row(i int) *row {
	if r, ok := s.cells[i]; ok && r.final {
		return r
	}
	d := s.ds[i]
	done := d.Records.Done()
	o := model.OriginOf(d)
	figure := "–" // no metrics source: nothing known, said as the overview says it
	if s.src != nil {
		comps, final := s.src.Metrics(d)
		done = final
		e := ov.EntryOf(i, d, comps)
		e.Pending = !final
		switch {
		case len(e.Tasks) > 1:
			figure = text.Plural(len(e.Tasks), "task")
		case len(e.Tasks) == 1 && len(e.Tasks[0].Figures) > 0:
			f := e.Tasks[0].Figures[0] // the value first: a narrow column cuts the name
			figure = ov.Cell{Figure: f, HasFigure: f.HasValue, Pending: e.Pending}.ValueText(false) + " " + f.Key()
		case len(e.Tasks) == 1:
			// No figure: as the overview's cell says it (…, N unscored, –).
			figure = ov.Cell{Pending: e.Pending, Unscored: e.Records}.ValueText(false)
		default:
			figure = ov.Cell{Pending: e.Pending}.ValueText(false)
		}
	}
	records := strconv.Itoa(d.Records.Len())
	// The dataset's issues, errors and warnings apart as the header
	// counts them.
	if e, _ := model.CountIssues(d.Issues); e > 0 {
		records += " ‼" + strconv.Itoa(e)
	}
	if _, w := model.CountIssues(d.Issues); w > 0 {
		records += " ⚠" + strconv.Itoa(w)
	}
	r := &row{final: done, cells: []string{
		orDash(text.OneLine(d.Title)), string(d.Kind), orDash(text.OneLine(o.Model)), orDash(text.OneLine(model.RunTime(o.Run))), text.OneLine(figure), records,
	}}
	s.cells[i] = r
	return r
}

// orDash is a cell's text, or – for a value not known (a Sample file
// names no model, a testset no run), as the overview and the header say
// it: never a blank cell.
func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "–"
	}
	return s
}

// widths fits the columns to the picker: each as wide as its widest
// cell among the rows shown; the figure's metric name gives way first
// (its value leads), then the model and the run, then a long task (cut
// in its middle) down to taskShare of the row, so that a title of 180
// characters does not push the kind, model and run out of a wide
// screen. Where even that is too wide, the records, kind, run and model
// columns are left out (width 0), in that order, and the task gives way
// further: the task and its figure stay.
func (s *Sheet) widths(numW int) []int {
	w := make([]int, len(heads))
	for c, h := range heads {
		w[c] = text.Width(h)
	}
	for p := s.offset; p < len(s.shown) && p < s.offset+s.rows(); p++ {
		for c, cell := range s.row(s.shown[p]).cells {
			w[c] = max(w[c], text.Width(cell))
		}
	}
	room := s.w - 3 - numW
	want := w[4]
	total := func() int {
		n := 0
		for _, x := range w {
			if x > 0 {
				n += x + 2
			}
		}
		return n
	}
	for _, c := range []int{4, 2, 3} {
		if total() > room {
			w[c] = max(min(w[c], 14), w[c]-(total()-room))
		}
	}
	if total() > room {
		w[0] = max(min(w[0], max(minTask, room*taskShare/100)), w[0]-(total()-room))
	}
	for _, c := range []int{5, 1, 3, 2} {
		if total() > room {
			w[c] = 0
		}
	}
	if total() > room {
		w[0] = max(8, w[0]-(total()-room))
	}
	if left := room - total(); left > 0 { // a column left out leaves room to the figure
		w[4] = min(want, w[4]+left)
	}
	return w
}

// A long task gives way to the other columns down to taskShare percent
// of the row, and never below minTask cells before they are left out.
const (
	taskShare = 40
	minTask   = 24
)

// View renders the dataset rows.
func (s *Sheet) View() string {
	st := s.c.Styles
	title := st.Overlay.Title.Render(" Datasets") + st.Detail.Subtle.Render("  (enter opens, / filters, esc closes)")
	switch f := s.filter.Value(); {
	case s.filter.Typing:
		title = st.Overlay.Title.Render(" Datasets") + "  filter: " + text.OneLine(f) + "▏"
	case f != "":
		title += st.Detail.Subtle.Render("  filter " + strconv.Quote(f) + ": " + strconv.Itoa(len(s.shown)) + " of " + strconv.Itoa(len(s.ds)))
	}
	numW := len(strconv.Itoa(len(s.ds)))
	w := s.widths(numW)
	line := func(cells []string) string {
		var parts []string
		for c, cell := range cells {
			cut := text.TruncateMiddle
			if c == 4 {
				cut = text.Truncate // the figure's value leads
			}
			if w[c] > 0 {
				parts = append(parts, text.Pad(cut(cell, w[c]), w[c]))
			}
		}
		return strings.Join(parts, "  ")
	}
	out := []string{text.Pad(title, s.w), st.Detail.TableHeader.Render(text.Pad(text.Truncate("   "+strings.Repeat(" ", numW)+"  "+line(heads), s.w), s.w))}
	if len(s.shown) == 0 {
		out = append(out, st.List.Empty.Render(text.Pad("   No dataset matches "+strconv.Quote(text.OneLine(s.filter.Value()))+" (esc clears the filter).", s.w)))
	}
	for p := s.offset; p < len(s.shown) && p < s.offset+s.rows(); p++ {
		i := s.shown[p]
		l := text.PadLeft(strconv.Itoa(i+1), numW) + "  " + line(s.row(i).cells)
		if p == s.cursor {
			out = append(out, st.Overlay.Selected.Render(text.Pad(text.Truncate(" ▸ "+ansi.Strip(l), s.w), s.w)))
			continue
		}
		out = append(out, text.Pad(text.Truncate("   "+l, s.w), s.w))
	}
	return ui.FitLines(out, s.w, s.h)
}

// Describe says what the picker lists, for the header and the status
// bar: the datasets open, those the filter keeps, and the cursor's.
func (s *Sheet) Describe() ui.Description {
	d := ui.Description{Title: "Datasets", What: text.Plural(len(s.ds), "dataset") + " open"}
	if f := s.filter.Value(); f != "" {
		d.Facts = append(d.Facts, model.Fact{Key: "filter", Value: strconv.Quote(text.OneLine(f)) + ": " + strconv.Itoa(len(s.shown)) + " shown"})
	}
	if len(s.shown) > 0 {
		d.Pos = strconv.Itoa(s.cursor+1) + "/" + strconv.Itoa(len(s.shown))
	}
	return d
}
