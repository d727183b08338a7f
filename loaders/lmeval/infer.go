package lmeval

import (
	"encoding/json"
	"strings"

	"evalview/model"
	"evalview/model/lmfilter"
)

// Rows without a "filter" key. The harness added "filter" (and "metrics")
// to logged rows in v0.4.7 (commit 5680a2e6b, 2024-11-28); every earlier
// 0.4 version (v0.4.0 to v0.4.6) wrote rows without them. Those versions
// log a task's samples in evaluator.evaluate as
//
//	for filter_key in task.instances[0].filtered_resps.keys():
//	    for doc_id, doc in doc_iterator:
//	        ... logged_samples.append(example)
//
// (v0.4.0 lm_eval/evaluator.py:358, v0.4.2 :401, v0.4.5 :528), and the
// keys of filtered_resps are in the order Task._filters applied them,
// which is configs.<task>.filter_list's order (v0.4.0 api/task.py:637;
// "none" alone without a filter_list). With several ranks, each rank's
// rows are gathered one rank after another, each in that same order. So a
// doc's k-th row belongs to the k-th filter of filter_list, whatever the
// ranks; with one filter every row is that filter's.

// configFilterNames lists the filter names of task's config in
// filter_list order, or says why there are none to attribute rows to.
func configFilterNames(r *results, task string) ([]string, string) {
	if r == nil {
		return nil, "no results file: rows without a \"filter\" key are filed under \"none\""
	}
	if _, ok := r.Configs[task]; !ok {
		return nil, "the results file has no config for task " + task + ": rows without a \"filter\" key are filed under \"none\""
	}
	cfg, ok := r.config(task)
	if !ok {
		return nil, "the task config cannot be read: rows without a \"filter\" key are filed under \"none\""
	}
	ps, err := lmfilter.ParseFilterList(cfg.FilterList)
	if err != nil {
		// A step evalview cannot parse still has a name.
		var named []struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(cfg.FilterList, &named) != nil {
			return nil, "filter_list cannot be read: rows without a \"filter\" key are filed under \"none\""
		}
		var names []string
		for _, n := range named {
			names = append(names, n.Name)
		}
		return names, ""
	}
	if len(ps) == 0 {
		return []string{noFilter}, "" // the harness's default: one "none" filter
	}
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return names, ""
}

// inferFilter names the filter of a row without a "filter" key that is
// the next row of record ri, and counts it. The caller holds mu.
func (s *scanned) inferFilter(ri int) string {
	s.inferUsed++
	if len(s.inferred) == 0 {
		return noFilter
	}
	for len(s.inferRows) <= ri {
		s.inferRows = append(s.inferRows, 0)
	}
	k := int(s.inferRows[ri])
	s.inferRows[ri]++
	// A doc with more rows than filters (a file appended to twice): the
	// names go round again, and the second round is reported as
	// duplicates.
	return s.inferred[k%len(s.inferred)]
}

// inferNotes are the dataset notes on how rows without a "filter" key
// were filed. The caller holds mu.
func (s *scanned) inferNotes() []model.Issue {
	if s.inferUsed == 0 || len(s.inferred) == 1 && s.inferred[0] == noFilter {
		return nil // "none" alone is what the harness wrote: nothing inferred
	}
	if len(s.inferred) == 0 {
		if s.inferWhy == "" {
			return nil
		}
		return []model.Issue{model.Notef("filter-inferred", s.path, 0, "", "%d rows have no \"filter\" key (harness before v0.4.7); %s", s.inferUsed, s.inferWhy)}
	}
	how := "every row is filter " + quoteName(s.inferred[0]) + "'s"
	if len(s.inferred) > 1 {
		how = "a doc's rows are its filters' in filter_list order (" + strings.Join(quoteNames(s.inferred), ", ") + "), as the harness of that era wrote them"
	}
	return []model.Issue{model.Notef("filter-inferred", s.path, 0, "",
		"%d rows have no \"filter\" key (harness before v0.4.7): attributed from the results file's configs.<task>.filter_list: %s", s.inferUsed, how)}
}

func quoteName(s string) string { return `"` + s + `"` }

func quoteNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = quoteName(n)
	}
	return out
}
