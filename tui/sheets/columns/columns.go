// Package columns is the column chooser (c): every field the dataset has,
// the shown ones first in their order, checked. Changes apply to the list
// at once.
package columns

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/tui/text"
	"evalview/tui/ui"
)

// List is the list whose columns are chosen.
type List struct {
	// Shown are the columns shown; Picked tells whether the user chose
	// them (else they are the format's defaults, Defaults).
	Shown, Defaults []string
	Picked          bool
	// Fields are every field the records have (query.ValueIndex.Columns).
	Fields []string
	// Fit returns which of cols the list shows at its width; picked
	// columns squeeze before they go, defaults go by rank.
	Fit func(cols []string, picked bool) []string
	// Head is a column's heading.
	Head func(field string) string
}

// Sheet chooses a list's columns.
type Sheet struct {
	c      *ui.Common
	l      List
	all    []string // every choosable field
	shown  []string
	picked bool
	// pick is picked as the key being handled leaves it.
	pick   bool
	cursor int
	// hits are the fields' lines, for clicks.
	hits ui.Rows
	w, h int
}

// New opens the chooser over l.
func New(c *ui.Common, l List) *Sheet {
	s := &Sheet{c: c, l: l, shown: slices.Clone(l.Shown), all: l.Fields, picked: l.Picked}
	s.order()
	return s
}

// order lists the shown columns first, then the others in the dataset's
// order.
func (s *Sheet) order() {
	out := slices.Clone(s.shown)
	for _, f := range s.all {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	s.all = out
}

// Title names the sheet.
func (s *Sheet) Title() string { return "columns" }

// SetSize sets the body rectangle.
func (s *Sheet) SetSize(w, h int) { s.w, s.h = w, h }

// Update toggles and moves columns; the list follows at once.
func (s *Sheet) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	// pick: the user chose the columns, so a narrow pane squeezes them
	// rather than dropping them by priority; d goes back to the format's
	// defaults and their priorities.
	s.pick = s.picked
	was := slices.Clone(s.shown)
	cmd, _, _ := ui.Run(s.Actions(), k)
	if cmd != nil {
		return cmd // closed
	}
	s.cursor = max(0, min(s.cursor, len(s.all)-1))
	if s.pick == s.picked && slices.Equal(was, s.shown) {
		return nil
	}
	s.picked = s.pick
	if !s.picked {
		return ui.Send(ui.ColumnsMsg{})
	}
	return ui.Send(ui.ColumnsMsg{Columns: slices.Clone(s.shown)})
}

// Actions are the chooser's keys: showing or hiding the column under
// the cursor, moving it left or right, the defaults, moving the cursor.
func (s *Sheet) Actions() []ui.Action {
	nav, ck := &s.c.Keys.Nav, &s.c.Keys.Columns
	// at is the field under the cursor and its place among those shown
	// (-1: hidden).
	at := func() (string, int) {
		f := s.all[s.cursor]
		return f, slices.Index(s.shown, f)
	}
	do := func(f func()) func() tea.Cmd { return func() tea.Cmd { f(); return nil } }
	return []ui.Action{
		ui.OnLine(&nav.Down, ""), ui.OnLine(&nav.Up, ""),
		{Binding: &ck.Toggle, When: func() bool {
			// A default column a narrow pane drops: space keeps it.
			f, i := at()
			return i >= 0 && !s.pick && !slices.Contains(s.fitting(), f)
		}, Do: do(func() { s.pick = true })},
		{Binding: &ck.Toggle, Do: do(func() {
			f, i := at()
			if i >= 0 {
				if len(s.shown) > 1 {
					s.shown = slices.Delete(s.shown, i, i+1)
				}
			} else {
				s.shown = append(s.shown, f)
			}
			s.order()
			s.cursor = slices.Index(s.all, f)
			s.pick = true
		}), Line: true},
		{Binding: &ck.Earlier, When: func() bool { _, i := at(); return i > 0 }, Do: do(func() {
			_, i := at()
			s.shown[i-1], s.shown[i] = s.shown[i], s.shown[i-1]
			s.order()
			s.cursor--
			s.pick = true
		}), Line: true},
		{Binding: &ck.Later, When: func() bool { _, i := at(); return i >= 0 && i+1 < len(s.shown) }, Do: do(func() {
			_, i := at()
			s.shown[i+1], s.shown[i] = s.shown[i], s.shown[i+1]
			s.order()
			s.cursor++
			s.pick = true
		}), Line: true},
		{Binding: &ck.Defaults, Do: do(func() {
			s.shown = slices.Clone(s.l.Defaults)
			s.order()
			s.pick = false
		}), Line: true},
		{Binding: &ck.Close, Do: func() tea.Cmd { return ui.Done(s, nil) }, Line: true, Help: s.c.Back()},
		ui.OnLine(&s.c.Keys.Global.Help, ""),
		{Binding: &nav.Down, Do: do(func() { s.cursor++ })},
		{Binding: &nav.Up, Do: do(func() { s.cursor-- })},
		{Binding: &nav.Top, Do: do(func() { s.cursor = 0 })},
		{Binding: &nav.Bottom, Do: do(func() { s.cursor = len(s.all) - 1 })},
	}
}

// fitting are the shown columns the list has room for now.
func (s *Sheet) fitting() []string { return s.l.Fit(s.shown, s.picked) }

// ShortHelp lists the sheet's keys for the help line.
func (s *Sheet) ShortHelp() []key.Binding { return ui.ShortHelp(s.Actions()) }

// FullHelp lists the sheet's keys for the `?` overlay.
func (s *Sheet) FullHelp() [][]key.Binding {
	ck := s.c.Keys.Columns
	return [][]key.Binding{{ck.Toggle, ck.Earlier, ck.Later, ck.Defaults, ck.Close}}
}

// View renders the body: the title and one line per field.
func (s *Sheet) View() string {
	st := s.c.Styles
	lines := []string{st.Detail.Heading.Render(text.Pad("List columns (shown first, in order)", s.w))}
	fits := s.fitting()
	rows := max(1, s.h-1)
	off := max(0, s.cursor-rows+1)
	s.hits.Reset()
	for i := off; i < len(s.all) && len(lines) < s.h; i++ {
		s.hits.Set(len(lines), i)
		f := s.all[i]
		box := "[ ] "
		if slices.Contains(s.shown, f) {
			box = "[x] "
		}
		mark := "  "
		if i == s.cursor {
			mark = "▸ "
		}
		name := text.OneLine(f)
		if h := s.l.Head(f); h != strings.TrimPrefix(f, "labels.") {
			name += " (" + h + ")"
		}
		if slices.Contains(s.shown, f) && !slices.Contains(fits, f) {
			name += " · no room now"
			if !s.picked {
				name += " (space keeps it)"
			}
		}
		line := text.Pad(text.Truncate(mark+box+name, s.w), s.w)
		if i == s.cursor {
			line = st.List.Cursor.Render(line)
		}
		lines = append(lines, line)
	}
	for len(lines) < s.h {
		lines = append(lines, strings.Repeat(" ", s.w))
	}
	return strings.Join(lines[:s.h], "\n")
}

// Click moves the cursor to the field clicked; a second click shows or
// hides it (as space).
func (s *Sheet) Click(_, y int) tea.Cmd {
	if row, ok := s.hits.At(y); ok {
		return ui.ClickRow(&s.cursor, row, func() tea.Cmd { return ui.Do(s.Actions(), &s.c.Keys.Columns.Toggle) })
	}
	return nil
}

// Wheel moves the cursor by delta fields.
func (s *Sheet) Wheel(delta int) { ui.WheelCursor(&s.cursor, delta, len(s.all)) }

// Current is the field under the cursor.
func (s *Sheet) Current() string { return s.all[s.cursor] }
