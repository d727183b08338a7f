// Package text holds the pure string helpers of the browser: sanitizing
// file content before it reaches the terminal, measuring, wrapping and
// truncating by display width (wide CJK characters count as two cells), and
// number formatting. Nothing here knows about panes or styles.
package text

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"evalview/internal/termsafe"
)

// Ellipsis marks text that was cut to fit.
const Ellipsis = "…"

// tabWidth is the tab stop distance used when expanding tabs.
const tabWidth = 4

// Sanitize makes text that comes from a file safe to print: it must never
// move the cursor, retitle the window, write the clipboard or reorder the
// line. It is termsafe.Visible (the one sanitizer every command shares:
// invalid UTF-8 as U+FFFD, C0 controls and DEL as their Control Pictures,
// C1 controls as \x9b-style and bidi controls as \u202e-style escapes,
// "\r\n" as "\n", a lone "\r" as ␍, U+2028/U+2029 as "\n"), with tabs
// expanded to spaces up to the next multiple of 4 columns for layout.
func Sanitize(s string) string {
	s = termsafe.Visible(s)
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	col := 0
	for _, r := range s {
		switch r {
		case '\n':
			b.WriteByte('\n')
			col = 0
		case '\t':
			n := tabWidth - col%tabWidth
			b.WriteString(strings.Repeat(" ", n))
			col += n
		default:
			b.WriteRune(r)
			col += runeWidth(r)
		}
	}
	return b.String()
}

// OneLine sanitizes s for a one-line place (an ID, a fact): newlines show
// as ⏎ so that nothing is hidden.
func OneLine(s string) string {
	return strings.ReplaceAll(Sanitize(s), "\n", "⏎")
}

// FirstLine returns the first non-blank line of s, sanitized and trimmed,
// with an ellipsis when more text follows it.
func FirstLine(s string) string {
	s = Sanitize(s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if strings.TrimSpace(strings.Join(lines[i+1:], "")) != "" {
			t += " " + Ellipsis
		}
		return t
	}
	return ""
}

// Width returns the display width of s in cells, ignoring ANSI sequences.
// Printable ASCII, by far the common case, is counted without the
// grapheme segmentation ansi.StringWidth does (which dominated wrapping
// megabytes of pretty-printed JSON).
func Width(s string) int {
	if !printableASCII(s) {
		return ansi.StringWidth(s)
	}
	return len(s)
}

// printableASCII reports whether s is printable ASCII only (no escape
// sequence, no control character, nothing wider or narrower than a cell
// a byte), whose width is its length.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// Truncate cuts s (which may hold ANSI styles) to at most w cells, ending
// with an ellipsis when something was cut.
func Truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if printableASCII(s) {
		// What ansi.Truncate does, without its grapheme segmentation: a
		// list's cells are mostly ASCII, and every frame cuts them.
		if len(s) <= w {
			return s
		}
		if w < ellipsisWidth {
			return ""
		}
		return s[:w-ellipsisWidth] + Ellipsis
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, Ellipsis)
}

// ellipsisWidth is Ellipsis's width in cells.
var ellipsisWidth = ansi.StringWidth(Ellipsis)

// TruncateMiddle cuts plain text s to at most w cells by replacing its
// middle with an ellipsis, keeping both ends: record ids often differ only
// in their last characters ("match_0001", "match_0002").
func TruncateMiddle(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	if w < 5 {
		return Truncate(s, w)
	}
	tail := (w - 1) / 2
	head := w - 1 - tail
	sw := ansi.StringWidth(s)
	for {
		out := ansi.Truncate(s, head, "") + Ellipsis + ansi.TruncateLeft(s, sw-tail, "")
		// A wide character astride the tail's cut is kept whole, one
		// cell too many: take one cell less (the fuzzer found it).
		if ansi.StringWidth(out) <= w || tail == 0 {
			return out
		}
		tail--
	}
}

// Pad truncates or pads s with spaces to exactly w cells.
func Pad(s string, w int) string {
	sw := Width(s)
	if sw > w {
		s = Truncate(s, w)
		sw = Width(s)
	}
	if n := w - sw; n > 0 {
		s += strings.Repeat(" ", n)
	}
	return s
}

// PadLeft truncates s or pads it on the left to exactly w cells.
func PadLeft(s string, w int) string {
	s = Truncate(s, w)
	if n := w - Width(s); n > 0 {
		s = strings.Repeat(" ", n) + s
	}
	return s
}

// Wrap sanitizes s and wraps it at w cells, at word boundaries when it can
// and inside long words when it must. Blank lines are kept; the result has
// at least one line. Every line is at most w cells wide.
func Wrap(s string, w int) []string {
	return WrapStyled(Sanitize(s), w)
}

// WrapStyled wraps s, which must already be sanitized and may carry ANSI
// styles, at w cells, where UAX #14 allows a break (linebreak.go). Styles
// continue across the new line breaks.
func WrapStyled(s string, w int) []string { return wrapAll(s, w, false) }

// WrapHanging is WrapStyled with a hanging indent: the lines a long line
// wraps into start under its first character, as pretty-printed JSON and
// code read best.
func WrapHanging(s string, w int) []string { return wrapAll(s, w, true) }

func wrapAll(s string, w int, hang bool) []string {
	if w < 1 {
		w = 1
	}
	var out []string
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimRight(line, " ")
		if Width(line) <= w {
			out = append(out, line)
			continue
		}
		for _, l := range wrapSpans(line, w, hang) {
			// A wide character cannot be split: if one still overflows
			// (w == 1), cut it rather than break the layout.
			if Width(l) > w {
				l = ansi.Truncate(l, w, "")
			}
			out = append(out, l)
		}
	}
	return out
}

// runeWidth is the display width of one rune, with a fast path for ASCII.
func runeWidth(r rune) int {
	if r >= 0x20 && r < 0x7f {
		return 1
	}
	return ansi.StringWidth(string(r))
}

// FormatScore formats a score or metric value compactly: two decimals for
// the usual 0..1000 range, fewer digits for big or tiny values; nan, inf
// and -inf as Python spells them, as check and summary do.
func FormatScore(v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 0):
		if v > 0 {
			return "inf"
		}
		return "-inf"
	case v == math.Trunc(v) && math.Abs(v) < 1e6 && math.Abs(v) >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 1e6 || (v != 0 && math.Abs(v) < 0.005):
		return strconv.FormatFloat(v, 'g', 3, 64)
	case math.Abs(v) >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// FormatDuration formats milliseconds as "850ms", "1.2s" or "2m05s".
func FormatDuration(ms float64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%.0fms", ms)
	case ms < 60000:
		return fmt.Sprintf("%.1fs", ms/1000)
	default:
		s := int(ms / 1000)
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
}

// Plural returns "1 issue" or "3 issues".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// FormatThreshold writes a threshold without trailing zeros ("8.5", "9").
func FormatThreshold(t float64) string { return strconv.FormatFloat(t, 'f', -1, 64) }
