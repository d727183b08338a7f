package lmeval

import (
	"encoding/json"
	"maps"
	"slices"

	"evalview/model"
)

// knownAggregations are the harness's registered aggregation names
// (lm_eval/api/metrics.py register_aggregation, v0.4.0 to v0.4.12).
var knownAggregations = map[string]bool{
	"mean": true, "median": true, "nanmean": true, "perplexity": true, "weighted_perplexity": true,
	"bits_per_byte": true, "f1": true, "matthews_corrcoef": true, "bleu": true, "chrf": true,
	"ter": true, "brier_score": true, "bypass": true,
}

// metricRules reads how task aggregates each metric from its config's
// metric_list (a name, or the source of a function the config named,
// which the harness dumps with inspect.getsource), and the metric names
// the rows may hold: those plus the ones the results file reports.
func metricRules(r *results, task string) ([]model.MetricRule, map[string]bool) {
	known := map[string]bool{}
	if r == nil {
		return nil, known
	}
	for _, m := range r.Metrics[task] {
		known[m.Name] = true
	}
	var cfg struct {
		MetricList []map[string]json.RawMessage
	}
	parts, ok := r.config(task)
	if !ok || len(parts.MetricList) > 0 && json.Unmarshal(parts.MetricList, &cfg.MetricList) != nil {
		return nil, known
	}
	var rules []model.MetricRule
	if len(cfg.MetricList) == 0 {
		rules = classTaskRules(task, known)
	}
	for _, m := range cfg.MetricList {
		var name string
		if json.Unmarshal(m["metric"], &name) != nil || name == "" || !isIdent(name) {
			continue // a metric given as a function: its rows name it otherwise
		}
		known[name] = true
		rule := model.MetricRule{Name: name, Aggregation: model.DefaultAggregation(name)}
		var agg string
		if raw, ok := m["aggregation"]; ok && json.Unmarshal(raw, &agg) == nil && agg != "" {
			if knownAggregations[agg] {
				rule.Aggregation = agg
			} else {
				rule = model.RuleFromFunction(name, agg)
			}
		}
		rules = append(rules, rule)
	}
	return rules, known
}

func isIdent(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '@' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// classRules are the aggregations of Python-class tasks, whose configs
// list no metrics: the harness takes them from the class's aggregation().
// squadv2 (lm_eval/tasks/squadv2/task.py, v0.4.0 to v0.4.12) aggregates
// every metric with evaluate's squad_v2 over the rows' (prediction,
// reference) dicts.
var classRules = map[string]map[string]string{
	"squadv2": {"exact": "squad_v2", "f1": "squad_v2", "HasAns_exact": "squad_v2", "HasAns_f1": "squad_v2",
		"NoAns_exact": "squad_v2", "NoAns_f1": "squad_v2", "best_exact": "squad_v2", "best_f1": "squad_v2"},
}

// classTaskRules are the rules of a Python-class task evalview knows.
func classTaskRules(task string, known map[string]bool) []model.MetricRule {
	var rules []model.MetricRule
	for _, name := range slices.Sorted(maps.Keys(classRules[task])) {
		known[name] = true
		rules = append(rules, model.MetricRule{Name: name, Aggregation: classRules[task][name]})
	}
	return rules
}
