// Package highlight colors text with the browser's own theme
// (styles.Styles.Code), so highlighted text matches the rest of the screen
// and follows NO_COLOR: JSON (JSON) and fenced code blocks by language
// (Code).
//
// JSON's tokenizer is this package's own, not Chroma's JSON lexer: JSON
// has five token classes, a hand tokenizer runs far faster than Chroma's
// regexp lexers on the big rows JSON views show, and text that is not
// quite JSON (a row cut short) keeps its text, colored as far as it can
// be. Code blocks in other languages use Chroma's lexers (code.go). Each
// style is turned into its SGR prefix once per Highlighter instead of
// calling lipgloss per token.
package highlight

import (
	"strings"

	"charm.land/lipgloss/v2"

	"evalview/tui/styles"
)

// MaxBytes caps how much text is highlighted; past it the text is returned
// as it is (still correct, just uncolored), so huge rows stay fast.
const MaxBytes = 64 << 10

// class is a token class the theme colors.
type class int

const (
	classText class = iota
	classKey
	classString
	classNumber
	classLiteral
	classPunct
	numClasses
)

// Highlighter colors JSON with one set of styles. Build it once per theme.
type Highlighter struct {
	off  bool
	pre  [numClasses]string
	post [numClasses]string
}

// Enabled reports whether the highlighter colors anything.
func (h *Highlighter) Enabled() bool { return h != nil && !h.off }

// New returns a highlighter for st; with st.NoColor it returns text as is.
func New(st *styles.Styles) *Highlighter {
	h := &Highlighter{off: st.NoColor}
	set := func(c class, s lipgloss.Style) {
		// Render a marker once to learn the style's opening and closing
		// sequences, then reuse them for every token.
		const mark = "\u2063"
		r := s.Render(mark)
		if i := strings.Index(r, mark); i >= 0 {
			h.pre[c], h.post[c] = r[:i], r[i+len(mark):]
		}
	}
	set(classKey, st.Code.Key)
	set(classString, st.Code.String)
	set(classNumber, st.Code.Number)
	set(classLiteral, st.Code.Literal)
	set(classPunct, st.Code.Punct)
	return h
}

// JSON returns s with JSON tokens colored. s must already be sanitized; the
// result has the same text and the same line breaks, and every line's
// styles are closed before its newline, so lines can be used one by one.
func (h *Highlighter) JSON(s string) string {
	if h == nil || h.off || s == "" {
		return s
	}
	head, tail := s, ""
	if len(s) > MaxBytes {
		cut := strings.LastIndexByte(s[:MaxBytes], '\n')
		if cut <= 0 {
			cut = MaxBytes
		}
		head, tail = s[:cut], s[cut:]
	}
	var b strings.Builder
	b.Grow(len(head) * 2)
	for rest := head; rest != ""; {
		n, c := token(rest)
		tok := rest[:n]
		rest = rest[n:]
		if c == classText || h.pre[c] == "" {
			b.WriteString(tok)
			continue
		}
		b.WriteString(h.pre[c])
		b.WriteString(tok)
		b.WriteString(h.post[c])
	}
	b.WriteString(tail)
	return b.String()
}

// token returns the length and class of the token s starts with. No token
// but whitespace holds a newline, so every line's styles are closed on it.
func token(s string) (int, class) {
	switch c := s[0]; {
	case c == '"':
		n := 1
		for n < len(s) && s[n] != '"' && s[n] != '\n' {
			if s[n] == '\\' && n+1 < len(s) && s[n+1] != '\n' {
				n++
			}
			n++
		}
		if n < len(s) && s[n] == '"' {
			n++
		}
		if isKey(s[n:]) {
			return n, classKey
		}
		return n, classString
	case c == '-' || c >= '0' && c <= '9':
		n := 1
		for n < len(s) && strings.IndexByte("0123456789.eE+-", s[n]) >= 0 {
			n++
		}
		return n, classNumber
	case strings.IndexByte("{}[],:", c) >= 0:
		return 1, classPunct
	case c >= 'a' && c <= 'z':
		n := 1
		for n < len(s) && s[n] >= 'a' && s[n] <= 'z' {
			n++
		}
		switch s[:n] {
		case "true", "false", "null":
			return n, classLiteral
		}
		return n, classText
	}
	n := 1
	for n < len(s) && !startsToken(s[n]) {
		n++
	}
	return n, classText
}

// startsToken reports whether c may start a token other than plain text.
func startsToken(c byte) bool {
	return c == '"' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || strings.IndexByte("{}[],:", c) >= 0
}

// isKey reports whether what follows a string makes it an object key: a
// colon after spaces.
func isKey(s string) bool {
	s = strings.TrimLeft(s, " \t")
	return s != "" && s[0] == ':'
}
