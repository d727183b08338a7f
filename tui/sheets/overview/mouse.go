package overview

import (
	tea "charm.land/bubbletea/v2"

	"evalview/tui/ui"
)

// posAt is the column cursor's position of the column drawn at x in the
// last view: 0 the task (and the metric), 1 the delta, then the models
// shown; ok is false past the last column.
func (s *Sheet) posAt(x int) (int, bool) {
	l := s.drawn
	at := 2 + l.taskW + 1
	if l.metricW > 0 {
		at += l.metricW + 1
	}
	if x < at {
		return 0, true
	}
	if l.delta {
		if x < at+deltaW+1 {
			return 1, true
		}
		at += deltaW + 1
	}
	for c := l.first; c <= l.last && c < len(l.colW); c++ {
		if x < at+l.colW[c]+1 {
			return s.firstModelPos() + c, true
		}
		at += l.colW[c] + 1
	}
	return 0, false
}

// setPos puts the column cursor on pos, the compared column following it
// as with h and l.
func (s *Sheet) setPos(pos int) {
	s.pos = max(0, min(pos, s.firstModelPos()+len(s.table.Columns)-1))
	if c := s.column(); c >= 0 && c != s.view.Baseline {
		s.view.Compared = c
	}
}

// Click takes a click on the body: on a heading it sorts by that column
// (again: reverses, as s); on a cell it moves both cursors there; on the
// cell under the cursors already (a double click) it opens the task in
// that column, as enter.
func (s *Sheet) Click(x, y int) tea.Cmd {
	if s.filter.Typing || s.table == nil {
		return nil
	}
	heading := 1 + s.headLines()
	switch {
	case y == heading:
		if p, ok := s.posAt(x); ok {
			s.setPos(p)
			s.sortHere()
		}
		return nil
	case y > heading && y <= heading+s.listRows():
		i := s.offset + y - heading - 1
		if i >= len(s.rows) {
			return nil
		}
		p, ok := s.posAt(x)
		if i == s.cursor && (!ok || p == s.pos || p == 0) {
			return s.open(false)
		}
		s.cursor = i
		if ok && p > 0 {
			s.setPos(p)
		}
	}
	return nil
}

// Wheel moves the cursor by delta tasks.
func (s *Sheet) Wheel(delta int) { ui.WheelCursor(&s.cursor, delta, len(s.rows)) }
