package plain

import (
	"sort"
	"strings"

	"evalview/model"
	"evalview/model/query"
)

// presentScan is how many records Present looks at for the fields most
// records have.
const presentScan = 500

// maxLabelColumns is how many of the records' short fields the list
// shows by default.
const maxLabelColumns = 3

// Present fills ds.Presentation: plain records have no score, so the
// default list's score column would stay empty beside "unscored"; the
// list shows instead, after the id and the title, the first few short
// fields (a language, an answer, a flag) that most records have, in the
// file's field order. c picks others.
func Present(ds *model.Dataset) {
	ds.Presentation = model.Presentation{
		Columns:     append([]string{"id", "title"}, labelColumns(ds)...),
		NoMetrics:   "plain records: no scores or metrics to report",
		FieldLabels: true,
	}
}

// labelColumns are the query fields of the label keys at least half of
// the first records have, short on every one of them (a column shows no
// long text), in the order the file first gives its fields,
// the id and the fields titles are taken from left out.
func labelColumns(ds *model.Dataset) []string {
	n := min(ds.Records.Len(), presentScan)
	if n == 0 {
		return nil
	}
	count := map[string]int{}
	long := map[string]bool{}
	var order []string
	for i := 0; i < n; i++ {
		for k, v := range ds.Records.Summary(i).Labels.All() {
			if v == "" {
				long[k] = true // a long text or an object, in the record only
				continue
			}
			if count[k] == 0 {
				order = append(order, k)
			}
			count[k]++
		}
	}
	// The file's field order, where the facts give it; keys beyond it
	// (past the first 20) follow in name order.
	rank := map[string]int{}
	for i, k := range strings.Split(ds.Fact("fields"), ", ") {
		rank[k] = i + 1
	}
	sortByRank(order, rank)
	var out []string
	for _, k := range order {
		if len(out) == maxLabelColumns {
			break
		}
		if 2*count[k] < n || isTitleKey(k) || long[k] {
			continue
		}
		out = append(out, query.LabelField(k))
	}
	return out
}

// sortByRank orders keys by rank (0, unranked, last), then by name.
func sortByRank(keys []string, rank map[string]int) {
	sort.SliceStable(keys, func(i, j int) bool {
		ri, rj := rank[keys[i]], rank[keys[j]]
		switch {
		case ri == rj:
			return keys[i] < keys[j]
		case ri == 0 || rj == 0:
			return rj == 0
		}
		return ri < rj
	})
}

// isTitleKey reports whether titles are taken from field k.
func isTitleKey(k string) bool {
	for _, t := range titleKeys {
		if strings.EqualFold(k, t) {
			return true
		}
	}
	return false
}
