// Package facets is VisiData's frequency sheet (F): for one field, each
// value's count among the list's visible records, its share, mean score
// and pass/fail counts. Enter adds the value's term to the list's query.
package facets

import (
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/model/query"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// Sheet counts a list's records by one field at a time.
type Sheet struct {
	c *ui.Common
	// in is what is counted; where is the list's query, which a chosen
	// value's term is added to.
	in    query.Env
	where string
	head  func(field string) string
	rows  []int // the visible records counted
	// fields are the fields worth a facet (query.ValueIndex.FacetFields).
	fields []string
	field  int
	facet  []query.FacetRow
	cursor int
	offset int
	// hits are the value rows' lines, for clicks.
	hits ui.Rows
	w, h int
}

// List is what the facets sheet counts: the list's visible records of a
// dataset under its filter, the fields worth a facet, the list's query,
// and how the list heads a column.
type List struct {
	Env    query.Env
	Rows   []int
	Fields []string
	Where  string
	Head   func(field string) string
}

// New counts l's rows by field, when the dataset has it, else by the
// first field that tells them apart (query.StartField).
func New(c *ui.Common, l List, field string) *Sheet {
	s := &Sheet{c: c, in: l.Env, where: l.Where, head: l.Head, rows: append([]int(nil), l.Rows...), fields: l.Fields}
	for i, f := range s.fields {
		if f == field {
			s.field = i
		}
	}
	if field == "" {
		// Open on a field that tells records apart; keep the counts made
		// on the way so the chosen one is not recounted.
		counted := map[string][]query.FacetRow{}
		s.field = query.StartField(s.fields, func(f string) int {
			counted[f] = query.Facet(s.in, s.rows, f)
			return len(counted[f])
		})
		if rows, ok := counted[s.fields[s.field]]; ok {
			s.facet = rows
			return s
		}
	}
	s.recount()
	return s
}

func (s *Sheet) recount() {
	s.facet = query.Facet(s.in, s.rows, s.fields[s.field])
	s.cursor, s.offset = 0, 0
}

// Title names the sheet.
func (s *Sheet) Title() string { return "facets" }

// SetSize sets the body rectangle.
func (s *Sheet) SetSize(w, h int) { s.w, s.h = w, h }

// Update switches the field, moves the cursor, and filters the list.
func (s *Sheet) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	cmd, _, _ := ui.Run(s.Actions(), k)
	s.clamp()
	return cmd
}

// Actions are the sheet's keys: the field counted, the cursor over its
// values, and enter filtering the list to the value under it.
func (s *Sheet) Actions() []ui.Action {
	nav, fk := &s.c.Keys.Nav, &s.c.Keys.Facets
	field := func(d int) func() tea.Cmd {
		return func() tea.Cmd {
			s.field = (s.field + d + len(s.fields)) % len(s.fields)
			s.recount()
			return nil
		}
	}
	acts := []ui.Action{ui.OnLine(&nav.Down, ""), ui.OnLine(&nav.Up, ""),
		// tab has nowhere to go with one field
		{Binding: &fk.NextField, Do: field(1), Line: len(s.fields) > 1},
		{Binding: &fk.Choose, Do: s.choose, Line: true},
		{Binding: &fk.Close, Do: func() tea.Cmd { return ui.Done(s, nil) }, Line: true, Help: s.c.Back()},
		ui.OnLine(&s.c.Keys.Global.Help, ""),
		{Binding: &fk.PrevField, Do: field(-1)},
	}
	n := func() int { return len(s.facet) }
	return append(acts, ui.CursorActions(nav, &s.cursor, n, s.tableRows, nil)...)
}

// choose filters the list to the value under the cursor (enter).
func (s *Sheet) choose() tea.Cmd {
	if len(s.facet) == 0 {
		return nil
	}
	term := s.facet[s.cursor].Term(s.fields[s.field])
	q := s.where
	if !slices.Contains(strings.Fields(q), term) {
		q = strings.TrimSpace(q + " " + term)
	}
	return ui.Done(s, ui.QueryMsg{Query: q})
}

// Field is the field counted.
func (s *Sheet) Field() string { return s.fields[s.field] }

// tableRows is how many facet rows fit under the title and heading.
func (s *Sheet) tableRows() int { return max(1, s.h-4) }

func (s *Sheet) clamp() {
	s.cursor = max(0, min(s.cursor, len(s.facet)-1))
	n := s.tableRows()
	if s.cursor < s.offset {
		s.offset = s.cursor
	}
	if s.cursor >= s.offset+n {
		s.offset = s.cursor - n + 1
	}
}

// ShortHelp lists the sheet's keys for the help line.
func (s *Sheet) ShortHelp() []key.Binding { return ui.ShortHelp(s.Actions()) }

// FullHelp lists the sheet's keys for the `?` overlay.
func (s *Sheet) FullHelp() [][]key.Binding {
	k := s.c.Keys
	return [][]key.Binding{{k.Facets.NextField, k.Facets.PrevField, k.Facets.Choose, k.Facets.Close}}
}

// View renders the body: the field tabs, the heading and the rows.
func (s *Sheet) View() string {
	st := s.c.Styles
	lines := make([]string, 0, s.h)
	title := "Facets of " + strconv.Itoa(len(s.rows)) + " records"
	if s.where != "" {
		title += " matching :" + text.OneLine(s.where)
	}
	lines = append(lines, st.Detail.Heading.Render(text.Pad(text.Truncate(title, s.w), s.w)))
	// The fields, the chosen one highlighted; the line scrolls so the
	// chosen field shows.
	var tabs []string
	for i, f := range s.fields {
		name := text.OneLine(f)
		if i == s.field {
			tabs = append(tabs, st.Detail.Selected.Render("["+name+"]"))
		} else {
			tabs = append(tabs, st.Detail.Subtle.Render(" "+name+" "))
		}
	}
	from := 0
	for from < s.field && text.Width(strings.Join(tabs[from:s.field+1], " ")) > s.w {
		from++
	}
	lines = append(lines, text.Pad(text.Truncate(strings.Join(tabs[from:], " "), s.w), s.w))

	numW := max(5, len(strconv.Itoa(len(s.rows))))
	fixed := numW + 1 + 6 + 1 + 6 + 1 + numW + 1 + numW
	// The value column is as wide as its values, so counts sit next to them.
	valueW := text.Width(s.head(s.fields[s.field]))
	for _, r := range s.facet {
		valueW = max(valueW, text.Width(text.OneLine(r.Value)))
	}
	valueW = max(8, min(valueW, s.w-2-fixed-1))
	head := "  " + text.Pad(s.head(s.fields[s.field]), valueW) + " " + text.PadLeft("count", numW) + " " +
		text.PadLeft("share", 6) + " " + text.PadLeft("mean", 6) + " " + text.PadLeft("pass", numW) + " " + text.PadLeft("fail", numW)
	lines = append(lines, st.List.HeadingFocused.Render(text.Pad(text.Truncate(head, s.w), s.w)))
	if len(s.facet) == 0 {
		lines = append(lines, st.List.Empty.Render(text.Pad("  No records to count.", s.w)))
	}
	end := min(len(s.facet), s.offset+s.tableRows())
	s.hits.Reset()
	for i := s.offset; i < end; i++ {
		s.hits.Set(len(lines), i)
		r := s.facet[i]
		share := "–"
		if len(s.rows) > 0 {
			share = strconv.FormatFloat(100*float64(r.Count)/float64(len(s.rows)), 'f', 1, 64) + "%"
		}
		mean := "–"
		if r.Scored > 0 {
			mean = text.FormatScore(r.MeanScore)
		}
		value := text.OneLine(r.Value)
		if r.Missing {
			value = "(none)"
		}
		mark := "  "
		if i == s.cursor {
			mark = "▸ "
		}
		line := mark + text.Pad(value, valueW) + " " + text.PadLeft(strconv.Itoa(r.Count), numW) + " " +
			text.PadLeft(share, 6) + " " + text.PadLeft(mean, 6) + " " +
			text.PadLeft(strconv.Itoa(r.Pass), numW) + " " + text.PadLeft(strconv.Itoa(r.Fail), numW)
		line = text.Pad(text.Truncate(line, s.w), s.w)
		if i == s.cursor {
			line = st.List.Cursor.Render(line)
		}
		lines = append(lines, line)
	}
	if len(s.facet) > end-s.offset && len(lines) < s.h {
		more := strconv.Itoa(s.offset+1) + "–" + strconv.Itoa(end) + " of " + strconv.Itoa(len(s.facet)) + " values"
		lines = append(lines, st.Detail.Subtle.Render(text.Pad("  "+more, s.w)))
	}
	for len(lines) < s.h {
		lines = append(lines, strings.Repeat(" ", s.w))
	}
	return strings.Join(lines[:s.h], "\n")
}

// Click moves the cursor to the value clicked, filters the list to it
// on a second click (as enter), or counts the field clicked on the
// fields' line.
func (s *Sheet) Click(x, y int) tea.Cmd {
	if y == 1 && len(s.fields) > 1 {
		if f, ok := s.fieldAt(x); ok && f != s.field {
			s.field = f
			s.recount()
		}
		return nil
	}
	if row, ok := s.hits.At(y); ok {
		return ui.ClickRow(&s.cursor, row, s.choose)
	}
	return nil
}

// fieldAt is the field whose name is at column x of the fields' line,
// laid out as View lays it out.
func (s *Sheet) fieldAt(x int) (int, bool) {
	from, w := 0, func(i int) int { return text.Width(text.OneLine(s.fields[i])) + 2 }
	span := func(a, b int) int {
		n := 0
		for i := a; i <= b; i++ {
			n += w(i) + 1
		}
		return n - 1
	}
	for from < s.field && span(from, s.field) > s.w {
		from++
	}
	at := 0
	for i := from; i < len(s.fields); i++ {
		if x >= at && x < at+w(i) {
			return i, true
		}
		at += w(i) + 1
	}
	return 0, false
}

// Wheel moves the cursor by delta values.
func (s *Sheet) Wheel(delta int) { ui.WheelCursor(&s.cursor, delta, len(s.facet)) }

// Values are the field's values and their counts.
func (s *Sheet) Values() []query.FacetRow { return s.facet }
