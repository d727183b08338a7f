package tui

import (
	"slices"

	"evalview/model/query"
)

// searchHits reports whether n and N have somewhere to go: the search of
// the pane it was started in found something (for a list search, in the
// list or, when the detail follows it, in the detail). A search with no
// hit leaves them out of the help line.
func (m *Model) searchHits() bool {
	if m.searchIn == focusDetail {
		return m.detail.search.query != "" && len(m.detail.search.matches) > 0
	}
	if m.list.st.query == "" {
		return false
	}
	return len(m.list.st.matches) > 0 || m.detailFollowsListSearch() && len(m.detail.search.matches) > 0
}

// preferredFacetFields are the label fields the facets sheet opens on
// before others when status has nothing to tell apart (testsets, where
// every record is unscored): they say what a record is.
var preferredFacetFields = []string{"kind", "task_type", "category"}

// outcomeFacetFields are the lm-eval facet fields that describe the
// outcome, not the record: every record counts under each filter, so
// they never tell records apart the way a label does.
var outcomeFacetFields = []string{"filter", "answer", "agreement"}

// facetStartField picks the field the facets sheet opens on among fields
// (FacetFields order): status when it has more than one value, else the
// first preferred label field with more than one value, else the first
// other record field (label, tag, note label) with more than one value,
// else status (fields[0]). count returns how many distinct values a
// field has among the counted records.
func facetStartField(fields []string, count func(field string) int) int {
	if len(fields) == 0 || count(fields[0]) > 1 {
		return 0
	}
	for _, want := range preferredFacetFields {
		if i := slices.Index(fields, want); i > 0 && count(want) > 1 {
			return i
		}
	}
	for i := 1; i < len(fields); i++ {
		f := fields[i]
		if slices.Contains(preferredFacetFields, f) || slices.Contains(outcomeFacetFields, f) {
			continue // one value, or not a property of the record
		}
		if count(f) > 1 {
			return i
		}
	}
	return 0
}

// facetDistinct counts the distinct values of field among rows.
func facetDistinct(env query.Env, rows []int, field string) int {
	return len(query.Facet(env, rows, field))
}
