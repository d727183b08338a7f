package lmfilter

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Python's `re` and .NET's regex syntax (which regexp2 parses) mostly
// agree: both backtrack, prefer the leftmost alternative, support
// lookarounds and backreferences, and give `$` the same "end or before a
// final newline" meaning. translatePattern rewrites the places where they
// differ so the compiled regex means what Python would:
//
//	(?P<name>...)  -> (?<name>...)      (?P=name) -> \k<name>
//	\Z             -> \z                \1 ... \99 -> \k<N>
//	\xhh, \0, \ooo -> \u00hh            \UXXXXXXXX -> the character itself
//	{,n}           -> {0,n}             a literal { -> \{
//	\w, \W, \b, \B -> Python's word set (letters, digits of any N category, _)
//	\s, \S         -> .NET's \s plus \x1c-\x1f, which str.isspace() counts
//	[ inside a set -> \[ (.NET would read -[ as set subtraction)
//	(?x) comments and whitespace are removed here; global flags are hoisted.
//
// Patterns Python itself rejects (bad escapes, unbalanced parentheses) are
// rejected too, since the harness could never have run them. What .NET
// cannot express is reported as an error naming the pattern: possessive
// quantifiers, \N{...} names and the (?a)/(?L) flags.

// pyWordClass is the set Python's \w matches in a str pattern: characters
// for which str.isalnum() is true, plus the underscore.
const pyWordClass = `\p{L}\p{N}_`

// pyNonWordMembers spells Python's \W as positive categories, for use
// inside a set: every category but letters and numbers, and the connector
// punctuation (Pc) except '_'. regexp2 mishandles a negated class inside a
// negated set ([^\W\d]), and .NET's \W excludes marks, which Python's
// includes.
const pyNonWordMembers = `\p{M}\p{Z}\p{C}\p{S}\p{Pd}\p{Ps}\p{Pe}\p{Pi}\p{Pf}\p{Po}\u203F\u2040\u2054\uFE33\uFE34\uFE4D-\uFE4F\uFF3F`

// pySpaceExtra are the characters str.isspace() accepts beyond .NET's \s.
const pySpaceExtra = `\x1c-\x1f`

// Word boundaries rebuilt on Python's \w, since .NET's \b uses its own set.
const (
	pyBoundary = `(?:(?<=[` + pyWordClass + `])(?![` + pyWordClass + `])|(?<![` + pyWordClass + `])(?=[` + pyWordClass + `]))`
	// CPython's \B never matches in an empty string (changed only in 3.14),
	// hence the "some character before or after" guard.
	pyNonBoundary = `(?:(?<=[\s\S])|(?=[\s\S]))(?:(?<=[` + pyWordClass + `])(?=[` + pyWordClass + `])|(?<![` + pyWordClass + `])(?![` + pyWordClass + `]))`
)

type translator struct {
	src     []rune
	i       int
	out     strings.Builder
	verbose bool
	// stack holds, per open group, the verbose flag to restore at ')'.
	stack []bool
	// global collects inline global flags ((?i) anywhere) to hoist.
	global string
	// groups counts capturing groups so far, to tell backreferences from
	// octal escapes the way sre_parse does.
	groups int
}

// translatePattern returns the regexp2 (.NET syntax) form of the Python
// pattern p.
func translatePattern(p string) (string, error) {
	t := &translator{src: []rune(p)}
	t.verbose = hasGlobalVerbose(t.src)
	if err := t.run(); err != nil {
		return "", fmt.Errorf("regex %q: %w", p, err)
	}
	out := t.out.String()
	if t.global != "" {
		out = "(?" + t.global + ")" + out
	}
	return out, nil
}

// hasGlobalVerbose reports whether a global (?...x...) flag group appears:
// Python applies global flags to the whole pattern wherever they stand.
func hasGlobalVerbose(src []rune) bool {
	s := string(src)
	for i := 0; ; {
		j := strings.Index(s[i:], "(?")
		if j < 0 {
			return false
		}
		k := i + j + 2
		end := k
		for end < len(s) && strings.IndexByte("aiLmsux", s[end]) >= 0 {
			end++
		}
		if end > k && end < len(s) && s[end] == ')' && strings.IndexByte(s[k:end], 'x') >= 0 {
			return true
		}
		i = k
	}
}

func (t *translator) peek(off int) (rune, bool) {
	if t.i+off < len(t.src) {
		return t.src[t.i+off], true
	}
	return 0, false
}

func (t *translator) run() error {
	for t.i < len(t.src) {
		c := t.src[t.i]
		switch {
		case t.verbose && pyIsSpace(c):
			t.i++
		case t.verbose && c == '#':
			for t.i < len(t.src) && t.src[t.i] != '\n' {
				t.i++
			}
		case c == '\\':
			if err := t.escape(); err != nil {
				return err
			}
		case c == '[':
			if err := t.class(); err != nil {
				return err
			}
		case c == '(':
			if err := t.group(); err != nil {
				return err
			}
		case c == ')':
			if len(t.stack) == 0 {
				return fmt.Errorf("unbalanced parenthesis at position %d", t.i)
			}
			t.verbose = t.stack[len(t.stack)-1]
			t.stack = t.stack[:len(t.stack)-1]
			t.out.WriteByte(')')
			t.i++
		case c == '{':
			if err := t.brace(); err != nil {
				return err
			}
		case c == '*' || c == '+' || c == '?':
			t.out.WriteRune(c)
			t.i++
			if err := t.afterQuantifier(); err != nil {
				return err
			}
		case c == '}':
			t.out.WriteString(`\}`)
			t.i++
		default:
			t.out.WriteRune(c)
			t.i++
		}
	}
	if len(t.stack) > 0 {
		return fmt.Errorf("missing ), unterminated subpattern")
	}
	return nil
}

// afterQuantifier handles what may follow a quantifier: a lazy '?' is
// copied, a possessive '+' (Python 3.11) has no .NET form.
func (t *translator) afterQuantifier() error {
	if n, ok := t.peek(0); ok {
		switch n {
		case '?':
			t.out.WriteByte('?')
			t.i++
		case '+':
			return fmt.Errorf("possessive quantifiers (*+, ++, ?+, {m,n}+) are not supported")
		}
	}
	return nil
}

// brace translates a '{': a Python repeat {m}, {m,}, {,n} or {m,n}, or a
// literal brace.
func (t *translator) brace() error {
	rep, ok := scanRepeat(t.src, t.i)
	lo, hi, comma, j := rep.lo, rep.hi, rep.comma, rep.end
	if !ok {
		t.out.WriteString(`\{`)
		t.i++
		return nil
	}
	if lo == "" {
		lo = "0"
	}
	if comma && hi != "" {
		l, _ := strconv.Atoi(lo)
		h, _ := strconv.Atoi(hi)
		if h < l {
			return fmt.Errorf("min repeat greater than max repeat")
		}
	}
	t.out.WriteString("{" + lo)
	if comma {
		t.out.WriteString("," + hi)
	}
	t.out.WriteString("}")
	t.i = j + 1
	return t.afterQuantifier()
}

// pyRepeat is a Python repeat {m}, {m,}, {,n} or {m,n} as sre_parse
// reads it; end is the index of its '}'.
type pyRepeat struct {
	lo, hi string
	comma  bool
	end    int
}

// scanRepeat reads the repeat at src[i] == '{'; ok is false when what
// follows is not one, and the brace is then a literal. Both translators
// (to regexp2 and to Go's regexp) read braces through it.
func scanRepeat(src []rune, i int) (r pyRepeat, ok bool) {
	j := i + 1
	for j < len(src) && isDigit(src[j]) {
		r.lo += string(src[j])
		j++
	}
	if j < len(src) && src[j] == ',' {
		r.comma = true
		j++
		for j < len(src) && isDigit(src[j]) {
			r.hi += string(src[j])
			j++
		}
	}
	r.end = j
	return r, j < len(src) && src[j] == '}' && (r.comma || r.lo != "")
}

func isDigit(r rune) bool    { return r >= '0' && r <= '9' }
func isOctDigit(r rune) bool { return r >= '0' && r <= '7' }

// escape translates a backslash sequence outside a character set.
func (t *translator) escape() error {
	c, ok := t.peek(1)
	if !ok {
		return fmt.Errorf("bad escape (end of pattern)")
	}
	t.i += 2
	switch c {
	case 'A', 'd', 'D', 'a', 'f', 'n', 'r', 't', 'v':
		t.out.WriteString(`\` + string(c))
	case 'Z':
		t.out.WriteString(`\z`)
	case 'b':
		t.out.WriteString(pyBoundary)
	case 'B':
		t.out.WriteString(pyNonBoundary)
	case 'w':
		t.out.WriteString(`[` + pyWordClass + `]`)
	case 'W':
		t.out.WriteString(`[^` + pyWordClass + `]`)
	case 's':
		t.out.WriteString(`[\s` + pySpaceExtra + `]`)
	case 'S':
		t.out.WriteString(`[^\s` + pySpaceExtra + `]`)
	case 'x', 'u', 'U', 'N':
		r, err := t.codeEscape(c)
		if err != nil {
			return err
		}
		t.out.WriteString(literalRune(r))
	case '0':
		t.out.WriteString(literalRune(t.octal(0)))
	default:
		switch {
		case c >= '1' && c <= '9':
			return t.numericEscape(c)
		case c < utf8.RuneSelf && unicode.IsLetter(c):
			return fmt.Errorf("bad escape \\%c", c)
		case c < utf8.RuneSelf:
			t.out.WriteString(`\` + string(c))
		default:
			t.out.WriteRune(c) // Python reads \é as é
		}
	}
	return nil
}

// numericEscape handles \1..\9 followed by more digits: a three-digit
// octal escape or a group reference, as sre_parse decides.
func (t *translator) numericEscape(first rune) error {
	digits := string(first)
	if n, ok := t.peek(0); ok && isDigit(n) {
		digits += string(n)
		t.i++
		if n3, ok := t.peek(0); ok && isOctDigit(first) && isOctDigit(n) && isOctDigit(n3) {
			digits += string(n3)
			t.i++
			v, _ := strconv.ParseInt(digits, 8, 32)
			if v > 0o377 {
				return fmt.Errorf("octal escape value \\%s outside of range 0-0o377", digits)
			}
			t.out.WriteString(literalRune(rune(v)))
			return nil
		}
	}
	g, _ := strconv.Atoi(digits)
	if g > t.groups {
		return fmt.Errorf("invalid group reference %d", g)
	}
	t.out.WriteString(`\k<` + digits + `>`)
	return nil
}

// octal reads up to two further octal digits after a \0 (or, in a set,
// after the first digit) and returns the character.
func (t *translator) octal(v rune) rune {
	for k := 0; k < 2; k++ {
		n, ok := t.peek(0)
		if !ok || !isOctDigit(n) {
			break
		}
		v = v*8 + (n - '0')
		t.i++
	}
	return v
}

// codeEscape reads the digits of \xhh, \uhhhh, \Uhhhhhhhh; \N{name} is not
// supported (it needs the Unicode name table).
func (t *translator) codeEscape(c rune) (rune, error) {
	n := map[rune]int{'x': 2, 'u': 4, 'U': 8}[c]
	if c == 'N' {
		return 0, fmt.Errorf(`\N{...} character names are not supported`)
	}
	if t.i+n > len(t.src) {
		return 0, fmt.Errorf("incomplete escape \\%c", c)
	}
	v, err := strconv.ParseUint(string(t.src[t.i:t.i+n]), 16, 32)
	if err != nil {
		return 0, fmt.Errorf("incomplete escape \\%c%s", c, string(t.src[t.i:t.i+n]))
	}
	if v > unicode.MaxRune {
		return 0, fmt.Errorf("bad escape \\%c%s", c, string(t.src[t.i:t.i+n]))
	}
	t.i += n
	return rune(v), nil
}

// literalRune writes r so that .NET reads it as that one literal
// character, in or out of a set.
func literalRune(r rune) string {
	if r <= 0xFFFF {
		return fmt.Sprintf(`\u%04X`, r)
	}
	return string(r) // regexp2 matches runes, so an astral char is one literal
}
