package lmfilter

import (
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// Why regexp2 rather than Go's regexp: the harness runs Python's `re`, a
// backtracking engine with lookarounds, backreferences, Unicode \d and \w,
// and a `$` that also matches before a final newline (gsm8k's
// regexes_to_ignore use `\.$`). RE2 has none of these, so patterns would
// either fail to compile or silently match differently. regexp2 is a port
// of .NET's engine, whose semantics are close to Python's; translatePattern
// covers the syntax gaps (regexp2 is a direct dependency).

// matchTimeout bounds one search, so a pathological pattern on a huge
// response fails with an error instead of hanging the viewer; the
// pattern's budget (budget.go) bounds all of its searches together.
var matchTimeout = budgetBase

// Regexp is a Python `re` pattern compiled to behave as Python would.
type Regexp struct {
	pattern string
	re      *regexp2.Regexp
	// adv is the pattern with (?!\G) appended: after an empty match at p,
	// Python's scanner retries at p but refuses another empty match there
	// (it may still take a non-empty alternative). .NET would skip to p+1.
	adv    *regexp2.Regexp
	groups int
	// fast is the equivalent Go regexp, nil when the pattern needs
	// regexp2 (see pyre_go.go).
	fast *goRegexp
	// budget bounds the time all regexp2 searches with the pattern take
	// (shared by copies); long has re and adv for long texts.
	budget *budget
	long   *longForms
}

// longText is the length (runes) above which a search uses longForms: one
// search of a few megabytes may take longer than matchTimeout on regexp2
// and still be a sane pattern (its budget grows with the text).
const longText = 1 << 20

// longMatchTimeout bounds one search of a long text, as before budgets.
const longMatchTimeout = 30 * time.Second

// longForms are a pattern's regexp2 forms with longMatchTimeout, compiled
// the first time a long text needs them.
type longForms struct {
	once    sync.Once
	net     string
	re, adv *regexp2.Regexp
}

// forms returns the regexp2 forms (plain, and with (?!\G)) for a search of
// n runes.
func (re *Regexp) forms(n int) (*regexp2.Regexp, *regexp2.Regexp) {
	if n <= longText || re.long == nil {
		return re.re, re.adv
	}
	l := re.long
	l.once.Do(func() {
		r, err1 := regexp2.Compile(l.net, regexp2.OptionMaintainCaptureOrder())
		a, err2 := regexp2.Compile(`(?:`+l.net+`)(?!\G)`, regexp2.OptionMaintainCaptureOrder())
		if err1 == nil && err2 == nil { // compiled once already: they do
			r.MatchTimeout, a.MatchTimeout = longMatchTimeout, longMatchTimeout
			l.re, l.adv = r, a
		}
	})
	if l.re == nil {
		return re.re, re.adv
	}
	return l.re, l.adv
}

// Match is one match of a Regexp, as byte offsets into the searched text.
type Match struct {
	Start, End int
	// Groups holds the span of each capturing group, {-1, -1} when the
	// group took no part in the match.
	Groups [][2]int
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*Regexp{}
)

// maxCached bounds the compiled-pattern cache: filter_list patterns are
// few, but a caller could feed per-document patterns.
const maxCached = 512

// CompilePython compiles a Python `re` pattern. Errors name the pattern and
// say what Python syntax could not be carried over. Compiled patterns are
// cached, so calling it once per document is cheap.
func CompilePython(pattern string) (*Regexp, error) {
	cacheMu.Lock()
	re, ok := cache[pattern]
	cacheMu.Unlock()
	if ok {
		return re, nil
	}
	re, err := compilePython(pattern)
	if err != nil {
		return nil, err
	}
	cacheMu.Lock()
	if len(cache) >= maxCached {
		cache = map[string]*Regexp{}
	}
	cache[pattern] = re
	cacheMu.Unlock()
	return re, nil
}

func compilePython(pattern string) (*Regexp, error) {
	net, err := translatePattern(pattern)
	if err != nil {
		return nil, err
	}
	re, err := regexp2.Compile(net, regexp2.OptionMaintainCaptureOrder())
	if err != nil {
		return nil, fmt.Errorf("regex %q: %v", pattern, err)
	}
	adv, err := regexp2.Compile(`(?:`+net+`)(?!\G)`, regexp2.OptionMaintainCaptureOrder())
	if err != nil {
		return nil, fmt.Errorf("regex %q: %v", pattern, err)
	}
	re.MatchTimeout, adv.MatchTimeout = matchTimeout, matchTimeout
	groups := len(re.GetGroupNumbers()) - 1
	return &Regexp{pattern: pattern, re: re, adv: adv, groups: groups, fast: compileGo(pattern, groups),
		budget: &budget{}, long: &longForms{net: net}}, nil
}

// String returns the Python pattern.
func (re *Regexp) String() string { return re.pattern }

// Groups returns the number of capturing groups.
func (re *Regexp) Groups() int { return re.groups }

// byteMapper turns rune indexes of a string into byte offsets, cheaply when
// queries move forward, as they do while scanning matches.
type byteMapper struct {
	s     string
	ascii bool
	r, b  int
}

func newByteMapper(s string, runes int) *byteMapper {
	return &byteMapper{s: s, ascii: runes == len(s)}
}

func (m *byteMapper) at(ri int) int {
	if m.ascii {
		return ri
	}
	if ri < m.r/2 {
		m.r, m.b = 0, 0
	}
	for m.r > ri { // a group before the last position asked: step back
		_, size := utf8.DecodeLastRuneInString(m.s[:m.b])
		m.b -= size
		m.r--
	}
	for m.r < ri {
		_, size := utf8.DecodeRuneInString(m.s[m.b:])
		m.b += size
		m.r++
	}
	return m.b
}

// scan calls fn for every match of re in runes, in the order and with the
// empty-match rules of Python's finditer/findall/sub. It stops when fn
// returns false.
func (re *Regexp) scan(runes []rune, fn func(m *regexp2.Match) bool) (err error) {
	if !re.budget.begin(len(runes)) {
		return &BudgetError{Pattern: re.pattern}
	}
	start, timedOut := time.Now(), false
	defer func() {
		re.budget.end(time.Since(start), timedOut)
		if timedOut {
			err = &BudgetError{Pattern: re.pattern}
		}
	}()
	plain, adv := re.forms(len(runes))
	pos, mustAdvance := 0, false
	for pos <= len(runes) {
		r := plain
		if mustAdvance {
			r = adv
		}
		m, err := r.FindRunesMatchStartingAt(runes, pos)
		if err != nil {
			if strings.HasPrefix(err.Error(), "match timeout") {
				timedOut = true // (its message quotes the whole text)
				return nil
			}
			return fmt.Errorf("regex %q: %v", re.pattern, err)
		}
		if m == nil || !fn(m) {
			return nil
		}
		mustAdvance = m.RuneLength == 0
		pos = m.RuneIndex + m.RuneLength
	}
	return nil
}

// FindAll returns every match in s, as Python's re.finditer would find them.
func (re *Regexp) FindAll(s string) ([]Match, error) {
	if g := re.goFor(s); g != nil {
		return g.findAll(s, re.groups), nil
	}
	runes := []rune(s)
	bm := newByteMapper(s, len(runes))
	var out []Match
	err := re.scan(runes, func(m *regexp2.Match) bool {
		mm := Match{Groups: make([][2]int, re.groups)}
		for g := 1; g <= re.groups; g++ {
			mm.Groups[g-1] = [2]int{-1, -1}
			if gr := m.GroupByNumber(g); gr != nil && len(gr.Captures) > 0 {
				mm.Groups[g-1] = [2]int{bm.at(gr.RuneIndex), bm.at(gr.RuneIndex + gr.RuneLength)}
			}
		}
		mm.Start, mm.End = bm.at(m.RuneIndex), bm.at(m.RuneIndex+m.RuneLength)
		out = append(out, mm)
		return true
	})
	return out, err
}

// ReplaceAllLiteral is Python's re.sub(pattern, repl, s) for a repl with no
// backslashes (the harness only ever substitutes ""): every match,
// empty ones included, is replaced by repl.
func (re *Regexp) ReplaceAllLiteral(s, repl string) (string, error) {
	if g := re.goFor(s); g != nil {
		return g.replaceAll(s, repl), nil
	}
	runes := []rune(s)
	bm := newByteMapper(s, len(runes))
	var b strings.Builder
	last := 0
	err := re.scan(runes, func(m *regexp2.Match) bool {
		start := bm.at(m.RuneIndex)
		b.WriteString(s[last:start])
		b.WriteString(repl)
		last = bm.at(m.RuneIndex + m.RuneLength)
		return true
	})
	if err != nil {
		return "", err
	}
	b.WriteString(s[last:])
	return b.String(), nil
}

// maxTraceMatches caps the whole-match spans a trace keeps per repeat: a
// pattern like flexible-extract matches every number of a 200 MB answer.
const maxTraceMatches = 256

// regexHit is what RegexFilter sees for one response: findall's result
// reduced to the element group_select picks.
type regexHit struct {
	// count is len(findall(...)); zero means the fallback is used.
	count int
	// value is the picked element before strip(); span is its byte span
	// ({-1, -1} when it is a group that did not participate).
	value string
	span  [2]int
	// allEmpty is true when the picked element is a tuple with no
	// non-empty group (the harness then uses the fallback).
	allEmpty bool
	// whole are the whole-match spans of the first maxTraceMatches matches.
	whole [][2]int
}

// extract runs findall on s and picks element groupSelect (negative counts
// from the end), following RegexFilter: no groups gives the whole match,
// one group its text ("" when it did not participate), several groups a
// tuple reduced to its first non-empty member.
func (re *Regexp) extract(s string, groupSelect int) (regexHit, error) {
	if g := re.goFor(s); g != nil {
		return g.extract(s, groupSelect, re.groups)
	}
	runes := []rune(s)
	bm := newByteMapper(s, len(runes))
	type cand = groupCand // rune spans here
	var hit regexHit
	gp := newGroupPicker(groupSelect)
	err := re.scan(runes, func(m *regexp2.Match) bool {
		c := cand{start: m.RuneIndex, end: m.RuneIndex + m.RuneLength}
		switch {
		case re.groups == 1:
			c = cand{start: -1, end: -1}
			if g := m.GroupByNumber(1); g != nil && len(g.Captures) > 0 {
				c = cand{start: g.RuneIndex, end: g.RuneIndex + g.RuneLength}
			}
		case re.groups > 1:
			c = cand{start: -1, end: -1, allEmpty: true}
			for k := 1; k <= re.groups; k++ {
				if g := m.GroupByNumber(k); g != nil && len(g.Captures) > 0 && g.RuneLength > 0 {
					c = cand{start: g.RuneIndex, end: g.RuneIndex + g.RuneLength}
					break
				}
			}
		}
		if len(hit.whole) < maxTraceMatches {
			hit.whole = append(hit.whole, [2]int{bm.at(m.RuneIndex), bm.at(m.RuneIndex + m.RuneLength)})
		}
		gp.add(c, hit.count)
		hit.count++
		return true
	})
	if err != nil || hit.count == 0 {
		return hit, err
	}
	pick, ok := gp.chosen(hit.count)
	if !ok {
		return hit, errGroupSelect(groupSelect, hit.count)
	}
	hit.allEmpty = pick.allEmpty
	hit.span = [2]int{-1, -1}
	if pick.start >= 0 {
		hit.span = [2]int{bm.at(pick.start), bm.at(pick.end)}
		hit.value = s[hit.span[0]:hit.span[1]]
	}
	return hit, nil
}

// groupCand is one findall element's span (-1, -1 when its group did not
// participate); allEmpty marks a tuple whose groups are all empty.
type groupCand struct {
	start, end int
	allEmpty   bool
}

// groupPicker keeps the element group_select names while findall's
// matches stream past: the n-th from the start, or for a negative n a
// ring of the last -n, so no match list is built.
type groupPicker struct {
	sel    int
	ring   []groupCand
	pick   groupCand
	picked bool
}

func newGroupPicker(sel int) groupPicker {
	gp := groupPicker{sel: sel}
	if sel < 0 {
		gp.ring = make([]groupCand, -sel)
	}
	return gp
}

// add offers match number i (0-based).
func (gp *groupPicker) add(c groupCand, i int) {
	if gp.sel >= 0 && i == gp.sel {
		gp.pick, gp.picked = c, true
	} else if gp.sel < 0 {
		gp.ring[i%len(gp.ring)] = c
	}
}

// chosen is the selected element after count matches; false when
// group_select is out of range.
func (gp *groupPicker) chosen(count int) (groupCand, bool) {
	if gp.sel < 0 && count+gp.sel >= 0 {
		return gp.ring[(count+gp.sel)%len(gp.ring)], true
	}
	return gp.pick, gp.picked
}

func errGroupSelect(groupSelect, count int) error {
	return fmt.Errorf("group_select %d is out of range for %d matches (the harness raises IndexError)", groupSelect, count)
}
