package lmeval

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

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
//     total, which is the same weighted mean of the leaves (v0.4.0 and
//     v0.4.1 evaluator.py fold each child into the group's running
//     weighted mean; v0.4.2 calls aggregate_subtask_metrics(metrics,
//     sizes), whose weight_by_size defaults to True). Those files record
//     no sample counts (n-samples came in v0.4.3), so their groups are
//     recomputed only where the plain mean already gives the reported
//     value (subtasks of one size); otherwise the note says why not.
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
		// Without sizes the harness's size-weighted mean cannot be
		// computed: a plain mean that differs says nothing about the
		// reported value, so nothing is claimed.
		c.Note = fmt.Sprintf("not recomputed: the plain mean of its %d subtasks' values (%s) is not the reported value, and the results file does not record their sample counts, which the harness weighs them by", len(values), model.FormatFloat(plain, 4))
		if len(r.NSamples) == 0 && len(r.SampleLen) == 0 {
			c.Note = fmt.Sprintf("not recomputed: the harness before v0.4.3 weighs each subtask by its sample count, which this results file does not record (no n-samples); the plain mean of its %d subtasks' values is %s", len(values), model.FormatFloat(plain, 4))
		}
	}
	if len(values) < len(leaves) {
		extra := fmt.Sprintf("%d of its %d subtasks report %s,%s (the harness averages those)", len(values), len(leaves), m.Name, m.Filter)
		if c.Note == "" {
			c.Note = extra
		} else {
			c.Note += "; " + extra
		}
	}
	if r.SubtasksFromAliases {
		extra := "subtasks read from the results' alias indentation (no group_subtasks before v0.4.2)"
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

// unheldGroups keeps the comparisons of the groups that hold none of
// tasks (the run's tasks with a samples file here): the run's first
// dataset carries them, so that no group the results file reports is
// left out of summary and the header.
func (r *results) unheldGroups(all []model.GroupComparison, tasks map[string]bool) []model.GroupComparison {
	var out []model.GroupComparison
	leaves := r.groups().leaves
	for _, c := range all {
		held := false
		for t := range tasks {
			held = held || leaves[c.Group][t]
		}
		if !held {
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

// aliasDepth is a results entry's depth in the task hierarchy as v0.4.0
// and v0.4.1 write it: the alias prefixed with " "*tab + "- " (tab > 0).
func aliasDepth(fields []entry) int {
	for _, f := range fields {
		if f.Key != "alias" {
			continue
		}
		var a string
		if json.Unmarshal(f.Val, &a) != nil {
			return 0
		}
		t := strings.TrimLeft(a, " ")
		if strings.HasPrefix(t, "- ") && len(t) < len(a) {
			return len(a) - len(t)
		}
	}
	return 0
}

// subtasksFromAliases rebuilds group_subtasks for a results file that has
// none (v0.4.0, v0.4.1; group_subtasks came in v0.4.2, commit 00dc99603).
// Those versions write "results" in the order print_tasks walks the task
// hierarchy, depth first, children sorted, each entry's alias prefixed
// with its depth (v0.4.0 evaluator.py print_tasks and the alias loop after
// it; v0.4.1 print_tasks(task_hierarchy, results, tab)). So an entry at
// depth d is a child of the nearest entry before it at depth d-1. It
// returns nil when the order and depths do not make such a tree of the
// file's groups.
func subtasksFromAliases(order []string, depth map[string]int, groups map[string]bool) map[string][]string {
	out := map[string][]string{}
	var path []string
	for _, t := range order {
		d := depth[t]
		if d > len(path) {
			return nil // deeper than its predecessor's child: not that tree
		}
		path = path[:d]
		if d > 0 {
			p := path[d-1]
			if !groups[p] {
				return nil
			}
			out[p] = append(out[p], t)
		}
		path = append(path, t)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
