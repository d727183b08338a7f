// Package pylit reads Python string literals as repr writes them, for the
// loaders that meet Python's text in files (lighteval's details written
// with str(), lm-eval configs that hold a repr of a list).
package pylit

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// String reads the quoted string literal at the start of s (either quote)
// with Python's escapes, and returns its value and the number of bytes it
// took. An escape Python does not know is kept as written, backslash and
// all, as Python keeps it.
func String(s string) (string, int, error) {
	if s == "" || (s[0] != '\'' && s[0] != '"') {
		return "", 0, errors.New("no string literal")
	}
	q := s[0]
	var b strings.Builder
	i := 1
	for i < len(s) {
		c := s[i]
		switch {
		case c == q:
			return b.String(), i + 1, nil
		case c != '\\':
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(s) {
			break
		}
		e := s[i+1]
		i += 2
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+n > len(s) {
				return "", 0, errors.New("short escape")
			}
			r, err := strconv.ParseUint(s[i:i+n], 16, 32)
			if err != nil || r > utf8.MaxRune {
				return "", 0, errors.New("bad escape")
			}
			b.WriteRune(rune(r))
			i += n
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return "", 0, errors.New("unterminated string")
}
