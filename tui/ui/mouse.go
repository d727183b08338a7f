package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Rows maps the lines of a sheet's body, as it was last drawn, to the
// rows (or items) they show, for the mouse: View records each row's line
// (Set), Click reads the row under the pointer (At). A sheet whose body
// scrolls records its content's lines and gives At the scroll offset.
type Rows struct{ at map[int]int }

// Reset forgets the lines of the last view (View calls it first).
func (r *Rows) Reset() { clear(r.at) }

// Set records that line shows row.
func (r *Rows) Set(line, row int) {
	if r.at == nil {
		r.at = map[int]int{}
	}
	r.at[line] = row
}

// At is the row shown on line y, if any.
func (r *Rows) At(y int) (int, bool) {
	row, ok := r.at[y]
	return row, ok
}

// ClickRow moves *cursor to row, or, when the cursor is there already
// (the second click of a double click), runs choose (enter's action).
func ClickRow(cursor *int, row int, choose func() tea.Cmd) tea.Cmd {
	if *cursor == row && choose != nil {
		return choose()
	}
	*cursor = row
	return nil
}

// WheelCursor moves *cursor by delta rows, kept among n.
func WheelCursor(cursor *int, delta, n int) {
	*cursor = max(0, min(*cursor+delta, n-1))
}

// Do runs the first of actions bound to b that is offered and applies,
// as pressing b's key would: what a click does that a key does too.
func Do(actions []Action, b *key.Binding) tea.Cmd {
	for _, a := range actions {
		if a.Binding != b || !a.runs() || a.Enabled != nil && !a.Enabled() || a.When != nil && !a.When() {
			continue
		}
		if a.DoKey != nil {
			if ks := b.Keys(); len(ks) > 0 {
				return a.DoKey(tea.KeyPressMsg{Text: ks[0]})
			}
			return nil
		}
		return a.Do()
	}
	return nil
}

// WheelScroll scrolls sc by delta lines; View keeps it in range.
func WheelScroll(sc *Scroll, delta int) { sc.Offset = max(0, sc.Offset+delta) }
