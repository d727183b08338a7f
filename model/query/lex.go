package query

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// span is one term of a query line as written, with byte offsets.
type span struct {
	start, end int // the whole term, dashes included
	body       int // where the term starts after its leading dashes
	dashes     int
	// op is the byte offset of the operator in the line, -1 for a bare
	// word; opEnd is where the value starts.
	op, opEnd    int
	unterminated bool
}

// raw returns the term's text.
func (sp span) raw(line string) string { return line[sp.start:sp.end] }

// lex splits a query line into term spans. It never fails: an
// unterminated quote runs to the end of the line and is flagged, so that
// completion can work on a line being typed.
func lex(line string) []span {
	var out []span
	i := 0
	for i < len(line) {
		r, n := utf8.DecodeRuneInString(line[i:])
		if unicode.IsSpace(r) {
			i += n
			continue
		}
		sp := lexTerm(line, i)
		out = append(out, sp)
		i = sp.end
	}
	return out
}

// lexTerm scans the term starting at i, which is not white space.
func lexTerm(line string, i int) span {
	sp := span{start: i, op: -1, opEnd: -1}
	for i < len(line) && line[i] == '-' {
		i++
		sp.dashes++
	}
	sp.body = i
	inQuote := false
	for i < len(line) {
		r, n := utf8.DecodeRuneInString(line[i:])
		switch {
		case inQuote && r == '\\' && i+1 < len(line):
			// Skip the escaped character so that \" does not close the quote.
			_, m := utf8.DecodeRuneInString(line[i+1:])
			i += 1 + m
			continue
		case r == '"':
			inQuote = !inQuote
		case inQuote:
		case unicode.IsSpace(r):
			sp.end = i
			return sp
		case sp.op < 0:
			if l := opLen(line[i:]); l > 0 {
				sp.op, sp.opEnd = i, i+l
				i += l
				continue
			}
		}
		i += n
	}
	sp.end = len(line)
	sp.unterminated = inQuote
	return sp
}

// opLen returns the length of the operator s starts with, or 0.
func opLen(s string) int {
	switch s[0] {
	case '<', '>', '!':
		if len(s) > 1 && s[1] == '=' {
			return 2
		}
		if s[0] == '!' {
			return 0 // a lone ! is text
		}
		return 1
	case '=', '~', ':':
		return 1
	}
	return 0
}

// unquote decodes a term part: quotes are removed, and inside them \" and
// \\ stand for " and \ while other backslashes are kept. quoted tells
// whether the part had quotes at all.
func unquote(s string) (out string, quoted bool) {
	if strings.IndexByte(s, '"') < 0 {
		return s, false
	}
	var b strings.Builder
	inQuote := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			inQuote, quoted = !inQuote, true
		case inQuote && c == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\'):
			b.WriteByte(s[i+1])
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), quoted
}

// quote wraps s in double quotes so that unquote gives s back: " and \
// are escaped where unquote would otherwise read them as an escape.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\' && (i+1 == len(s) || s[i+1] == '"' || s[i+1] == '\\'):
			b.WriteString(`\\`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// hasSpaceOrQuote reports whether s holds white space or a double quote,
// which always need quoting.
func hasSpaceOrQuote(s string) bool {
	for _, r := range s {
		if r == '"' || unicode.IsSpace(r) {
			return true
		}
	}
	return false
}

// quoteWord quotes a bare word or field name when it would otherwise read
// as something else: empty, the keyword not, a leading dash (negation), an
// operator, a quote or white space.
func quoteWord(s string) string {
	if s == "" || s == "not" || s[0] == '-' || hasSpaceOrQuote(s) ||
		strings.ContainsAny(s, "=<>~:") || strings.Contains(s, "!=") {
		return quote(s)
	}
	return s
}

// quoteField quotes a field name like a bare word, and also when it ends
// in ! (which the = after it would turn into !=).
func quoteField(s string) string {
	if strings.HasSuffix(s, "!") {
		return quote(s)
	}
	return quoteWord(s)
}

// quoteValue quotes a value after an operator. Only emptiness, quotes and
// white space require it; values of = are also quoted when they hold
// anything but letters, digits and _.-@/+,%# so that a term such as
// answer="[invalid]" reads unambiguously. Regexes stay bare when they can.
func quoteValue(s string, regex bool) string {
	if s == "" || hasSpaceOrQuote(s) {
		return quote(s)
	}
	if regex {
		return s
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_.-@/+,%#", r) {
			return quote(s)
		}
	}
	return s
}
