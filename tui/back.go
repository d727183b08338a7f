package tui

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"evalview/tui/text"
	"evalview/tui/ui"
)

// The back stack: esc goes back along where the user came from. A move
// elsewhere (T to the overview, enter in the overview or the runs of a
// task to a dataset's list or record, a dataset chosen in the picker)
// leaves a place on the trail first; esc in the list, once it has
// nothing of its own to clear, returns to the last place left, and a
// sheet that closes (esc) shows the one under it, which is where the
// user came from. It was a toggle: list, overview, list...

// maxTrail bounds the trail: a user who goes back and forth a thousand
// times keeps the last places.
const maxTrail = 64

// place is where the user was: the sheets open (as they were left), the
// dataset shown and the pane focused.
type place struct {
	sheets []ui.Sheet
	cur    int
	focus  focus
}

// here is the place the user is at.
func (m *Model) here() place {
	return place{sheets: slices.Clone(m.sheets.list), cur: m.cur, focus: m.focus}
}

// same reports whether p and q are one place.
func (p place) same(q place) bool {
	return p.cur == q.cur && p.focus == q.focus && slices.Equal(p.sheets, q.sheets)
}

// leave puts the place the user is at on the trail, before a move
// elsewhere; twice the same place is kept once.
func (m *Model) leave() {
	p := m.here()
	if n := len(m.trail); n > 0 && m.trail[n-1].same(p) {
		return
	}
	m.trail = append(m.trail, p)
	if len(m.trail) > maxTrail {
		m.trail = slices.Delete(m.trail, 0, len(m.trail)-maxTrail)
	}
}

// arrived drops the last place left when the user is back at it by
// other means (a sheet closed): esc then goes further back.
func (m *Model) arrived() {
	if n := len(m.trail); n > 0 && m.trail[n-1].same(m.here()) {
		m.trail = m.trail[:n-1]
	}
}

// goBack returns to the last place left: its dataset, its sheets as they
// were left, its pane.
func (m *Model) goBack() tea.Cmd {
	n := len(m.trail)
	if n == 0 {
		return nil
	}
	p := m.trail[n-1]
	m.trail = m.trail[:n-1]
	var cmd tea.Cmd
	if p.cur != m.cur && p.cur < len(m.datasets) {
		cmd = m.switchDataset(p.cur)
	}
	m.sheets.closeAll()
	for _, s := range p.sheets {
		m.sheets.push(s)
		if s == ui.Sheet(m.overview) {
			m.overview.Refresh()
		}
	}
	m.focus = p.focus
	return cmd
}

// forgetSheetsOf drops the sheets of dataset i from the trail (a reload
// replaced it: they show the old one); the overview, which reads the
// datasets as they are, stays.
func (m *Model) forgetSheetsOf(i int) {
	for k := range m.trail {
		if m.trail[k].cur != i {
			continue
		}
		m.trail[k].sheets = slices.DeleteFunc(m.trail[k].sheets, func(s ui.Sheet) bool { return s != ui.Sheet(m.overview) })
	}
}

// placeName names a place for the help line: its top sheet, else the
// dataset's list.
func (m *Model) placeName(p place) string {
	if n := len(p.sheets); n > 0 {
		if name := sheetName(p.sheets[n-1]); name != "" {
			return name
		}
	}
	if p.cur < len(m.datasets) {
		if p.cur == m.cur {
			return "list"
		}
		return text.Truncate(text.OneLine(m.datasets[p.cur].Title), 24)
	}
	return ""
}

// sheetName is what a sheet is called on the help line ("overview").
func sheetName(s ui.Sheet) string {
	if d, ok := s.(ui.Describer); ok {
		return strings.ToLower(text.OneLine(d.Describe().Title))
	}
	return text.OneLine(s.Title())
}

// backName is where esc goes from the room on screen, for the help line:
// over a sheet, what is under it; in the list, the last place left; ""
// when esc goes nowhere.
func (m *Model) backName() string {
	if n := len(m.sheets.list); n > 0 {
		if n > 1 {
			return sheetName(m.sheets.list[n-2])
		}
		return "list"
	}
	if n := len(m.trail); n > 0 && m.focus == focusList {
		return m.placeName(m.trail[n-1])
	}
	return ""
}
