package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/tui/keys"
)

// LineEditor is the text of a line being typed: the search and prompts
// of the input line, and the sheets that filter as you type. (Bubbles'
// textinput would do, but it pulls in a clipboard module this build does
// not have.)
type LineEditor struct {
	value []rune
}

// maxLine caps a line's length.
const maxLine = 200

// Value returns the text.
func (q *LineEditor) Value() string { return string(q.value) }

// Update applies an editing key and reports whether the text changed:
// typed text, or ed's keys (delete a character, a word, the line).
func (q *LineEditor) Update(k tea.KeyPressMsg, ed keys.Edit) bool {
	switch {
	case key.Matches(k, ed.DeleteChar):
		if len(q.value) == 0 {
			return false
		}
		q.value = q.value[:len(q.value)-1]
		return true
	case key.Matches(k, ed.Clear):
		changed := len(q.value) > 0
		q.value = nil
		return changed
	case key.Matches(k, ed.DeleteWord):
		n := len(q.value)
		for n > 0 && q.value[n-1] == ' ' {
			n--
		}
		for n > 0 && q.value[n-1] != ' ' {
			n--
		}
		changed := n != len(q.value)
		q.value = q.value[:n]
		return changed
	}
	if k.Mod&^tea.ModShift != 0 || k.Text == "" {
		return false
	}
	return q.Insert(k.Text)
}

// Insert appends printable text (control characters and newlines are
// dropped) and reports whether anything was added.
func (q *LineEditor) Insert(s string) bool {
	added := false
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || len(q.value) >= maxLine {
			continue
		}
		q.value = append(q.value, r)
		added = true
	}
	return added
}

// Filter is a line a sheet's rows are filtered by, typed after `/`:
// while Typing, keys edit it, enter keeps it and esc drops it (the
// overview, the dataset picker).
type Filter struct {
	Typing bool
	line   LineEditor
}

// Value is the filter's text.
func (f *Filter) Value() string { return f.line.Value() }

// Clear drops the filter.
func (f *Filter) Clear() { f.line = LineEditor{} }

// Update takes a key or a pasted text while Typing: handled is false for
// any other message, and when not typing; changed reports that the text
// changed (the sheet filters its rows again).
func (f *Filter) Update(msg tea.Msg, km *keys.KeyMap) (handled, changed bool) {
	if !f.Typing {
		return false, false
	}
	switch msg := msg.(type) {
	case tea.PasteMsg:
		return true, f.line.Insert(msg.Content)
	case tea.KeyPressMsg:
		return true, f.key(msg, km)
	}
	return false, false
}

// key applies a key while Typing and reports whether the text changed.
func (f *Filter) key(k tea.KeyPressMsg, km *keys.KeyMap) (changed bool) {
	switch {
	case key.Matches(k, km.Search.Confirm):
		f.Typing = false
	case key.Matches(k, km.Search.Cancel):
		f.Typing = false
		changed = f.Value() != ""
		f.Clear()
	default:
		changed = f.line.Update(k, km.Edit)
	}
	return changed
}

// KeepInView returns the first row to show of n so that cursor is within
// a window of rows rows starting near offset.
func KeepInView(cursor, offset, rows, n int) int {
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+rows {
		offset = cursor - rows + 1
	}
	return max(0, min(offset, n-rows))
}
