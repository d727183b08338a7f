package lmfilter

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// Windows. Go's regexp searches the whole rest of a text on every call,
// and its backtracker clears a bit per instruction and byte of that rest
// first: a self-consistency run calls it for every one of millions of
// repeats, each a long chain of thought, so that setup, not matching, was
// most of the deep check's regexp time. Most harness patterns can only
// match a short run of a few kinds of bytes ("The answer is" and digits,
// commas and dots; flexible-extract's numbers). byteSet finds the bytes a
// match can contain; a search then runs on one run of such bytes at a
// time (see goMatches.next), which holds every match that starts in it,
// since a match is contiguous and made of those bytes only.

// byteSet is a set of bytes.
type byteSet [256]bool

// matchBytes returns the set of bytes a match of r can contain, or nil
// when windows could change the result (an empty-width assertion looks
// past a match's ends) or would not help (a match can contain nearly any
// byte). A rune outside ASCII puts every byte >= 0x80 in the set: a
// superset keeps windows correct, only longer.
func matchBytes(r *syntax.Regexp) *byteSet {
	var set byteSet
	if !addMatchBytes(&set, r) {
		return nil
	}
	n := 0
	for _, in := range set {
		if in {
			n++
		}
	}
	if n > 128 {
		return nil
	}
	return &set
}

func addMatchBytes(set *byteSet, r *syntax.Regexp) bool {
	switch r.Op {
	case syntax.OpNoMatch, syntax.OpEmptyMatch:
		return true
	case syntax.OpLiteral:
		for _, c := range r.Rune {
			addRune(set, c)
			if r.Flags&syntax.FoldCase != 0 {
				for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
					addRune(set, f)
				}
			}
		}
		return true
	case syntax.OpCharClass:
		for k := 0; k+1 < len(r.Rune); k += 2 {
			lo, hi := r.Rune[k], r.Rune[k+1]
			for c := lo; c <= hi && c < utf8.RuneSelf; c++ {
				set[c] = true
			}
			if hi >= utf8.RuneSelf {
				addRune(set, utf8.RuneSelf)
			}
		}
		return true
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		for c := range set {
			set[c] = true
		}
		if r.Op == syntax.OpAnyCharNotNL {
			set['\n'] = false
		}
		return true
	case syntax.OpCapture, syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat,
		syntax.OpConcat, syntax.OpAlternate:
		for _, s := range r.Sub {
			if !addMatchBytes(set, s) {
				return false
			}
		}
		return true
	}
	return false // ^ $ \A \z \b \B: they read bytes outside the match
}

// addRune adds c's UTF-8 bytes, as every byte >= 0x80 for a rune outside
// ASCII (and for invalid bytes, which the regexp reads as U+FFFD).
func addRune(set *byteSet, c rune) {
	if c >= 0 && c < utf8.RuneSelf {
		set[c] = true
		return
	}
	for b := utf8.RuneSelf; b < 256; b++ {
		set[b] = true
	}
}
