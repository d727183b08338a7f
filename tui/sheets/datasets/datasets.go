// Package datasets is the dataset picker (D): one row per opened dataset,
// its kind, records and issues; enter shows the chosen one.
package datasets

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"evalview/model"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// Sheet picks one of the opened datasets.
type Sheet struct {
	c      *ui.Common
	ds     []*model.Dataset
	cursor int
	offset int
	w, h   int
}

// New opens the picker with the cursor on dataset cur.
func New(c *ui.Common, ds []*model.Dataset, cur int) *Sheet {
	return &Sheet{c: c, ds: ds, cursor: cur}
}

// Title is empty: the status bar names nothing while the picker shows.
func (s *Sheet) Title() string { return "" }

// SetSize sets the picker's area (title line included).
func (s *Sheet) SetSize(w, h int) {
	s.w, s.h = w, h
	s.clamp()
}

func (s *Sheet) rows() int { return max(1, s.h-1) }

func (s *Sheet) clamp() {
	s.cursor = max(0, min(s.cursor, len(s.ds)-1))
	if s.cursor < s.offset {
		s.offset = s.cursor
	}
	if s.cursor >= s.offset+s.rows() {
		s.offset = s.cursor - s.rows() + 1
	}
	s.offset = max(0, min(s.offset, len(s.ds)-s.rows()))
}

// moveBy moves the cursor.
func (s *Sheet) moveBy(d int) {
	s.cursor += d
	s.clamp()
}

// Update moves in the picker, opens a dataset or closes.
func (s *Sheet) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	km := s.c.Keys
	switch {
	case key.Matches(k, km.Dataset.Close, km.Global.Quit):
		return ui.Done(s, nil)
	case key.Matches(k, km.Dataset.Choose):
		return ui.Done(s, ui.DatasetMsg{Index: s.cursor})
	default:
		s.cursor, _ = ui.CursorKey(km.Nav, k, s.cursor, len(s.ds), s.rows())
		s.clamp()
	}
	return nil
}

// Wheel moves the cursor by delta rows.
func (s *Sheet) Wheel(delta int) { s.moveBy(delta) }

// Click opens the dataset on row y (under the title line).
func (s *Sheet) Click(_, y int) tea.Cmd {
	i := s.offset + y - 1
	if y < 1 || i >= len(s.ds) {
		return nil
	}
	return ui.Done(s, ui.DatasetMsg{Index: i})
}

// ShortHelp lists the picker's keys for the help line.
func (s *Sheet) ShortHelp() []key.Binding {
	k := s.c.Keys
	return []key.Binding{k.Nav.Down, k.Nav.Up, k.Dataset.Choose, k.Dataset.Close}
}

// FullHelp lists the picker's keys.
func (s *Sheet) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

// View renders the dataset rows.
func (s *Sheet) View() string {
	st := s.c.Styles
	out := []string{text.Pad(st.Overlay.Title.Render(" Datasets")+st.Detail.Subtle.Render("  (enter opens, esc closes)"), s.w)}
	numW := len(strconv.Itoa(len(s.ds)))
	for i := s.offset; i < len(s.ds) && i < s.offset+s.rows(); i++ {
		d := s.ds[i]
		e, w := model.CountIssues(d.Issues)
		info := string(d.Kind) + " · " + text.Plural(d.Records.Len(), "record")
		if e+w > 0 {
			info += " · " + text.Plural(e+w, "dataset issue")
		}
		if n := model.CountNotes(d.Issues); n > 0 { // how it was read: no issue
			info += " · " + text.Plural(n, "note")
		}
		line := text.PadLeft(strconv.Itoa(i+1), numW) + "  " + text.OneLine(d.Title) + "  " + st.Detail.Subtle.Render(info)
		if i == s.cursor {
			out = append(out, st.Overlay.Selected.Render(text.Pad(" ▸ "+ansi.Strip(line), s.w)))
			continue
		}
		out = append(out, text.Pad("   "+line, s.w))
	}
	for len(out) < s.h {
		out = append(out, strings.Repeat(" ", s.w))
	}
	return strings.Join(out[:s.h], "\n")
}
