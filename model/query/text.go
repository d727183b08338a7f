package query

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// indexFold finds sub in s ignoring case, without allocating, and returns
// the byte range of the match in s (-1, -1 when absent). sub must be
// lower-case. Matching is rune by rune with simple Unicode folding, so the
// match may differ in byte length from sub (the Kelvin sign matches k).
func indexFold(s, sub string) (int, int) {
	if sub == "" {
		return 0, 0
	}
	// At an ASCII byte of s only sub's own first byte can start a match
	// when that byte is ASCII: a cheap test before the rune-wise compare.
	c0, quick := sub[0], sub[0] < utf8.RuneSelf
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if !quick || lowerASCII(c) == c0 {
				if end, ok := foldPrefix(s, i, sub); ok {
					return i, end
				}
			}
			i++
			continue
		}
		if end, ok := foldPrefix(s, i, sub); ok {
			return i, end
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	return -1, -1
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// foldPrefix reports whether s[i:] starts with sub under Unicode simple
// folding, and where that prefix ends in s.
func foldPrefix(s string, i int, sub string) (int, bool) {
	for j := 0; j < len(sub); {
		if i >= len(s) {
			return 0, false
		}
		if a, b := s[i], sub[j]; a < utf8.RuneSelf && b < utf8.RuneSelf {
			// Both ASCII: sub is lower-case, so this is the whole fold test.
			if lowerASCII(a) != b {
				return 0, false
			}
			i, j = i+1, j+1
			continue
		}
		r1, n1 := utf8.DecodeRuneInString(s[i:])
		r2, n2 := utf8.DecodeRuneInString(sub[j:])
		if !equalFoldRune(r1, r2) {
			return 0, false
		}
		i, j = i+n1, j+n2
	}
	return i, true
}

func equalFoldRune(a, b rune) bool {
	if a == b {
		return true
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}

// compareNatural orders text the way people count: digit runs compare as
// numbers ("item2" < "item10"), letters ignore case, and exact byte order
// breaks the remaining ties so the order is total.
func compareNatural(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			ei, ej := digitsEnd(a, i), digitsEnd(b, j)
			if c := compareDigits(a[i:ei], b[j:ej]); c != 0 {
				return c
			}
			i, j = ei, ej
			continue
		}
		ra, na := utf8.DecodeRuneInString(a[i:])
		rb, nb := utf8.DecodeRuneInString(b[j:])
		if la, lb := unicode.ToLower(ra), unicode.ToLower(rb); la != lb {
			if la < lb {
				return -1
			}
			return 1
		}
		i, j = i+na, j+nb
	}
	switch {
	case len(a)-i < len(b)-j:
		return -1
	case len(a)-i > len(b)-j:
		return 1
	}
	return cmpString(a, b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func digitsEnd(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// compareDigits compares two digit runs by value; with equal values the
// one with fewer leading zeros comes first.
func compareDigits(a, b string) int {
	ta, tb := strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(ta) != len(tb) {
		if len(ta) < len(tb) {
			return -1
		}
		return 1
	}
	if c := cmpString(ta, tb); c != 0 {
		return c
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

// cmpString is strings.Compare with the built-in operators, which (unlike
// the assembly behind strings.Compare) do not make the arguments escape:
// that would cost an allocation per record in Filter.
func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
