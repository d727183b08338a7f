package lmfilter

import "fmt"

// class writes a character set as Go class members, each character as
// \x{...}, so no Python/Go difference in set syntax ([: :], escapes) can
// leak through.
func (t *goTranslator) class() bool {
	t.i++
	t.out.WriteByte('[')
	if c, ok := t.peek(0); ok && c == '^' {
		t.out.WriteByte('^')
		t.i++
	}
	first := true
	for {
		c, ok := t.peek(0)
		if !ok {
			return false
		}
		if c == ']' && !first {
			t.out.WriteByte(']')
			t.i++
			return true
		}
		first = false
		lo, set, ok := t.classAtom()
		if !ok {
			return false
		}
		if set != "" {
			if n, _ := t.peek(0); n == '-' {
				if n2, _ := t.peek(1); n2 != ']' {
					return false // Python: bad character range
				}
			}
			t.out.WriteString(set)
			continue
		}
		if n, _ := t.peek(0); n == '-' {
			if n2, ok := t.peek(1); ok && n2 != ']' {
				t.i++
				hi, set2, ok := t.classAtom()
				if !ok || set2 != "" || hi < lo {
					return false
				}
				t.out.WriteString(fmt.Sprintf(`\x{%X}-\x{%X}`, lo, hi))
				continue
			}
		}
		t.out.WriteString(fmt.Sprintf(`\x{%X}`, lo))
	}
}

// classAtom reads one member of a set: a character, or a class escape
// (\d \w \s) returned as Go members in set.
func (t *goTranslator) classAtom() (rune, string, bool) {
	c := t.src[t.i]
	if c != '\\' {
		t.i++
		return c, "", true
	}
	e, ok := t.peek(1)
	if !ok {
		return 0, "", false
	}
	t.i += 2
	switch e {
	case 'd':
		return 0, `\p{Nd}`, true
	case 'w':
		return 0, pyWordGo, true
	case 's':
		return 0, pySpaceGo, true
	case 'b':
		return '\b', "", true // a backspace inside a set
	}
	r, ok := t.charEscape(e)
	return r, "", ok
}
