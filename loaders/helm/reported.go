package helm

import (
	"evalview/model"
)

// A run's reported stats as metrics, and the per-instance values they
// are recomputed from.

// reportedMetrics are stats.json's means, each under its context: the
// main split's plain context first. Stats of count 0 have no mean and
// are left out, as helm-summarize leaves them.
func reportedMetrics(reported []stat, mainSplit string) []model.Metric {
	var ctxs []context
	seen := map[context]bool{}
	for _, s := range reported {
		c := s.Name.context()
		if !seen[c] {
			seen[c] = true
			ctxs = append(ctxs, c)
		}
	}
	var out []model.Metric
	for _, c := range sortedContexts(ctxs, mainSplit) {
		for _, s := range reported {
			if s.Name.context() != c || s.Count == 0 || s.Mean == nil {
				continue
			}
			m := model.Metric{Filter: contextName(c), Name: s.Name.Name, Value: *s.Mean}
			if lower(s.Name.Name) {
				f := false
				m.HigherIsBetter = &f
			}
			out = append(out, m)
		}
	}
	return out
}

// lower names the metrics HELM's schemas mark lower_is_better among the
// common ones.
func lower(name string) bool {
	switch name {
	case "perplexity", "bits_per_byte", "ece_10_bin", "ece_1_bin", "inference_runtime", "toxic_frac",
		"expected_max_toxicity", "max_toxicity_probability", "num_prompt_tokens", "num_output_tokens":
		return true
	}
	return false
}

// keyOf finds the stat a metric was made from.
func keyOf(reported []stat, m model.Metric) (key, bool) {
	for _, s := range reported {
		if s.Name.Name == m.Name && contextName(s.Name.context()) == m.Filter {
			return s.Name.key(), true
		}
	}
	return key{}, false
}

// aggregationOf names how a stat is recomputed.
func aggregationOf(k key) string {
	if k.perturbation != "" {
		if _, _, _, on := perturbationOf(k.perturbation); on == "worst" {
			return "HELM worst case: per instance the least of the original and its perturbations, averaged"
		}
	}
	switch k.name {
	case "perplexity", "bits_per_byte", "logprob_per_byte":
		return "HELM " + k.name + " from the summed logprob and token or byte counts"
	case "num_instances":
		return "HELM instances per context"
	}
	return "HELM mean: per trial over the instances, then over the trials"
}

// trialCount is the number of train trials the run made.
func trialCount(spec runSpec, recs map[recKey]*rec) int {
	n := 1
	if t := spec.AdapterSpec.NumTrainTrials; t != nil && *t > n {
		n = *t
	}
	for _, r := range recs {
		for _, rs := range r.states {
			if rs.Trial+1 > n {
				n = rs.Trial + 1
			}
		}
	}
	return n
}

// valueOf is a record's value of metric name: the mean of its trials'
// means; ok is false when no trial has one.
func valueOf(r *rec, name string) (float64, bool) {
	sum, n := 0.0, 0
	for _, ss := range r.stats {
		var a acc
		for _, s := range ss {
			if s.Name.Name == name && s.Count > 0 && s.Name.context() == r.ctx {
				a.merge(s)
			}
		}
		if a.count > 0 {
			sum += a.mean()
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// isBinary reports whether metric name is 0 or 1 on every trial of every
// record that has it (and on one record at least).
func isBinary(recs map[recKey]*rec, name string) bool {
	if name == "" {
		return false
	}
	any := false
	for _, r := range recs {
		for _, ss := range r.stats {
			for _, s := range ss {
				if s.Name.Name != name || s.Count == 0 || s.Mean == nil {
					continue
				}
				if *s.Mean != 0 && *s.Mean != 1 {
					return false
				}
				any = true
			}
		}
	}
	return any
}
