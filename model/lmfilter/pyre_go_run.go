package lmfilter

import "strings"

// goFor returns the Go form to run on s, nil when s must go to regexp2.
func (re *Regexp) goFor(s string) *goRegexp {
	g := re.fast
	if g == nil || g.dollar && strings.HasSuffix(s, "\n") {
		return nil
	}
	return g
}

// each calls fn with the submatch byte offsets (whole match, then two per
// group, -1 for a group that took no part) of every match in s, in order,
// until fn returns false. Matches are never empty (compileGo refuses
// patterns that could match empty), so Python's finditer and Go agree on
// where each search starts: at the end of the previous match. fn must not
// keep loc.
func (g *goRegexp) each(s string, fn func(loc []int) bool) {
	m := goMatches{g: g, s: s}
	for loc := m.next(); loc != nil; loc = m.next() {
		if !fn(loc) {
			return
		}
	}
}

// goMatches walks the matches of g in s, in order: each without a
// callback, so that a caller's state stays on its stack.
type goMatches struct {
	g   *goRegexp
	s   string
	pos int
	// all are an anchored pattern's matches, found at once.
	all    [][]int
	allSet bool
	// buf holds the mini form's result (maxMiniCaps groups at most).
	buf [2 * maxMiniCaps]int
}

// next returns the next match's offsets (valid until the next call), nil
// after the last.
func (m *goMatches) next() []int {
	g, s := m.g, m.s
	if g.anchored {
		// ^ and \A need the text before the search start; such patterns
		// match rarely, so finding all at once costs little.
		if !m.allSet {
			m.all, m.allSet = g.re.FindAllStringSubmatchIndex(s, -1), true
		}
		if len(m.all) == 0 {
			return nil
		}
		loc := m.all[0]
		m.all = m.all[1:]
		return loc
	}
	for m.pos < len(s) {
		pos := m.pos
		if g.set != nil && g.prefix == "" {
			// No match starts at a byte it cannot contain.
			for pos < len(s) && !g.set[s[pos]] {
				pos++
			}
			if pos == len(s) {
				break
			}
		}
		if g.prefix != "" {
			// No match starts before the next occurrence of the prefix;
			// finding it here spares a regexp call per text that has no
			// (more) match, the common case.
			k := strings.Index(s[pos:], g.prefix)
			if k < 0 {
				break
			}
			pos += k
			if g.literal {
				m.pos = pos + len(g.prefix)
				m.buf[0], m.buf[1] = pos, m.pos
				return m.buf[:2]
			}
		}
		// The window: the run of bytes a match can contain from pos on
		// (see pyre_go_window.go), the whole rest without a set.
		end := len(s)
		if g.set != nil {
			end = pos + len(g.prefix) // the prefix's bytes are in the set
			for end < len(s) && g.set[s[end]] {
				end++
			}
		}
		loc := m.find(s[pos:end])
		if loc == nil {
			if end == len(s) {
				break
			}
			// Every match starting in the window lies in it: none does.
			m.pos = end
			continue
		}
		for k := range loc {
			if loc[k] >= 0 {
				loc[k] += pos
			}
		}
		m.pos = loc[1]
		return loc
	}
	m.pos = len(s)
	return nil
}

// find is FindStringSubmatchIndex on s, on the mini form when there is
// one (into m.buf) and on Go's regexp otherwise or when the mini form
// gives up.
func (m *goMatches) find(s string) []int {
	g := m.g
	if g.mini != nil {
		loc := m.buf[:2*g.mini.caps]
		found, done := g.mini.findMini(s, g.prefix, loc)
		switch {
		case found:
			return loc
		case done:
			return nil
		}
	}
	return g.re.FindStringSubmatchIndex(s)
}

// extract is Regexp.extract on the Go form: the same findall, group
// choice and group_select, on byte offsets.
func (g *goRegexp) extract(s string, groupSelect, groups int) (regexHit, error) {
	type cand = groupCand // byte spans here
	var hit regexHit
	gp := newGroupPicker(groupSelect)
	m := goMatches{g: g, s: s}
	for loc := m.next(); loc != nil; loc = m.next() {
		c := cand{start: loc[0], end: loc[1]}
		switch {
		case groups == 1:
			c = cand{start: loc[2], end: loc[3]}
		case groups > 1:
			c = cand{start: -1, end: -1, allEmpty: true}
			for k := 1; k <= groups; k++ {
				if loc[2*k] >= 0 && loc[2*k+1] > loc[2*k] {
					c = cand{start: loc[2*k], end: loc[2*k+1]}
					break
				}
			}
		}
		if len(hit.whole) < maxTraceMatches {
			hit.whole = append(hit.whole, [2]int{loc[0], loc[1]})
		}
		gp.add(c, hit.count)
		hit.count++
	}
	if hit.count == 0 {
		return hit, nil
	}
	pick, ok := gp.chosen(hit.count)
	if !ok {
		return hit, errGroupSelect(groupSelect, hit.count)
	}
	hit.allEmpty = pick.allEmpty
	hit.span = [2]int{-1, -1}
	if pick.start >= 0 {
		hit.span = [2]int{pick.start, pick.end}
		hit.value = s[pick.start:pick.end]
	}
	return hit, nil
}

// findAll is Regexp.FindAll on the Go form.
func (g *goRegexp) findAll(s string, groups int) []Match {
	var out []Match
	g.each(s, func(loc []int) bool {
		m := Match{Start: loc[0], End: loc[1], Groups: make([][2]int, groups)}
		for k := 1; k <= groups; k++ {
			m.Groups[k-1] = [2]int{loc[2*k], loc[2*k+1]}
		}
		out = append(out, m)
		return true
	})
	return out
}

// replaceAll is Regexp.ReplaceAllLiteral on the Go form.
func (g *goRegexp) replaceAll(s, repl string) string {
	var b strings.Builder
	last, matched := 0, false
	m := goMatches{g: g, s: s} // a loop, not each: m stays on the stack
	for loc := m.next(); loc != nil; loc = m.next() {
		if !matched {
			b.Grow(len(s))
			matched = true
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(repl)
		last = loc[1]
	}
	if !matched {
		return s // no copy
	}
	b.WriteString(s[last:])
	return b.String()
}
