package lmfilter

import "strconv"

// Quick runs a pipeline of the harness's common shapes without the
// executor:
//
//	[take_first_k(k)] regex [majority_vote] take_first
//
// (strict-match, flexible-extract, score-first, maj@64, maj@8, ...). The
// executor keeps Python's shapes, traces and spans for every step, which
// the browser shows; the deep check only needs each repeat's own answer
// (the regex step's value) and the filter's answer, and asks for them for
// millions of repeats. QuickFor returns nil for any other pipeline, and a
// Quick refuses (ok false) anything the executor would note or raise on, so
// the two agree wherever Quick answers (TestQuickMatchesRun).
type Quick struct {
	k        int // take_first_k's k, 0 without one
	re       *Regexp
	gs       int
	fallback string
	vote     bool
	key      string
}

// QuickFor returns p's Quick form, or nil when p has another shape.
func QuickFor(p Pipeline) *Quick {
	q := &Quick{}
	steps := p.Steps
	if len(steps) > 0 && steps[0].Function == "take_first_k" {
		k, ok, err := intParam(steps[0], "k")
		if err != nil || !ok || k < 1 || len(steps[0].Params) != 1 {
			return nil
		}
		q.k, steps = k, steps[1:]
	}
	if len(steps) < 2 || steps[0].Function != "regex" || steps[len(steps)-1].Function != "take_first" || len(steps[len(steps)-1].Params) != 0 {
		return nil
	}
	re, gs, fallback, err := regexParams(steps[0])
	fs, isStr := fallback.(string)
	if err != nil || !isStr {
		return nil
	}
	for k := range steps[0].Params {
		if k != "regex_pattern" && k != "group_select" && k != "fallback" {
			return nil // the executor rejects or notes what it does not know
		}
	}
	q.re, q.gs, q.fallback = re, gs, fs
	switch mid := steps[1 : len(steps)-1]; {
	case len(mid) == 0:
	case len(mid) == 1 && mid[0].Function == "majority_vote" && len(mid[0].Params) == 0:
		q.vote = true
	default:
		return nil
	}
	q.key = re.String() + "\x00" + strconv.Itoa(gs) + "\x00" + fs
	return q
}

// OwnKey identifies the regex step: Quicks with the same OwnKey give every
// repeat the same own answer.
func (q *Quick) OwnKey() string { return q.key }

// Own is the regex step's value for one repeat's text: the picked match,
// stripped, or the fallback. An error is the executor's StepError's
// cause; the caller should let the executor run and word it.
func (q *Quick) Own(text string) (string, error) {
	hit, err := q.re.extract(text, q.gs)
	switch {
	case err != nil:
		return "", err
	case hit.count == 0:
		return q.fallback, nil
	case hit.allEmpty:
		return pyStrip(q.fallback), nil
	}
	v, _ := stripSpan(hit.value)
	return v, nil
}

// Answer is the filter's answer from every repeat's own answer, in
// order; ok is false where the executor must run (no repeats, fewer
// than k).
func (q *Quick) Answer(own []string) (answer string, ok bool) {
	if q.k > 0 {
		if len(own) < q.k {
			return "", false
		}
		own = own[:q.k]
	}
	if len(own) == 0 {
		return "", false
	}
	if !q.vote {
		return own[0], true
	}
	var votes counter[string]
	for _, v := range own {
		votes.add(v)
	}
	return votes.keys[votes.top()], true
}
