// Package termsafe is evalview's one sanitizer for every byte bound for a
// terminal, an output file or the clipboard. Artifacts are written by
// models and by people, and a file name is whatever the folder holds: text
// from either must never move the cursor, retitle the window, write the
// clipboard (OSC 52) or make a line display in another order than it reads
// (Trojan Source). Terminals act on C0 controls (ESC, BEL...), DEL and,
// some of them, on C1 controls (U+0080..U+009F: U+009B is a CSI); bidi
// embeddings, overrides and isolates reorder what follows them.
//
// Two forms, one class of characters (Dangerous):
//
//   - Visible, for text meant for people (the browser, check and summary
//     output, error messages, CSV cells, copied text): each such character
//     is shown as a visible stand-in ("␛", `\x9b`, `\u202e`); lossy, as a
//     picture is.
//   - EscapeJSON, for JSON (export, summary --json, check --json, the
//     record JSON that `y` copies, the notes file): each is written as a
//     \uXXXX escape, which any JSON reader decodes back: lossless.
//
// Invalid UTF-8 becomes U+FFFD in both, as encoding/json decodes it.
//
// The package has no dependencies beyond the standard library, so that
// loaders, model and cmd can use it as well as the browser.
package termsafe

import (
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Dangerous reports whether r can act on a terminal or reorder the text
// around it: C0 controls, DEL, C1 controls, the bidi embeddings,
// overrides, isolates and marks, and the Unicode line and paragraph
// separators (which some terminals and editors break lines at). Newline
// and tab are controls too: each form decides what to do with them.
func Dangerous(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	}
	return isBidi(r) || r == 0x2028 || r == 0x2029
}

// isBidi reports the explicit directional formatting characters: LRE, RLE,
// PDF, LRO, RLO (U+202A..U+202E), the isolates LRI, RLI, FSI, PDI
// (U+2066..U+2069), and the marks LRM, RLM and ALM.
func isBidi(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}

// plain reports whether s is printable ASCII plus newlines and tabs (the
// common case, which needs no copy).
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x7f || (c < 0x20 && c != '\n' && c != '\t') {
			return false
		}
	}
	return true
}

// Visible returns s with every dangerous character shown visibly:
//
//   - invalid UTF-8 becomes U+FFFD;
//   - C0 controls (ESC, BEL, ...) and DEL become their Control Pictures
//     (␛ ␇ ␡), so "\x1b]2;pwned\x07" reads "␛]2;pwned␇";
//   - C1 controls print as `\x9b`-style escapes;
//   - bidi controls print as `\u202e`-style escapes;
//   - "\r\n" becomes "\n", a lone "\r" prints as ␍, U+2028 and U+2029
//     become "\n";
//   - a character piled with more than MaxCluster marks, joiners and
//     selectors (one grapheme cluster of thousands of code points) keeps
//     the first MaxCluster and says how many it drops: "a…(+9984 marks)".
//     Terminals draw such a cluster over neighbouring cells, or stall on
//     it; no script needs more than a handful.
//
// Newlines and tabs are kept: they cannot act beyond the line they end or
// the cell they fill.
func Visible(s string) string {
	if plain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	ext, dropped := 0, 0 // the run of extending runes, those left out of it
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if extends(r) || ext > 0 && pictographic(r) && prevJoins(s, i-size) {
			if ext++; ext > MaxCluster {
				dropped++
				continue
			}
		} else {
			if dropped > 0 {
				b.WriteString("…(+" + strconv.Itoa(dropped) + " marks)")
			}
			ext, dropped = 0, 0
		}
		if r == utf8.RuneError && size <= 1 {
			b.WriteRune(utf8.RuneError)
			continue
		}
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\r' && i < len(s) && s[i] == '\n':
			// the \n that follows ends the line
		case !Dangerous(r):
			b.WriteRune(r)
		default:
			b.WriteString(visibleForm(r))
		}
	}
	if dropped > 0 {
		b.WriteString("…(+" + strconv.Itoa(dropped) + " marks)")
	}
	return b.String()
}

// MaxCluster is how many marks, joiners and selectors Visible keeps on
// one character: the longest emoji sequences (a family, a flag of tags)
// and the most stacked scripts use well under it.
const MaxCluster = 16

// extends reports whether r attaches to the character before it: a
// combining mark, the zero-width joiner, a variation selector, an emoji
// skin-tone modifier or a tag character. (The standard library has no
// grapheme segmentation; these classes are the ones a cluster grows by
// without bound.)
func extends(r rune) bool {
	switch {
	case r < 0x300:
		return false
	case r == 0x200d, r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef,
		r >= 0x1f3fb && r <= 0x1f3ff, r >= 0xe0020 && r <= 0xe007f:
		return true
	}
	return unicode.Is(unicode.M, r)
}

// pictographic reports the symbols a zero-width joiner takes into its
// cluster (emoji and other pictographs); punctuation such as the clip's
// "…" is not one, so Visible of its own output keeps it.
func pictographic(r rune) bool {
	return r >= 0x2000 && unicode.Is(unicode.So, r)
}

// prevJoins reports whether the rune ending at byte i of s is a
// zero-width joiner, which takes the next character into its cluster.
func prevJoins(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r == 0x200d
}

// visibleForm is the stand-in Visible prints for dangerous rune r.
func visibleForm(r rune) string {
	switch {
	case r == 0x2028 || r == 0x2029:
		return "\n"
	case r < 0x20:
		return string(0x2400 + r) // Control Pictures: ␀..␟ (␍ for a lone \r)
	case r == 0x7f:
		return "␡"
	case r <= 0x9f:
		return `\x` + hex2(int(r))
	}
	return `\u` + hex4(int(r))
}

const hexDigits = "0123456789abcdef"

func hex2(v int) string { return string([]byte{hexDigits[v>>4&0xf], hexDigits[v&0xf]}) }

func hex4(v int) string { return hex2(v>>8) + hex2(v) }

// Line is Visible for a one-line place (an error message, a CSV header, an
// id): newlines show as ⏎ and tabs as a space, so that nothing is hidden
// and nothing spills onto another line.
func Line(s string) string {
	v := Visible(s)
	if strings.ContainsAny(v, "\n\t") {
		v = strings.NewReplacer("\n", "⏎", "\t", " ").Replace(v)
	}
	return v
}

// EscapeJSON rewrites encoded JSON so that no dangerous character is left
// raw in it: each becomes a \uXXXX escape (inside a string, where it can
// only be, that decodes back to the same character), and invalid UTF-8
// becomes \ufffd. Newlines and tabs, which encoders write between tokens,
// are kept. encoding/json already escapes C0 controls, U+2028 and U+2029;
// it leaves DEL, C1 controls and bidi controls raw, as it does text passed
// through a json.RawMessage or json.Indent. The result is b itself when
// nothing needed escaping.
func EscapeJSON(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] < 0x7f && (b[i] >= 0x20 || b[i] == '\n' || b[i] == '\t') {
		i++
	}
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	out = append(out, b[:i]...)
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			out = append(out, `\ufffd`...)
		case r == '\n' || r == '\t' || !Dangerous(r):
			out = append(out, b[i:i+size]...)
		default:
			out = append(out, `\u`...)
			out = append(out, hex4(int(r))...)
		}
		i += size
	}
	return out
}

// Writer passes every Write through Visible: for text output that fmt
// writes in whole strings (each Write is sanitized on its own, so a
// character cut across two Writes would show as U+FFFD).
type Writer struct{ W io.Writer }

// Write writes Visible(p) and reports len(p) on success.
func (w Writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.W, Visible(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// JSONWriter passes every Write through EscapeJSON: for json.Encoder,
// which writes one whole value per Write.
type JSONWriter struct{ W io.Writer }

// Write writes EscapeJSON(p) and reports len(p) on success.
func (w JSONWriter) Write(p []byte) (int, error) {
	if _, err := w.W.Write(EscapeJSON(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
