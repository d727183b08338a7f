package lmfilter

import (
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// The mini matcher. Even on a short window, a call to Go's regexp costs a
// few hundred nanoseconds of setup (the backtracker's state, the result
// slice) for a match of a dozen bytes, and the deep check makes such a
// call for every repeat of every doc. The harness's patterns are almost
// all a literal, then a few classes of ASCII bytes with quantifiers and a
// group ("The answer is (\-?[0-9\.\,]*[0-9]+)", "#### (\-?[0-9\.\,]+)",
// flexible-extract's "(-?[$0-9.,]{2,})|(-?[0-9]+)"). compileMini turns
// such a pattern into a list of steps that a plain backtracking loop runs
// in place, as Python's engine does, so it picks the same match and
// groups as Python and as Go's leftmost-first regexp. It also takes a
// repeated . followed by a literal (gsm8k's "(?s).*#### ") and the end
// of the text (\z, from a $ without (?m)). Anything else (a class with
// non-ASCII members, alternation inside a group, a repeated group, case
// folding, other assertions) gets no mini form and stays on Go's regexp;
// so does any search that would take more than a bounded number of steps
// (findMini reports it), since backtracking can be slow where Go's regexp
// is linear.

// miniOp is what a step matches.
type miniOp uint8

const (
	miniLit   miniOp = iota // the bytes lit
	miniSet                 // min to max bytes of set (max < 0: no limit)
	miniOpen                // the start of group cap
	miniClose               // the end of group cap
	miniEnd                 // the end of the text (Go's \z)
)

type miniStep struct {
	op       miniOp
	lit      string
	set      *byteSet
	min, max int
	lazy     bool
	cap      int
	// any is set for . repeated: its set holds bytes >= 0x80.
	any bool
}

// anyBeforeLit reports whether every repeated . in steps is followed (past
// group ends) by a literal, which is ASCII: the bytes . took then end on
// a rune boundary, as Go's runes do, and a match never starts inside a
// rune either, since the first step that could (the .) would have taken
// the rune's first byte too. (A . alone, matching one rune of one to four
// bytes, gets no mini form.)
func anyBeforeLit(steps []miniStep) bool {
	for i, st := range steps {
		if !st.any {
			continue
		}
		j := i + 1
		for j < len(steps) && steps[j].op == miniClose {
			j++
		}
		if j == len(steps) || steps[j].op != miniLit || steps[j].lit == "" {
			return false
		}
	}
	return true
}

// miniRegexp is a pattern's mini form: alternatives tried in order at each
// start, as the top-level | of the pattern.
type miniRegexp struct {
	alts [][]miniStep
	// first holds the bytes a match can start with.
	first byteSet
	caps  int
}

// maxMiniCaps is the most groups (with the whole match) a mini form has.
const maxMiniCaps = 10

// compileMini returns r's mini form, or nil.
func compileMini(r *syntax.Regexp, caps int) *miniRegexp {
	if caps > maxMiniCaps {
		return nil
	}
	m := &miniRegexp{caps: caps}
	alts := []*syntax.Regexp{r}
	if r.Op == syntax.OpAlternate {
		alts = r.Sub
	}
	for _, a := range alts {
		var steps []miniStep
		if !appendMini(&steps, a, true) || len(steps) == 0 || !anyBeforeLit(steps) {
			return nil
		}
		if !addFirst(&m.first, steps) {
			return nil
		}
		m.alts = append(m.alts, steps)
	}
	return m
}

// appendMini appends the steps of r; groups are allowed at the top level
// only (top), where they hold neither alternation nor other groups.
func appendMini(steps *[]miniStep, r *syntax.Regexp, top bool) bool {
	switch r.Op {
	case syntax.OpLiteral:
		if r.Flags&syntax.FoldCase != 0 {
			return false
		}
		for _, c := range r.Rune {
			if c >= utf8.RuneSelf {
				return false
			}
		}
		*steps = append(*steps, miniStep{op: miniLit, lit: string(r.Rune)})
		return true
	case syntax.OpCharClass:
		set, ok := asciiSet(r)
		if !ok {
			return false
		}
		*steps = append(*steps, miniStep{op: miniSet, set: set, min: 1, max: 1})
		return true
	case syntax.OpEndText:
		*steps = append(*steps, miniStep{op: miniEnd})
		return true
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		sub := r.Sub[0]
		var set *byteSet
		switch sub.Op {
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			// Any number of runes is any number of bytes that ends on
			// a rune boundary: anyBeforeLit makes sure an ASCII literal
			// follows, which only matches there.
			if r.Op != syntax.OpStar && r.Op != syntax.OpPlus {
				return false
			}
			set = new(byteSet)
			for c := range set {
				set[c] = sub.Op == syntax.OpAnyChar || c != '\n'
			}
			st := miniStep{op: miniSet, set: set, min: 0, max: -1, lazy: r.Flags&syntax.NonGreedy != 0, any: true}
			if r.Op == syntax.OpPlus {
				st.min = 1
			}
			*steps = append(*steps, st)
			return true
		case syntax.OpCharClass:
			s, ok := asciiSet(sub)
			if !ok {
				return false
			}
			set = s
		case syntax.OpLiteral:
			if len(sub.Rune) != 1 || sub.Rune[0] >= utf8.RuneSelf || sub.Flags&syntax.FoldCase != 0 {
				return false
			}
			set = new(byteSet)
			set[sub.Rune[0]] = true
		default:
			return false
		}
		st := miniStep{op: miniSet, set: set, lazy: r.Flags&syntax.NonGreedy != 0}
		switch r.Op {
		case syntax.OpStar:
			st.min, st.max = 0, -1
		case syntax.OpPlus:
			st.min, st.max = 1, -1
		case syntax.OpQuest:
			st.min, st.max = 0, 1
		default:
			st.min, st.max = r.Min, r.Max
		}
		*steps = append(*steps, st)
		return true
	case syntax.OpConcat:
		for _, s := range r.Sub {
			if !appendMini(steps, s, top) {
				return false
			}
		}
		return true
	case syntax.OpCapture:
		if !top {
			return false
		}
		*steps = append(*steps, miniStep{op: miniOpen, cap: r.Cap})
		if !appendMini(steps, r.Sub[0], false) {
			return false
		}
		*steps = append(*steps, miniStep{op: miniClose, cap: r.Cap})
		return true
	}
	return false
}

// asciiSet is the class r as a set of bytes, when all its members are
// ASCII.
func asciiSet(r *syntax.Regexp) (*byteSet, bool) {
	set := new(byteSet)
	for k := 0; k+1 < len(r.Rune); k += 2 {
		if r.Rune[k+1] >= utf8.RuneSelf {
			return nil, false
		}
		for c := r.Rune[k]; c <= r.Rune[k+1]; c++ {
			set[c] = true
		}
	}
	return set, true
}

// addFirst adds the bytes a match of steps can start with to first; it
// reports false when steps could match empty (never for a pattern on the
// Go fast path, which refuses those).
func addFirst(first *byteSet, steps []miniStep) bool {
	for _, st := range steps {
		switch st.op {
		case miniLit:
			if st.lit == "" {
				continue
			}
			first[st.lit[0]] = true
			return true
		case miniSet:
			for c, in := range st.set {
				first[c] = first[c] || in
			}
			if st.min > 0 {
				return true
			}
		}
	}
	return false
}

// miniBudget bounds the steps of one findMini call, beyond a step per
// byte: past it, the search goes to Go's regexp.
const miniBudget = 4096

// findMini is FindStringSubmatchIndex on the mini form, into loc (2 ints
// per group and the whole match, -1 for a group that took no part); it
// returns false for no match and, with done false, a search that ran out
// of steps (its result is unknown).
func (m *miniRegexp) findMini(s, prefix string, loc []int) (found, done bool) {
	budget := miniBudget + 4*len(s)
	for start := 0; start < len(s); start++ {
		if prefix != "" {
			k := strings.Index(s[start:], prefix)
			if k < 0 {
				return false, true
			}
			start += k
		} else {
			for start < len(s) && !m.first[s[start]] {
				start++
			}
			if start == len(s) {
				return false, true
			}
		}
		for _, steps := range m.alts {
			for k := range loc {
				loc[k] = -1
			}
			end := m.run(steps, s, start, loc, &budget)
			if budget < 0 {
				return false, false
			}
			if end >= 0 {
				loc[0], loc[1] = start, end
				return true, true
			}
		}
	}
	return false, true
}

// run matches steps at pos and returns the match's end, or -1; it counts
// its attempts against budget.
func (m *miniRegexp) run(steps []miniStep, s string, pos int, loc []int, budget *int) int {
	for i, st := range steps {
		*budget--
		if *budget < 0 {
			return -1
		}
		switch st.op {
		case miniLit:
			if !strings.HasPrefix(s[pos:], st.lit) {
				return -1
			}
			pos += len(st.lit)
		case miniOpen:
			loc[2*st.cap] = pos
		case miniClose:
			loc[2*st.cap+1] = pos
		case miniEnd:
			if pos != len(s) {
				return -1
			}
		case miniSet:
			n := 0
			for pos+n < len(s) && (st.max < 0 || n < st.max) && st.set[s[pos+n]] {
				n++
			}
			if n < st.min {
				return -1
			}
			if st.min == st.max {
				pos += n
				continue
			}
			// Try each count, most first (greedy) or fewest first
			// (lazy), for the rest of the steps.
			rest := steps[i+1:]
			for k := range n - st.min + 1 {
				c := n - k
				if st.lazy {
					c = st.min + k
				}
				if end := m.run(rest, s, pos+c, loc, budget); end >= 0 {
					return end
				}
				if *budget < 0 {
					return -1
				}
			}
			return -1
		}
	}
	return pos
}
