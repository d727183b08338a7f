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
// where each search starts: at the end of the previous match.
func (g *goRegexp) each(s string, fn func(loc []int) bool) {
	if g.anchored {
		// ^ and \A need the text before the search start; such patterns
		// match rarely, so finding all at once costs little.
		for _, loc := range g.re.FindAllStringSubmatchIndex(s, -1) {
			if !fn(loc) {
				return
			}
		}
		return
	}
	pos := 0
	for pos < len(s) {
		if g.prefix != "" {
			// No match starts before the next occurrence of the prefix;
			// finding it here spares a regexp call per text that has no
			// (more) match, the common case.
			k := strings.Index(s[pos:], g.prefix)
			if k < 0 {
				return
			}
			pos += k
			if g.literal {
				if !fn([]int{pos, pos + len(g.prefix)}) {
					return
				}
				pos += len(g.prefix)
				continue
			}
		}
		loc := g.re.FindStringSubmatchIndex(s[pos:])
		if loc == nil {
			return
		}
		for k := range loc {
			if loc[k] >= 0 {
				loc[k] += pos
			}
		}
		if !fn(loc) {
			return
		}
		pos = loc[1]
	}
}

// extract is Regexp.extract on the Go form: the same findall, group
// choice and group_select, on byte offsets.
func (g *goRegexp) extract(s string, groupSelect, groups int) (regexHit, error) {
	type cand = groupCand // byte spans here
	var hit regexHit
	gp := newGroupPicker(groupSelect)
	g.each(s, func(loc []int) bool {
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
		return true
	})
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
	g.each(s, func(loc []int) bool {
		if !matched {
			b.Grow(len(s))
			matched = true
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(repl)
		last = loc[1]
		return true
	})
	if !matched {
		return s // no copy
	}
	b.WriteString(s[last:])
	return b.String()
}
