package lmeval

import (
	"fmt"
	"math"
	"slices"

	"evalview/model"
	"evalview/model/lmmetrics"
)

// Group aggregates. A results file reports a group's metrics (mmlu,
// wmdp, mmlu_stem...) beside its subtasks', and group_subtasks names each
// group's children. The harness computes a group's "metric,filter" from
// every leaf task under it that reports that key:
//
//   - v0.4.3 to v0.4.11, evaluator_utils.consolidate_group_results:
//     aggregate_subtask_metrics(values, sizes, weight_by_size) over the
//     leaves (task_aggregation_list extends a group's list with its
//     subgroups'), sizes being each task's sample count, and the stderr
//     pooled_sample_stderr(stderrs, sizes);
//   - v0.4.12, api/group.py Group.aggregate: the same over
//     get_all_tasks(), sizes from each task's "sample_len";
//   - v0.4.0 to v0.4.2: always weighted by size, through each subgroup's
//     total, which is the same weighted mean of the leaves.
//
// The sample count is n-samples' "effective" (or sample_len where the file
// has it). The group's aggregate_metric_list is not in the results file,
// so both weightings are computed and the one that reproduces the
// reported value is kept; a group that reports metrics but matches
// neither is flagged.

// groupComparisons recomputes the metrics of every group of r that
// reports some, in group name order.
func (r *results) groupComparisons() []model.GroupComparison {
	var out []model.GroupComparison
	names := make([]string, 0, len(r.Groups))
	for g := range r.Groups {
		names = append(names, g)
	}
	slices.Sort(names)
	for _, g := range names {
		leaves := r.leaves(g, map[string]bool{})
		for _, m := range r.Metrics[g] {
			out = append(out, r.groupMetric(g, m, leaves))
		}
	}
	return out
}

// leaves lists the tasks under group g, depth first, each once.
func (r *results) leaves(g string, seen map[string]bool) []string {
	var out []string
	for _, c := range r.Subtasks[g] {
		if seen[c] {
			continue
		}
		seen[c] = true
		if len(r.Subtasks[c]) > 0 {
			out = append(out, r.leaves(c, seen)...)
			continue
		}
		out = append(out, c)
	}
	return out
}

// size is a task's sample count, 0 when the file does not say.
func (r *results) size(task string) int {
	if n, ok := r.SampleLen[task]; ok {
		return n
	}
	if n, ok := r.NSamples[task]; ok {
		return n[1]
	}
	return 0
}

func (r *results) groupMetric(g string, m model.Metric, leaves []string) model.GroupComparison {
	c := model.GroupComparison{Group: g, Filter: m.Filter, Name: m.Name, Reported: m.Value, Stderr: m.Stderr, HasStderr: m.HasStderr}
	var values, stderrs []float64
	var sizes []int
	sized := true
	for _, t := range leaves {
		for _, tm := range r.Metrics[t] {
			if tm.Name != m.Name || tm.Filter != m.Filter {
				continue
			}
			values = append(values, tm.Value)
			n := r.size(t)
			sized = sized && n > 0
			sizes = append(sizes, n)
			if tm.HasStderr {
				stderrs = append(stderrs, tm.Stderr)
			}
		}
	}
	c.Subtasks = len(values)
	if len(leaves) == 0 {
		c.Note = "group_subtasks names no subtask of " + g + ": not recomputed"
		if r.Subtasks == nil {
			c.Note = "the results file has no group_subtasks (harness v0.4.0): its subtasks are unknown, not recomputed"
		}
		return c
	}
	if len(values) == 0 {
		c.Note = fmt.Sprintf("none of its %d subtasks reports %s,%s", len(leaves), m.Name, m.Filter)
		return c
	}
	plain := lmmetrics.AggregateSubtasks(values, sizes, false)
	same := func(v float64) bool {
		return !(model.MetricComparison{Samples: v, HasSamples: true, Reported: m.Value, HasReport: true}).Differs()
	}
	switch {
	case sized && same(lmmetrics.AggregateSubtasks(values, sizes, true)):
		c.Recomputed, c.HasRecomputed, c.WeightBySize = lmmetrics.AggregateSubtasks(values, sizes, true), true, true
	case same(plain):
		c.Recomputed, c.HasRecomputed = plain, true
	case sized:
		w := lmmetrics.AggregateSubtasks(values, sizes, true)
		c.Recomputed, c.HasRecomputed, c.WeightBySize = w, true, true
		c.Note = fmt.Sprintf("reproduces neither the size-weighted mean (%s) nor the plain mean (%s) of its %d subtasks' values",
			model.FormatFloat(w, 4), model.FormatFloat(plain, 4), len(values))
	default:
		c.Recomputed, c.HasRecomputed = plain, true
		c.Note = fmt.Sprintf("the plain mean of its %d subtasks' values differs, and their sample counts are not in the file, so the size-weighted mean cannot be tried", len(values))
	}
	if len(values) < len(leaves) {
		extra := fmt.Sprintf("%d of its %d subtasks report %s,%s (the harness averages those)", len(values), len(leaves), m.Name, m.Filter)
		if c.Note == "" {
			c.Note = extra
		} else {
			c.Note += "; " + extra
		}
	}
	if sized && len(stderrs) == len(values) && len(values) > 0 {
		if s := lmmetrics.PooledStderr(stderrs, sizes); !math.IsNaN(s) {
			c.PooledStderr, c.HasPooledStderr = s, true
		}
	}
	return c
}

// groupsOf keeps the comparisons of the groups that hold task.
func (r *results) groupsOf(all []model.GroupComparison, task string) []model.GroupComparison {
	var out []model.GroupComparison
	leaves := r.groups().leaves
	for _, c := range all {
		if leaves[c.Group][task] {
			out = append(out, c)
		}
	}
	return out
}

// setGroups puts a dataset's group comparisons on it, and one header
// fact per group metric, so that the browser shows them.
func setGroups(ds *model.Dataset, comps []model.GroupComparison) {
	ds.Groups = comps
	for _, c := range comps {
		v := model.FormatFloat(c.Reported, 4) + " reported"
		if c.HasRecomputed {
			how := "plain mean"
			if c.WeightBySize {
				how = "weighted by size"
			}
			v += fmt.Sprintf(", %s recomputed from %d subtasks (%s)", model.FormatFloat(c.Recomputed, 4), c.Subtasks, how)
			if c.Differs() {
				v += ": DIFFERS"
			}
		}
		if c.Note != "" {
			v += "; " + c.Note
		}
		ds.Facts = append(ds.Facts, model.Fact{Key: "group " + c.Group + " " + c.Name + "," + c.Filter, Value: v})
	}
}
