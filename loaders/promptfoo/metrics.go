package promptfoo

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"evalview/model"
)

// figure is a reported metric beside the value recomputed from the
// results, the writer's way.
type figure struct {
	metric     model.Metric
	recomputed model.MetricComparison
	differs    bool
	note       string
}

// outcome tallies cells the way promptfoo's metrics count them.
type outcome struct {
	n, pass, fail, errors  int
	score, latency, cost   float64
	assertPass, assertFail int
	tokens, gradingTokens  [4]float64 // total, prompt, completion, cached
	named                  map[string]float64
}

// tally counts cells.
func (e *eval) tally(cells []*cell) outcome {
	o := outcome{named: map[string]float64{}}
	for _, c := range cells {
		r := e.record(&column{}, c)
		o.n++
		switch r.Status {
		case model.StatusPass:
			o.pass++
		case model.StatusError:
			o.errors++
		case model.StatusFail:
			o.fail++
		}
		if r.HasScore {
			o.score += r.Score
		}
		a := r.Attempts[0]
		o.latency += a.DurationMS
		for _, s := range a.Scores {
			o.named[s.Name] += s.Value
		}
		var g *gradingResult
		var tokens *tokenUsage
		var cost *float64
		if c.res != nil {
			g, cost = c.res.GradingResult, c.res.Cost
			if c.res.Response != nil {
				tokens = c.res.Response.TokenUsage
			}
		}
		if c.tc != nil && !c.tc.text {
			if g == nil {
				g = c.tc.GradingResult
			}
			if cost == nil {
				cost = c.tc.Cost
			}
			if tokens == nil {
				tokens = c.tc.TokenUsage
			}
		}
		if cost != nil {
			o.cost += *cost
		}
		addTokens(&o.tokens, tokens)
		if g != nil {
			addTokens(&o.gradingTokens, g.TokensUsed)
			for _, cr := range g.ComponentResults {
				if cr.Pass {
					o.assertPass++
				} else {
					o.assertFail++
				}
			}
		}
	}
	return o
}

func addTokens(to *[4]float64, t *tokenUsage) {
	if t == nil {
		return
	}
	for i, v := range []*float64{t.Total, t.Prompt, t.Completion, t.Cached} {
		if v != nil {
			to[i] += *v
		}
	}
}

// compare builds a figure: the reported value beside the recomputed one.
// When the writer's rule changed across versions, alts are the other
// rules: the one the reported value matches is the one shown.
func compare(filter, name string, reported *float64, n int, rule string, got float64, alts ...alt) (figure, bool) {
	if reported == nil {
		return figure{}, false
	}
	for _, a := range alts {
		if math.Abs(a.value-*reported) <= 1e-6 && math.Abs(got-*reported) > 1e-6 {
			rule, got = a.rule, a.value
		}
	}
	f := figure{
		metric:     model.Metric{Filter: filter, Name: name, Value: *reported},
		recomputed: model.MetricComparison{Filter: filter, Name: name, Samples: got, N: n, HasSamples: true, Aggregation: rule},
	}
	if math.Abs(got-*reported) > 1e-6 {
		f.differs = true
		where := "this prompt's metrics"
		if filter != "" {
			where = "the eval's stats"
		}
		f.note = fmt.Sprintf("%s: %s report %.6g, its %d results give %.6g (%s)", name, where, *reported, n, got, rule)
	}
	return f, true
}

type alt struct {
	rule  string
	value float64
}

// columnMetrics are a column's metrics (CompletedPrompt.metrics) beside
// the sums of its results.
func (e *eval) columnMetrics(col *column, cells []*cell) []figure {
	m := col.metrics
	if m == nil {
		return nil
	}
	o := e.tally(cells)
	var out []figure
	put := func(f figure, ok bool) {
		if ok {
			out = append(out, f)
		}
	}
	put(compare("", "score", m.Score, o.n, "sum of the results' scores", o.score))
	put(compare("", "testPassCount", m.TestPassCount, o.n, "results that pass", float64(o.pass)))
	if m.TestErrorCount != nil {
		put(compare("", "testFailCount", m.TestFailCount, o.n, "results that fail, errors not counted", float64(o.fail),
			alt{"results that do not pass, errors counted", float64(o.fail + o.errors)}))
		put(compare("", "testErrorCount", m.TestErrorCount, o.n, "results that failed by an error", float64(o.errors)))
	} else {
		put(compare("", "testFailCount", m.TestFailCount, o.n, "results that do not pass (before testErrorCount, errors counted)", float64(o.fail+o.errors)))
	}
	put(compare("", "assertPassCount", m.AssertPassCount, o.n, "assertions that pass, in componentResults", float64(o.assertPass)))
	put(compare("", "assertFailCount", m.AssertFailCount, o.n, "assertions that fail, in componentResults", float64(o.assertFail)))
	put(compare("", "totalLatencyMs", m.TotalLatencyMs, o.n, "sum of the results' latencyMs", o.latency))
	put(compare("", "cost", m.Cost, o.n, "sum of the results' cost", o.cost))
	if t := m.TokenUsage; t != nil {
		for i, p := range []*float64{t.Total, t.Prompt, t.Completion, t.Cached} {
			name := "tokenUsage." + tokenNames[i]
			put(compare("", name, p, o.n, "sum of the responses' tokenUsage."+tokenNames[i], o.tokens[i]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(m.NamedScores)) {
		v := m.NamedScores[k]
		put(compare("", "namedScores."+k, &v, o.n, "sum of the results' named score "+k, o.named[k]))
	}
	return out
}

var tokenNames = [4]string{"total", "prompt", "completion", "cached"}

// statsFilter is the filter of the eval's own stats: they count every
// column.
const statsFilter = "eval (all columns)"

// statsMetrics are the eval's stats beside what all its results give.
func (e *eval) statsMetrics() []figure {
	s := e.stats
	if s == nil {
		return nil
	}
	o := e.tally(e.cells)
	var out []figure
	put := func(f figure, ok bool) {
		if ok {
			out = append(out, f)
		}
	}
	put(compare(statsFilter, "successes", s.Successes, o.n, "results that pass", float64(o.pass)))
	if s.Errors != nil {
		put(compare(statsFilter, "failures", s.Failures, o.n, "results that fail, errors not counted", float64(o.fail),
			alt{"results that do not pass, errors counted", float64(o.fail + o.errors)}))
		put(compare(statsFilter, "errors", s.Errors, o.n, "results that failed by an error", float64(o.errors)))
	} else {
		put(compare(statsFilter, "failures", s.Failures, o.n, "results that do not pass (errors counted, before stats.errors)", float64(o.fail+o.errors)))
	}
	if t := s.TokenUsage; t != nil {
		for i, p := range []*float64{t.Total, t.Prompt, t.Completion, t.Cached} {
			name := "tokenUsage." + tokenNames[i]
			if i == 3 && p != nil && *p == 0 && o.tokens[i] == 0 && o.gradingTokens[i] == 0 {
				put(compare(statsFilter, name, p, o.n, "sum of the responses' tokenUsage.cached", 0))
				continue
			}
			put(compare(statsFilter, name, p, o.n, "sum of the responses' tokenUsage."+tokenNames[i], o.tokens[i],
				alt{"sum of the responses' and the graders' tokenUsage." + tokenNames[i] + " (version 2)", o.tokens[i] + o.gradingTokens[i]}))
		}
	}
	return out
}
