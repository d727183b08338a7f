package lmfilter

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Default RegexFilter arguments (extraction.py).
const (
	defaultRegexPattern = `#### (\-?[0-9\.\,]+)`
	defaultFallback     = "[invalid]"
)

// takeFirst is TakeFirstFilter: r[0] of each request's value.
func (ex *executor) takeFirst() error {
	if ex.isList {
		if len(ex.list) == 0 {
			return fmt.Errorf("list index out of range (no responses to take the first of)")
		}
		ex.setOne(ex.list[0])
		ex.dropUnselected()
		return nil
	}
	elems, err := ex.elements()
	if err != nil {
		return fmt.Errorf("'%s' object is not subscriptable", pyTypeName(ex.one.v))
	}
	if len(elems) == 0 {
		return fmt.Errorf("%s index out of range", pyTypeName(ex.one.v))
	}
	ex.setOne(elems[0])
	ex.dropUnselected()
	return nil
}

// takeFirstK is TakeKFilter: r[:k]. The harness asserts that the first doc
// has at least k responses; other docs are sliced silently, so a short
// doc here gets a note rather than an error.
func (ex *executor) takeFirstK(s Step) error {
	k, ok, err := intParam(s, "k")
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("missing required argument k (KeyError: 'k')")
	}
	n := ex.length()
	if n < k {
		ex.notes = append(ex.notes, fmt.Sprintf("take_first_k: only %d responses for k=%d (the harness asserts this on the first doc)", n, k))
	}
	lo, hi := pySlice(n, k)
	switch {
	case ex.isList:
		ex.setList(ex.list[lo:hi])
	case isString(ex.one.v):
		v := ex.one.v.(string)
		start, end := runeByteIndex(v, lo), runeByteIndex(v, hi)
		ex.setOne(item{v: v[start:end], origin: ex.one.origin, off: ex.one.off})
	default:
		elems, err := ex.elements()
		if err != nil {
			return fmt.Errorf("'%s' object is not subscriptable", pyTypeName(ex.one.v))
		}
		vals := make([]any, 0, hi-lo)
		for _, e := range elems[lo:hi] {
			vals = append(vals, e.v)
		}
		ex.setOne(item{v: vals, origin: ex.one.origin, off: -1})
	}
	ex.dropUnselected()
	return nil
}

// length is len() of the current value, in Python's units (characters for
// a string).
func (ex *executor) length() int {
	if ex.isList {
		return len(ex.list)
	}
	switch v := ex.one.v.(type) {
	case string:
		return utf8.RuneCountInString(v)
	case []any:
		return len(v)
	}
	return 0
}

// pySlice returns the bounds of Python's seq[:k] for a sequence of length n.
func pySlice(n, k int) (int, int) {
	if k < 0 {
		k += n
		if k < 0 {
			k = 0
		}
	}
	if k > n {
		k = n
	}
	return 0, k
}

// runeByteIndex returns the byte offset of the ri-th rune of s.
func runeByteIndex(s string, ri int) int {
	if ri <= 0 {
		return 0
	}
	n := 0
	for i := range s {
		if n == ri {
			return i
		}
		n++
	}
	return len(s)
}

func isString(v any) bool { _, ok := v.(string); return ok }

// majorityVote is MajorityVoteFilter: Counter(r).most_common(1)[0][0],
// wrapped in a list. most_common(1) is max() over the counts in insertion
// order, so among equal counts the answer seen first wins; the full
// histogram is kept in most_common() order (a stable sort by count).
func (ex *executor) majorityVote() error {
	elems, err := ex.elements()
	if err != nil {
		return err
	}
	if len(elems) == 0 {
		return fmt.Errorf("list index out of range (majority vote over no responses)")
	}
	var votes counter[hashKey]
	var firsts []item // each answer's first repeat, by position
	for _, it := range elems {
		key, err := keyOf(it.v)
		if err != nil {
			return err
		}
		if it.origin >= 0 {
			ex.consumed[it.origin] = true
		}
		if _, isNew := votes.add(key); isNew {
			firsts = append(firsts, it)
		}
	}
	order := votes.mostCommon()
	ex.votes = make([]Vote, len(order))
	for i, pos := range order {
		ex.votes[i] = Vote{Answer: valueText(firsts[pos].v), Count: votes.counts[pos]}
	}
	ex.setList([]item{{v: firsts[order[0]].v, origin: -1, off: -1}})
	return nil
}

// regexParams reads what RegexFilter and MultiChoiceRegexFilter share:
// regex_pattern (compiled), group_select and fallback, with the harness's
// defaults.
func regexParams(s Step) (re *Regexp, groupSelect int, fallback any, err error) {
	pattern, err := stringParam(s, "regex_pattern", defaultRegexPattern)
	if err != nil {
		return nil, 0, nil, err
	}
	if groupSelect, _, err = intParam(s, "group_select"); err != nil {
		return nil, 0, nil, err
	}
	fallback, ok := s.Params["fallback"]
	if !ok {
		fallback = defaultFallback
	}
	re, err = CompilePython(pattern)
	return re, groupSelect, fallback, err
}

// regex is RegexFilter: findall, pick group_select, first non-empty group
// of a tuple, strip(); the fallback when nothing matches.
func (ex *executor) regex(s Step) error {
	re, gs, fallback, err := regexParams(s)
	if err != nil {
		return err
	}
	return ex.perElement(func(it item) (item, error) {
		text, isStr := it.v.(string)
		off := it.off
		if !isStr { // the harness treats a non-string response as ""
			text, off = "", -1
		}
		hit, val, err := ex.search(re, gs, it.origin, text)
		if err != nil {
			return item{}, err
		}
		out := item{v: fallback, origin: it.origin, off: -1}
		if hit.count > 0 {
			if hit.allEmpty {
				fs, ok := fallback.(string)
				if !ok {
					return item{}, fmt.Errorf("'%s' object has no attribute 'strip'", pyTypeName(fallback))
				}
				out.v = pyStrip(fs)
			} else {
				v, lead := stripSpan(hit.value)
				switch {
				case val == nil:
					out.v = v
				case *val == nil:
					out.v = v
					*val = out.v
				default:
					out.v = *val
				}
				if off >= 0 && hit.span[0] >= 0 {
					out.off = off + hit.span[0] + lead
				}
			}
		}
		if it.origin >= 0 {
			ex.traceRegex(it.origin, off, hit, out)
		}
		return out, nil
	})
}

// stripSpan strips s as Python's strip() does and returns how many bytes
// were removed at the front.
func stripSpan(s string) (string, int) {
	l := pyLstrip(s)
	return strings.TrimRightFunc(l, pyIsSpace), len(s) - len(l)
}

// traceRegex records a regex step's outcome on the repeat's trace.
func (ex *executor) traceRegex(origin, off int, hit regexHit, out item) {
	t := &ex.traces[origin]
	t.Regex = true
	t.Matched = hit.count > 0 && !hit.allEmpty
	t.MatchCount = hit.count
	t.Span = [2]int{-1, -1}
	t.Matches = nil
	if off < 0 {
		return
	}
	if t.Matched && out.off >= 0 {
		t.Span = [2]int{out.off, out.off + len(out.v.(string))}
	}
	if off == 0 || len(hit.whole) == 0 {
		t.Matches = hit.whole // shared with the Memo; nobody changes it
		return
	}
	t.Matches = make([][2]int, len(hit.whole))
	for i, w := range hit.whole {
		t.Matches[i] = [2]int{off + w[0], off + w[1]}
	}
}

// removeWhitespace is WhitespaceFilter, whose behaviour changed: before
// 0.4.3 it dropped one leading space, until 0.4.9.x it was lstrip(), since
// 0.4.10 (PR #3408) it is strip().
func (ex *executor) removeWhitespace() error {
	mode := whitespaceMode(ex.p.HarnessVersion)
	return ex.perElement(func(it item) (item, error) {
		s, ok := it.v.(string)
		if !ok {
			return item{}, fmt.Errorf("'%s' object has no attribute 'strip'", pyTypeName(it.v))
		}
		out, lead := s, 0
		switch mode {
		case "space":
			if strings.HasPrefix(s, " ") {
				out, lead = s[1:], 1
			}
		case "lstrip":
			out = pyLstrip(s)
			lead = len(s) - len(out)
		default:
			out, lead = stripSpan(s)
		}
		off := it.off
		if off >= 0 {
			off += lead
		}
		return item{v: out, origin: it.origin, off: off}, nil
	})
}

// whitespaceMode picks remove_whitespace's behaviour for a harness version.
func whitespaceMode(version string) string {
	if version == "" {
		return "strip"
	}
	v := parseVersion(version)
	switch {
	case versionLess(v, []int{0, 4, 3}):
		return "space"
	case versionLess(v, []int{0, 4, 10}):
		return "lstrip"
	}
	return "strip"
}

// parseVersion reads "0.4.9.1" as [0 4 9 1], stopping at the first
// non-numeric part ("0.4.11.dev0" -> [0 4 11]).
func parseVersion(s string) []int {
	var out []int
	for _, p := range strings.Split(s, ".") {
		n, err := strconv.Atoi(p)
		if err != nil {
			break
		}
		out = append(out, n)
	}
	return out
}

func versionLess(a, b []int) bool {
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y int
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return x < y
		}
	}
	return false
}

// changeCase is LowercaseFilter / UppercaseFilter.
func (ex *executor) changeCase(fn func(string) string, method string) error {
	return ex.perElement(func(it item) (item, error) {
		s, ok := it.v.(string)
		if !ok {
			return item{}, fmt.Errorf("'%s' object has no attribute '%s'", pyTypeName(it.v), method)
		}
		out := fn(s)
		off := it.off
		// Offsets survive only if every character kept its byte length.
		if len(out) != len(s) || utf8.RuneCountInString(out) != utf8.RuneCountInString(s) {
			off = -1
		}
		return item{v: out, origin: it.origin, off: off}, nil
	})
}

// mapValues is MapFilter: mapping_dict.get(resp, default_value).
func (ex *executor) mapValues(s Step) error {
	mapping := map[string]any{}
	if raw, ok := s.Params["mapping_dict"]; ok && raw != nil {
		m, ok := raw.(map[string]any)
		if !ok {
			return fmt.Errorf("Provided mapping_dict is not a dictionary")
		}
		mapping = m
	}
	def := s.Params["default_value"]
	return ex.perElement(func(it item) (item, error) {
		if _, err := keyOf(it.v); err != nil {
			return item{}, err
		}
		out := def
		if k, ok := it.v.(string); ok {
			if v, ok := mapping[k]; ok {
				out = v
			}
		}
		return item{v: out, origin: it.origin, off: -1}, nil
	})
}

// stripThink is StripThinkFilter: drop a closed <think>...</think> block
// (everything up to the first end token) or an unclosed leading one.
func (ex *executor) stripThink(s Step) error {
	end, err := stringParam(s, "think_end_token", "</think>")
	if err != nil {
		return err
	}
	return ex.perElement(func(it item) (item, error) {
		r, ok := it.v.(string)
		if !ok {
			return it, nil
		}
		var out string
		switch {
		case strings.Contains(r, end):
			_, after, _ := strings.Cut(r, end)
			out = pyLstrip(after)
		case strings.HasPrefix(pyLstrip(r), "<think>"):
			out = "" // ^<think>.* with DOTALL removes the rest
		default:
			return it, nil
		}
		off := it.off
		if off >= 0 {
			off += len(r) - len(out) // out is a suffix of r
		}
		return item{v: out, origin: it.origin, off: off}, nil
	})
}

// intParam reads an integer keyword argument (JSON numbers are float64).
func intParam(s Step, key string) (int, bool, error) {
	raw, ok := s.Params[key]
	if !ok || raw == nil {
		return 0, false, nil
	}
	f, isNum := raw.(float64)
	if !isNum || f != math.Trunc(f) {
		return 0, false, fmt.Errorf("%s must be an integer, got %s", key, compactJSON(raw))
	}
	return int(f), true, nil
}

// stringParam reads a string keyword argument, def when absent.
func stringParam(s Step, key, def string) (string, error) {
	raw, ok := s.Params[key]
	if !ok {
		return def, nil
	}
	str, isStr := raw.(string)
	if !isStr {
		return "", fmt.Errorf("%s must be a string, got %s", key, compactJSON(raw))
	}
	return str, nil
}
