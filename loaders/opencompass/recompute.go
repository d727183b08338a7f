package opencompass

import (
	"fmt"
	"math"
	"strings"

	"evalview/model"
)

// recompute recomputes the reported metrics the records give the
// evaluator's way: accuracy (and "accuracy (n runs average)") as 100
// times the mean of the records' correctness, as AccEvaluator,
// get_final_results and the evaluators that count correct details
// compute it; for an LLM judge's grades, its counts too. A value that
// differs is a warning beside it.
func recompute(ds *model.Dataset, res *results, recs []*model.Record, name string, issues []model.Issue) ([]model.MetricComparison, []model.Issue) {
	var vals []float64
	for _, r := range recs {
		if !r.HasScore {
			return nil, issues // not every record says whether it is correct
		}
		vals = append(vals, r.Score)
	}
	if len(vals) == 0 || name == "" {
		return nil, issues
	}
	sum := 0.0
	for _, v := range vals {
		sum += v
	}
	var out []model.MetricComparison
	add := func(metric string, v float64, agg string) {
		c := model.MetricComparison{Name: metric, Samples: v, N: len(vals), HasSamples: true, Aggregation: agg}
		for _, m := range res.metrics {
			if m.Name == metric {
				c.Reported, c.HasReport = m.Value, true
			}
		}
		if !c.HasReport {
			return
		}
		out = append(out, c)
		if c.Differs() {
			issues = append(issues, model.Warnf("metric-differs", res.path, 0, "",
				"%s: the results file reports %s %.6g, %s over %d records is %.6g (trimmed predictions, details of another run, or an evaluator that does not count the details' %s)",
				ds.Task, metric, c.Reported, agg, len(vals), v, name))
		}
	}
	acc := 100 * sum / float64(len(vals))
	for _, m := range res.metrics {
		if m.Name == "accuracy" || strings.HasPrefix(m.Name, "accuracy (") && strings.HasSuffix(m.Name, " runs average)") {
			add(m.Name, acc, fmt.Sprintf("100 × mean of %s", name))
		}
	}
	if res.graded {
		counts := map[string]int{}
		for _, r := range recs {
			for _, a := range r.Attempts {
				g := strings.TrimPrefix(a.StatusText, "grade ")
				counts[g]++
			}
		}
		add("correct_count", float64(counts["A"]), "count of grade A")
		add("incorrect_count", float64(counts["B"]), "count of grade B")
		add("not_attempted_count", float64(counts["unknown"]), "count of no grade")
	}
	for i := range out {
		if math.IsNaN(out[i].Samples) {
			out[i].HasSamples = false
		}
	}
	return out, issues
}
