package main

import (
	"io"

	"evalview/tui/text"
)

// safeWriter passes text meant for people through the browser's sanitizer:
// summaries quote file content (titles, model names, filter names), which
// must never reach the terminal as escape sequences. Newlines are kept;
// each Write is sanitized on its own, which suits fmt's whole-string
// writes.
type safeWriter struct{ w io.Writer }

func (s safeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, text.Sanitize(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
