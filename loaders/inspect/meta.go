package inspect

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// facts lists the header's facts in display order.
func facts(ld *logData) []model.Fact {
	h := &ld.header
	var out []model.Fact
	add := func(k, v string) {
		if v != "" {
			out = append(out, model.Fact{Key: k, Value: v})
		}
	}
	add("model", h.Eval.Model)
	add("task", h.Eval.Task)
	status := h.Status
	if ld.running {
		status = "running (journal only: no header.json yet)"
	}
	add("status", status)
	if r := h.Results; r != nil {
		add("samples", fmt.Sprintf("%d of %d completed", r.CompletedSamples, r.TotalSamples))
	}
	if e := h.Eval.Config.Epochs; e != nil && *e > 1 {
		add("epochs", fmt.Sprint(*e))
	}
	if rs := h.Eval.Config.EpochsReducer; len(rs) > 0 {
		add("reducer", strings.Join(rs, ", "))
	}
	add("dataset", h.Eval.Dataset.Name)
	add("created", h.Eval.Created)
	add("started", h.Stats.StartedAt)
	add("completed", h.Stats.CompletedAt)
	add("run id", h.Eval.RunID)
	add("eval id", h.Eval.EvalID)
	if v := strings.TrimSpace(string(h.Eval.TaskVersion)); v != "" && v != "0" && v != "null" {
		add("task version", strings.Trim(v, `"`))
	}
	add("task file", h.Eval.TaskFile)
	var solvers []string
	for _, s := range h.Plan.Steps {
		solvers = append(solvers, s.Solver)
	}
	add("solvers", strings.Join(solvers, " → "))
	add("tags", strings.Join(h.Eval.Tags, ", "))
	add("inspect_ai", h.Eval.Packages["inspect_ai"])
	models := make([]string, 0, len(h.Stats.ModelUsage))
	for m := range h.Stats.ModelUsage {
		models = append(models, m)
	}
	sort.Strings(models)
	for _, m := range models {
		u := h.Stats.ModelUsage[m]
		add("tokens "+m, fmt.Sprintf("%d in, %d out, %d total", u.Input, u.Output, u.Total))
	}
	add("format", ld.format)
	return out
}

// reportedMetrics are the header's metrics, one per scorer and metric key;
// a scorer's stderr becomes the Stderr of its accuracy or mean.
func reportedMetrics(views []view) []model.Metric {
	var out []model.Metric
	for _, v := range views {
		var stderr *float64
		for _, m := range v.metrics {
			if metricName(m) == "stderr" {
				if f, ok := metricFloat(m); ok {
					stderr = &f
				}
			}
		}
		for _, m := range v.metrics {
			f, ok := metricFloat(m)
			if !ok {
				continue
			}
			name := metricName(m)
			if name == "stderr" && stderr != nil && hasMean(v) {
				continue
			}
			mt := model.Metric{Filter: v.label, Name: m.Key, Value: f}
			if (name == "accuracy" || name == "mean") && stderr != nil {
				mt.Stderr, mt.HasStderr = *stderr, true
			}
			out = append(out, mt)
		}
	}
	return out
}

func hasMean(v view) bool {
	for _, m := range v.metrics {
		if n := metricName(m); n == "accuracy" || n == "mean" {
			return true
		}
	}
	return false
}

func metricFloat(m kv) (float64, bool) {
	var em evalMetric
	if json.Unmarshal(m.Value, &em) != nil {
		return 0, false
	}
	return toFloat(em.Value)
}

// logIssues are findings about the log as a whole.
func logIssues(ld *logData) []model.Issue {
	h := &ld.header
	var out []model.Issue
	where := ld.path
	switch {
	case ld.running:
		out = append(out, model.Warnf("log-running", where, 0, "",
			"the log has no header.json: the run is still writing it, or died; shown from its journal (%d summaries), with no reported metrics", ld.count))
	case h.Status == "error":
		msg := "the run ended in error"
		if h.Error != nil && h.Error.Message != "" {
			msg += ": " + jsonl.Clip(firstLine(h.Error.Message), 300)
		}
		out = append(out, model.Errorf("log-error", where, 0, "", "%s", msg))
	case h.Status == "cancelled":
		out = append(out, model.Warnf("log-cancelled", where, 0, "", "the run was cancelled; the log holds the samples finished before"))
	}
	if r := h.Results; r != nil && r.TotalSamples > 0 && r.TotalSamples != ld.count {
		out = append(out, model.Warnf("count-mismatch", where, 0, "",
			"the header counts %d samples (samples × epochs), the log summarises %d", r.TotalSamples, ld.count))
	}
	return out
}

// metricIssues recompute each view's standard metrics over the records'
// reduced values (NaN already left out, as scorer_for_metrics leaves it)
// and report those that disagree with the header.
func metricIssues(ld *logData, views []view, reduced [][]float64, records int) []model.Issue {
	var out []model.Issue
	if records == 0 {
		return nil // a log written without samples: nothing to recompute from
	}
	for vi, v := range views {
		if !knownReducer(v.reducer) {
			continue
		}
		for _, m := range v.metrics {
			logged, ok := metricFloat(m)
			if !ok {
				continue
			}
			var em evalMetric
			if json.Unmarshal(m.Value, &em) == nil && len(em.Params) > 0 {
				continue
			}
			name := metricName(m)
			got, ok := metricValue(name, reduced[vi])
			if !ok || closeEnough(got, logged) {
				continue
			}
			if len(reduced[vi]) == 0 && math.IsNaN(logged) {
				continue
			}
			out = append(out, model.Warnf("metric-differs", ld.path, 0, "",
				"scorer %s: the header reports %s %s, the summaries give %s (%d of %d samples scored)",
				v.label, m.Key, numText(logged), numText(got), len(reduced[vi]), records))
		}
	}
	return out
}

func knownReducer(name string) bool {
	base, _, _ := parseReducer(name)
	switch base {
	case "mean", "median", "mode", "max", "at_least", "pass_at":
		return true
	}
	return false
}
