package lmfilter

import (
	"fmt"
	"strings"
)

// multiChoice is MultiChoiceRegexFilter: the regex first; failing that, the
// doc's choice texts (after regexes_to_ignore, ignore_case and
// ignore_punctuation) searched in the equally normalized response and
// mapped to "(A)", "(B)"...; failing that, ":\s*(A|B|...)" mapped the same
// way; failing that, the fallback.
func (ex *executor) multiChoice(s Step) error {
	re, gs, fallback, err := regexParams(s)
	if err != nil {
		return err
	}
	norm, err := newNormalizer(s)
	if err != nil {
		return err
	}
	choices, _ := ex.in.Doc["choices"].([]any)
	var alts, letters []string
	choiceToAlpha := map[string]string{}
	letterToTarget := map[string]string{}
	alpha := 'A'
	for _, c := range choices {
		cs, ok := c.(string)
		if !ok {
			return fmt.Errorf("'%s' object has no attribute 'strip' (a choice is not a string)", pyTypeName(c))
		}
		m, err := norm.apply(pyStrip(cs))
		if err != nil {
			return err
		}
		alts = append(alts, pyEscape(m))
		choiceToAlpha[m] = "(" + string(alpha) + ")"
		letters = append(letters, string(alpha))
		letterToTarget[string(alpha)] = "(" + string(alpha) + ")"
		alpha++
	}
	// Per-doc patterns: compiled without the shared cache.
	choiceRe, err := compilePython(strings.Join(alts, "|"))
	if err != nil {
		return err
	}
	letterRe, err := compilePython(`:[\s]*(` + strings.Join(letters, "|") + `)`)
	if err != nil {
		return err
	}
	return ex.perElement(func(it item) (item, error) {
		text, isStr := it.v.(string)
		off := it.off
		if !isStr {
			text, off = "", -1
		}
		out := item{v: fallback, origin: it.origin, off: -1}
		hit, v, err := findMatch(re, text, gs, nil)
		if err != nil {
			return item{}, err
		}
		span := hit.span
		if v == "" {
			span = [2]int{-1, -1} // matched on normalized text: no offsets
			normText, err := norm.apply(text)
			if err != nil {
				return item{}, err
			}
			if hit, v, err = findMatch(choiceRe, normText, gs, choiceToAlpha); err != nil {
				return item{}, err
			}
			if v == "" {
				if hit, v, err = findMatch(letterRe, text, gs, letterToTarget); err != nil {
					return item{}, err
				}
				span = hit.span
			}
		}
		if v != "" {
			out.v = v
			if off >= 0 && span[0] >= 0 {
				out.off = off + span[0]
			}
		}
		if it.origin >= 0 {
			t := &ex.traces[it.origin]
			t.Regex, t.Matched, t.MatchCount = true, v != "", hit.count
			t.Span, t.Matches = [2]int{-1, -1}, nil
			if v != "" && out.off >= 0 {
				t.Span = [2]int{out.off, out.off + (span[1] - span[0])}
			}
		}
		return out, nil
	})
}

// findMatch is MultiChoiceRegexFilter.find_match: the picked findall
// element, stripped, converted through convert when it is a key. v is ""
// when there is no usable match. The span is that of the element before
// conversion.
func findMatch(re *Regexp, text string, gs int, convert map[string]string) (regexHit, string, error) {
	hit, err := re.extract(text, gs)
	if err != nil || hit.count == 0 || hit.allEmpty {
		return hit, "", err
	}
	v, lead := stripSpan(hit.value)
	if hit.span[0] >= 0 {
		hit.span = [2]int{hit.span[0] + lead, hit.span[0] + lead + len(v)}
	}
	if c, ok := convert[v]; ok && v != "" {
		v = c
	}
	return hit, v, nil
}

// normalizer is MultiChoiceRegexFilter.filter_ignores.
type normalizer struct {
	ignore      []*Regexp
	ignoreCase  bool
	ignorePunct bool
}

func newNormalizer(s Step) (*normalizer, error) {
	n := &normalizer{ignoreCase: truthy(s.Params["ignore_case"]), ignorePunct: truthy(s.Params["ignore_punctuation"])}
	if raw, ok := s.Params["regexes_to_ignore"].([]any); ok {
		for _, r := range raw {
			p, ok := r.(string)
			if !ok {
				return nil, fmt.Errorf("regexes_to_ignore holds a non-string: %s", compactJSON(r))
			}
			re, err := CompilePython(p)
			if err != nil {
				return nil, err
			}
			n.ignore = append(n.ignore, re)
		}
	}
	return n, nil
}

func (n *normalizer) apply(s string) (string, error) {
	for _, re := range n.ignore {
		var err error
		if s, err = re.ReplaceAllLiteral(s, ""); err != nil {
			return "", err
		}
	}
	if n.ignoreCase {
		s = pyLower(s)
	}
	if n.ignorePunct {
		s = pyRemovePunct(s)
	}
	return s, nil
}

// truthy is Python's bool() of a JSON value.
func truthy(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case float64:
		return t != 0
	case string:
		return t != ""
	case []any:
		return len(t) > 0
	case map[string]any:
		return len(t) > 0
	}
	return true
}

// pyEscape is Python's re.escape (3.7+): a backslash before each special
// character, whitespace included.
func pyEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("()[]{}?*+-|^$\\.&~# \t\n\r\v\f", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
