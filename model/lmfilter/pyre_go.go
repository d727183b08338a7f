package lmfilter

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The fast path: most harness patterns ("The answer is (\-?[0-9\.\,]*[0-9]+)",
// "#### (\-?[0-9\.\,]+)", flexible-extract's two alternatives, the metric's
// regexes_to_ignore) use only syntax that Go's regexp (RE2) matches exactly
// as Python's backtracking `re` does, and RE2 runs them on the string's
// bytes in linear time, with a literal-prefix scan, instead of converting
// every response to runes. goTranslate accepts a pattern only when it is
// provably equivalent:
//
//   - the syntax is a subset both read alike: literals, '.', classes of
//     characters and ranges, \d \w \s (spelled with Python's Unicode sets,
//     as translatePattern does for regexp2), groups (?:...), (...) and
//     (?P<name>...), alternation, greedy and lazy quantifiers, ^ \A,
//     $ \Z, and the global flags (?s) and (?m) at the very start;
//     anything else (lookarounds, backreferences, \b, case folding,
//     verbose mode, scoped flags, possessive quantifiers) stays on regexp2;
//   - Go's leftmost-first matching picks the match a backtracking engine
//     picks, with the same submatches, except where a repeated
//     subexpression can match empty or holds a capturing group (the last
//     iteration's capture differs between engines): such patterns stay on
//     regexp2, as do patterns that can match the empty string anywhere,
//     since Python's rule after an empty match differs from Go's;
//   - groups are numbered by their opening parenthesis in both, and the
//     group count is checked against regexp2's;
//   - without (?m), Python's $ also matches before a final newline, which
//     Go cannot say: such a pattern is used on Go only for texts that do
//     not end in "\n" (Regexp.goFor).
//
// The differential test (pyre_go_test.go) runs both engines over every
// fixture and real response and requires identical results.

// goRegexp is a Python pattern's Go form and how to run it.
type goRegexp struct {
	re *regexp.Regexp
	// dollar is set when the pattern has a non-multiline $: texts ending
	// in "\n" must go to regexp2.
	dollar bool
	// anchored is set when the pattern has ^ or \A: a search must see the
	// text before its start, so matches are found on the whole string
	// rather than on the rest of it.
	anchored bool
	// prefix is a literal every match starts with (Go's LiteralPrefix);
	// literal is set when the pattern is just that literal, with no group.
	prefix  string
	literal bool
	// set, when not nil, holds every byte a match can contain: searches
	// run on runs of such bytes (pyre_go_window.go).
	set *byteSet
	// mini, when not nil, is the pattern as a plain backtracking loop
	// (pyre_go_mini.go).
	mini *miniRegexp
}

// pySpaceGo is str.isspace()'s set (translatePattern's [\s\x1c-\x1f] on
// regexp2, whose \s is unicode.IsSpace), as members of a Go class.
const pySpaceGo = `\t\n\v\f\r\x1c-\x1f \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}`

// pyWordGo is Python's \w (translatePattern's pyWordClass) in Go syntax.
const pyWordGo = `\p{L}\p{N}_`

// compileGo returns the Go form of pattern p, or nil when it is not
// provably equivalent to Python's. groups is the group count regexp2
// found.
func compileGo(p string, groups int) *goRegexp {
	src, dollar, ok := goTranslate(p)
	if !ok {
		return nil
	}
	tree, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil
	}
	if minLen(tree) == 0 || !safeRepeats(tree) {
		return nil
	}
	re, err := regexp.Compile(src)
	if err != nil || re.NumSubexp() != groups {
		return nil
	}
	g := &goRegexp{re: re, dollar: dollar, anchored: hasBeginAnchor(tree)}
	g.prefix, g.literal = re.LiteralPrefix()
	g.literal = g.literal && g.prefix != "" && re.NumSubexp() == 0
	if !g.anchored {
		g.set = matchBytes(tree)
		g.mini = compileMini(tree, re.NumSubexp()+1)
	}
	return g
}

// minLen is the fewest runes a match of r spans.
func minLen(r *syntax.Regexp) int {
	switch r.Op {
	case syntax.OpLiteral:
		return len(r.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minLen(r.Sub[0])
	case syntax.OpRepeat:
		return r.Min * minLen(r.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, s := range r.Sub {
			n += minLen(s)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, s := range r.Sub {
			if m := minLen(s); n < 0 || m < n {
				n = m
			}
		}
		return max(n, 0)
	}
	return 0 // star, quest, empty-width assertions, empty match
}

// safeRepeats reports whether no repeated subexpression of r can match
// empty or holds a capturing group.
func safeRepeats(r *syntax.Regexp) bool {
	switch r.Op {
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		if minLen(r.Sub[0]) == 0 || hasCapture(r.Sub[0]) {
			return false
		}
	}
	for _, s := range r.Sub {
		if !safeRepeats(s) {
			return false
		}
	}
	return true
}

func hasCapture(r *syntax.Regexp) bool {
	if r.Op == syntax.OpCapture {
		return true
	}
	for _, s := range r.Sub {
		if hasCapture(s) {
			return true
		}
	}
	return false
}

func hasBeginAnchor(r *syntax.Regexp) bool {
	if r.Op == syntax.OpBeginLine || r.Op == syntax.OpBeginText {
		return true
	}
	for _, s := range r.Sub {
		if hasBeginAnchor(s) {
			return true
		}
	}
	return false
}

// goTranslator writes the Go form of a Python pattern; ok turns false at
// the first construct outside the equivalent subset.
type goTranslator struct {
	src       []rune
	i         int
	out       strings.Builder
	multiline bool
	dollar    bool
}

// goTranslate returns the Go syntax for Python pattern p, whether it has a
// non-multiline $, and false when p is outside the subset.
func goTranslate(p string) (string, bool, bool) {
	t := &goTranslator{src: []rune(p)}
	if !t.flags() || !t.run() {
		return "", false, false
	}
	return t.out.String(), t.dollar, true
}

// flags reads global flags at the start: only s and m are taken.
func (t *goTranslator) flags() bool {
	for t.i+1 < len(t.src) && t.src[t.i] == '(' && t.src[t.i+1] == '?' {
		j := t.i + 2
		for j < len(t.src) && (t.src[j] == 's' || t.src[j] == 'm') {
			j++
		}
		if j == t.i+2 || j >= len(t.src) || t.src[j] != ')' {
			return true // not a flag group: the main loop judges it
		}
		fl := string(t.src[t.i+2 : j])
		t.multiline = t.multiline || strings.Contains(fl, "m")
		t.out.WriteString("(?" + fl + ")")
		t.i = j + 1
	}
	return true
}

func (t *goTranslator) peek(off int) (rune, bool) {
	if t.i+off < len(t.src) {
		return t.src[t.i+off], true
	}
	return 0, false
}

func (t *goTranslator) run() bool {
	depth := 0
	for t.i < len(t.src) {
		c := t.src[t.i]
		switch c {
		case '\\':
			if !t.escape() {
				return false
			}
		case '[':
			if !t.class() {
				return false
			}
		case '(':
			if !t.group() {
				return false
			}
			depth++
		case ')':
			if depth == 0 {
				return false
			}
			depth--
			t.out.WriteByte(')')
			t.i++
		case '{':
			if !t.brace() {
				return false
			}
		case '*', '+', '?':
			t.out.WriteRune(c)
			t.i++
			if !t.afterQuantifier() {
				return false
			}
		case '.', '|':
			t.out.WriteRune(c)
			t.i++
		case '^':
			t.out.WriteString(map[bool]string{true: "(?m:^)", false: `\A`}[t.multiline])
			t.i++
		case '$':
			if t.multiline {
				t.out.WriteString("(?m:$)")
			} else {
				t.out.WriteString(`\z`)
				t.dollar = true
			}
			t.i++
		default:
			t.literal(c)
			t.i++
		}
	}
	return depth == 0
}

// literal writes r so that Go reads it as that one character.
func (t *goTranslator) literal(r rune) {
	if r < utf8.RuneSelf && !isASCIIAlnum(r) {
		t.out.WriteString(fmt.Sprintf(`\x{%X}`, r))
		return
	}
	t.out.WriteRune(r)
}

func isASCIIAlnum(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// afterQuantifier takes a lazy '?'; a possessive '+' is refused.
func (t *goTranslator) afterQuantifier() bool {
	if n, ok := t.peek(0); ok {
		switch n {
		case '?':
			t.out.WriteByte('?')
			t.i++
		case '+':
			return false
		}
	}
	return true
}

// brace writes a Python repeat {m}, {m,}, {,n}, {m,n}, or a literal '{'
// when what follows is not one (as sre_parse reads it).
func (t *goTranslator) brace() bool {
	rep, ok := scanRepeat(t.src, t.i)
	lo, hi, comma, j := rep.lo, rep.hi, rep.comma, rep.end
	if !ok {
		t.literal('{')
		t.i++
		return true
	}
	if lo == "" {
		lo = "0"
	}
	l, err1 := strconv.Atoi(lo)
	h, err2 := strconv.Atoi(hi)
	if err1 != nil || l > 1000 || hi != "" && (err2 != nil || h > 1000 || h < l) {
		return false // Go caps repeats at 1000
	}
	t.out.WriteString("{" + strconv.Itoa(l))
	if comma {
		t.out.WriteByte(',')
		if hi != "" {
			t.out.WriteString(strconv.Itoa(h))
		}
	}
	t.out.WriteByte('}')
	t.i = j + 1
	return t.afterQuantifier()
}

// group writes the opening of (...), (?:...) or (?P<name>...).
func (t *goTranslator) group() bool {
	n, _ := t.peek(1)
	if n != '?' {
		t.out.WriteByte('(')
		t.i++
		return true
	}
	n2, _ := t.peek(2)
	switch n2 {
	case ':':
		t.out.WriteString("(?:")
		t.i += 3
		return true
	case 'P':
		if n3, _ := t.peek(3); n3 != '<' {
			return false // (?P=name) is a backreference
		}
		j := t.i + 4
		name := ""
		for j < len(t.src) && t.src[j] != '>' {
			r := t.src[j]
			if !(isASCIIAlnum(r) || r == '_') {
				return false
			}
			name += string(r)
			j++
		}
		if j >= len(t.src) || name == "" || isDigit(rune(name[0])) {
			return false
		}
		t.out.WriteString("(?P<" + name + ">")
		t.i = j + 1
		return true
	}
	return false
}

// escape writes a backslash sequence outside a class.
func (t *goTranslator) escape() bool {
	c, ok := t.peek(1)
	if !ok {
		return false
	}
	t.i += 2
	switch c {
	case 'd':
		t.out.WriteString(`\p{Nd}`)
	case 'D':
		t.out.WriteString(`\P{Nd}`)
	case 'w':
		t.out.WriteString(`[` + pyWordGo + `]`)
	case 'W':
		t.out.WriteString(`[^` + pyWordGo + `]`)
	case 's':
		t.out.WriteString(`[` + pySpaceGo + `]`)
	case 'S':
		t.out.WriteString(`[^` + pySpaceGo + `]`)
	case 'A':
		t.out.WriteString(`\A`)
	case 'Z':
		t.out.WriteString(`\z`)
	default:
		r, ok := t.charEscape(c)
		if !ok {
			return false
		}
		t.literal(r)
	}
	return true
}

// charEscape reads an escape that stands for one character (t.i is past
// the escaped character c).
func (t *goTranslator) charEscape(c rune) (rune, bool) {
	switch c {
	case 'a':
		return '\a', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	case 'x', 'u', 'U':
		n := map[rune]int{'x': 2, 'u': 4, 'U': 8}[c]
		if t.i+n > len(t.src) {
			return 0, false
		}
		v, err := strconv.ParseUint(string(t.src[t.i:t.i+n]), 16, 32)
		if err != nil || v > utf8.MaxRune || v >= 0xD800 && v <= 0xDFFF {
			return 0, false
		}
		t.i += n
		return rune(v), true
	}
	if c < utf8.RuneSelf && (isASCIIAlnum(c) || c == '_') {
		return 0, false // \b, \B, group references, octal, bad escapes
	}
	return c, true // an escaped punctuation or non-ASCII character
}
