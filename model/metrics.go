package model

import (
	"fmt"
	"sort"
)

// MetricComparison puts a metric recomputed from the samples beside the
// value the artifact reports.
type MetricComparison struct {
	Filter string
	Name   string
	// Samples is the metric recomputed from the records' rows, with the
	// writer's aggregation (Aggregation); N counts the rows it used.
	Samples    float64
	N          int
	HasSamples bool
	Reported   float64
	HasReport  bool
	Stderr     float64
	HasStderr  bool
	// Aggregation names how Samples was computed ("mean", "f1", ...).
	Aggregation string
	// Note says why there is no recomputed value, or what it rests on
	// ("corpus-level, not recomputed: ...").
	Note string
}

// Differs reports whether both values exist and disagree beyond rounding
// (NaN equals NaN, and an infinity itself, as a reported NaN reproduced
// by the samples is no difference).
func (c MetricComparison) Differs() bool {
	if !c.HasSamples || !c.HasReport {
		return false
	}
	a, b := c.Samples, c.Reported
	if a != a || b != b {
		return (a != a) != (b != b)
	}
	if a == b {
		return false // infinities too
	}
	d := a - b
	if d < 0 {
		d = -d
	}
	return d > 1e-6
}

// rowSet is what the rows hold for one (filter, metric).
type rowSet struct {
	nums   []float64
	values []RowValue
}

// RecomputeMetrics recomputes every metric per filter from the dataset's
// summaries, with the writer's aggregation (Dataset.MetricRules, else the
// harness default for the name), and pairs it with the reported metrics.
// The result lists reported metrics first (in their order), then metrics
// only the samples have. Where a metric cannot be recomputed, Note says
// why. It reads summaries only, so it is cheap on big files.
func RecomputeMetrics(d *Dataset) []MetricComparison {
	sets := map[[2]string]*rowSet{}
	var order [][2]string
	get := func(k [2]string) *rowSet {
		s := sets[k]
		if s == nil {
			s = &rowSet{}
			sets[k] = s
			order = append(order, k)
		}
		return s
	}
	for i := 0; i < d.Records.Len(); i++ {
		sm := d.Records.Summary(i)
		for fi, o := range sm.Outcomes {
			if !o.Present || fi >= len(d.Filters) {
				continue
			}
			for _, m := range o.Metrics {
				s := get([2]string{d.Filters[fi], m.Name})
				s.nums = append(s.nums, m.Value)
			}
			for _, v := range o.Values() {
				s := get([2]string{d.Filters[fi], v.Name})
				s.values = append(s.values, v)
			}
		}
	}
	rules := map[string]MetricRule{}
	for _, r := range d.MetricRules {
		rules[r.Name] = r
	}
	aggregate := func(k [2]string) (MetricComparison, bool) {
		c := MetricComparison{Filter: k[0], Name: k[1]}
		s := sets[k]
		if s == nil {
			return c, false
		}
		rule, ok := rules[k[1]]
		if !ok {
			rule = MetricRule{Name: k[1], Aggregation: DefaultAggregation(k[1])}
		}
		v, n, agg, note := rule.Apply(s.nums, s.values)
		c.Aggregation, c.Note = agg, note
		c.N = n
		if note == "" && n > 0 {
			c.Samples, c.HasSamples = v, true
		}
		return c, true
	}
	var out []MetricComparison
	seen := map[[2]string]bool{}
	for _, r := range d.Metrics {
		k := [2]string{r.Filter, r.Name}
		seen[k] = true
		c, ok := aggregate(k)
		if !ok {
			c.Note = missingNote(d, r.Filter, r.Name)
			if l, found := loaderRecomputed(d, k); found {
				c = l
			} else if rule, ok := rules[r.Name]; ok && rule.Aggregation == "bypass" || !ok && DefaultAggregation(r.Name) == "bypass" {
				// --predict_only rows hold None: the reason is the
				// aggregation, not a missing value.
				_, _, c.Aggregation, c.Note = MetricRule{Name: r.Name, Aggregation: "bypass"}.Apply(nil, nil)
			}
		}
		c.Reported, c.HasReport, c.Stderr, c.HasStderr = r.Value, true, r.Stderr, r.HasStderr
		out = append(out, c)
	}
	var extra []MetricComparison
	for _, k := range order {
		if seen[k] {
			continue
		}
		c, _ := aggregate(k)
		extra = append(extra, c)
	}
	sort.SliceStable(extra, func(i, j int) bool { return extra[i].Filter < extra[j].Filter })
	return append(out, extra...)
}

// loaderRecomputed is the loader's own recomputation of reported metric
// k (Dataset.Recomputed), if it made one.
func loaderRecomputed(d *Dataset, k [2]string) (MetricComparison, bool) {
	for _, c := range d.Recomputed {
		if c.Filter == k[0] && c.Name == k[1] && c.HasSamples {
			return c, true
		}
	}
	return MetricComparison{}, false
}

// MainFirst orders the comparisons of metric main before the others,
// keeping their order otherwise (the header and the overview lead with
// the list's metric).
func MainFirst(cs []MetricComparison, main string) []MetricComparison {
	out := make([]MetricComparison, 0, len(cs))
	for _, c := range cs {
		if c.Name == main {
			out = append(out, c)
		}
	}
	for _, c := range cs {
		if c.Name != main {
			out = append(out, c)
		}
	}
	return out
}

// notRecomputed starts the note of a metric evalview does not recompute.
const notRecomputed = "not recomputed: "

// missingNote says why a reported metric has no value from the samples.
func missingNote(d *Dataset, filter, name string) string {
	if len(d.Filters) == 0 && d.Kind != KindLMEval {
		// Other formats do not recompute their reported figures here
		// (a run's are in its own summary fields).
		return ""
	}
	if d.Records.Len() == 0 || len(d.Filters) == 0 {
		for _, is := range d.Issues {
			if is.Code == "lfs-pointer" {
				return "the samples file is a Git LFS pointer, not its rows: nothing to recompute from (git lfs pull fetches them)"
			}
		}
		return "no samples rows: nothing to recompute from (lm-eval writes them with --log_samples)"
	}
	if d.FilterIndex(filter) < 0 {
		return fmt.Sprintf("the samples have no rows for filter %q", filter)
	}
	return fmt.Sprintf("no row of filter %q has a value for %s", filter, name)
}

// LowerIsBetter follows the writer (lm-eval's higher_is_better) and, where
// it says nothing, the harness's metric registry: perplexities, bits per
// byte, TER and the Brier score are better lower.
func LowerIsBetter(name string, higher *bool) bool {
	if higher != nil {
		return !*higher
	}
	switch name {
	case "perplexity", "word_perplexity", "byte_perplexity", "bits_per_byte", "ter", "brier_score":
		return true
	}
	return false
}
