package main

import (
	"fmt"
	"math"
	"strings"

	"evalview/model"
)

// differIssues are the differences summary marks (model.Report: a metric
// recomputed from the records, or by the loader from the artifact's own
// files, that disagrees with the reported one; a group's value from its
// subtasks) as check's findings, each with its size and, where the two
// are 100 times apart, the scale it looks like. A difference the loader
// reported itself (its own metric-differs, which knows the writer's
// reasons) is not said twice.
//
// They are warnings, as the loaders' own metric-differs are: the
// artifact is readable and every value shown as its writer wrote it; the
// samples do not reproduce a reported value (trimmed samples, another
// run's results, a value written as a percent), which --strict and
// summary --fail-on-differs fail on, and plain check does not.
func differIssues(ds *model.Dataset, have []model.Issue) []model.Issue {
	// A loader's warning covers a metric it names, under the filter it
	// names, or under every filter when it names none of them.
	namesFilter := func(msg string) bool {
		for _, f := range ds.Filters {
			if f != "" && strings.Contains(msg, f) {
				return true
			}
		}
		return false
	}
	said := func(name, filter string) bool {
		for _, is := range have {
			if is.Code == "metric-differs" && strings.Contains(is.Message, name) &&
				(filter == "" || strings.Contains(is.Message, filter) || !namesFilter(is.Message)) {
				return true
			}
		}
		return false
	}
	var out []model.Issue
	for _, c := range model.RecomputeMetrics(ds) {
		if !c.Differs() || said(c.Name, c.Filter) {
			continue
		}
		where := c.Name
		if c.Filter != "" {
			where += "," + c.Filter
		}
		from := fmt.Sprintf("the %s give", count(c.N, "record"))
		if c.N == 0 {
			from = "recomputed, it is"
		}
		agg := ""
		if c.Aggregation != "" {
			agg = " (" + c.Aggregation + ")"
		}
		out = append(out, model.Warnf("metric-differs", ds.Path, 0, "",
			"%s: reported %s, %s %s%s: %s", where, diffNum(c.Reported), from, diffNum(c.Samples), agg, gap(c.Reported, c.Samples)))
	}
	for _, g := range ds.Groups {
		if !g.Differs() || said(g.Group, g.Filter) {
			continue
		}
		out = append(out, model.Warnf("metric-differs", ds.Path, 0, "",
			"group %s %s,%s: reported %s, its %s give %s: %s", g.Group, g.Name, g.Filter, diffNum(g.Reported), count(g.Subtasks, "subtask"), diffNum(g.Recomputed), gap(g.Reported, g.Recomputed)))
	}
	return out
}

// gap says how far apart a reported value and a recomputed one are, and
// whether one is the other times 100 (a percent written for a fraction,
// or the other way round).
func gap(reported, recomputed float64) string {
	if math.IsNaN(reported) || math.IsNaN(recomputed) || math.IsInf(reported, 0) || math.IsInf(recomputed, 0) {
		return "one is not a number"
	}
	s := "off by " + diffNum(math.Abs(reported-recomputed))
	switch {
	case hundredfold(reported, recomputed):
		s += "; the reported value is 100 × the recomputed one: written as a percent?"
	case hundredfold(recomputed, reported):
		s += "; the recomputed value is 100 × the reported one: the records hold percents?"
	}
	return s
}

// hundredfold reports whether a is b times 100, to the rounding of a
// value written with two decimals.
func hundredfold(a, b float64) bool {
	if b == 0 {
		return false
	}
	return math.Abs(a-100*b) <= 0.005+1e-9*math.Abs(a)
}

// diffNum writes a value with at most six significant digits, as the
// loaders' own metric-differs do.
func diffNum(f float64) string { return model.FormatSignificant(f, 6) }
