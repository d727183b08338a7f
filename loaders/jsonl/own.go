package jsonl

import "strings"

// Own returns part, a piece of whole (a title cut from a question), in
// memory of its own when it is much shorter: kept in a list row, a piece
// would otherwise keep all of whole alive (a narrative of many lines, a
// long problem: kilobytes a record, for every record of every file open).
func Own(part, whole string) string {
	if 2*len(part) < len(whole) {
		return strings.Clone(part)
	}
	return part
}

// FirstLine is s's first line that is not blank, trimmed and clipped to
// max runes: a record's title in a list.
func FirstLine(s string, max int) string {
	whole := s
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return Own(Clip(strings.TrimSpace(s), max), whole)
}
