package query

import (
	"slices"
	"sort"

	"evalview/model"
)

// FacetRow is one value of a facet (VisiData's frequency sheet): how many
// of the visible records have it and how they scored.
type FacetRow struct {
	// Value is the field's value; "(none)" for records without one, which
	// Missing then marks (a real value "(none)" has Missing false).
	Value   string
	Missing bool
	Count   int
	// MeanScore is the mean score over the Scored records that have one.
	MeanScore float64
	Scored    int
	// Pass, Fail and Error count statuses; the rest are unscored.
	Pass, Fail, Error int
}

// Term returns the query term that narrows the list to this row's records
// (Enter on the row), for the facet's field.
func (r FacetRow) Term(field string) string {
	if r.Missing {
		return TermFor(field, "")
	}
	return TermFor(field, r.Value)
}

// Facet counts the records rows (indices into env.Dataset, normally the
// visible list) per value of field, with their mean score and statuses
// under env.Filter. A record with several values (tags, note labels)
// counts under each; the filter facet counts each doc under every filter
// it has a row for, with that filter's score, so it compares filters.
// Rows are sorted by count, most first, then by value in natural order,
// with (none) last among equals. An unknown field counts everything as
// (none).
func Facet(env Env, rows []int, field string) []FacetRow {
	if env.Dataset == nil || env.Dataset.Records == nil {
		return nil
	}
	f := resolveField(field)
	acc := map[string]*FacetRow{}
	var none *FacetRow
	add := func(value string, missing bool, o model.Outcome) {
		row := none
		if !missing {
			row = acc[value]
		}
		if row == nil {
			row = &FacetRow{Value: value, Missing: missing}
			if missing {
				row.Value, none = noneValue, row
			} else {
				acc[value] = row
			}
		}
		row.Count++
		if o.HasScore && o.Score == o.Score {
			row.MeanScore += o.Score // a sum until the end
			row.Scored++
		}
		switch o.Status {
		case model.StatusPass:
			row.Pass++
		case model.StatusFail:
			row.Fail++
		case model.StatusError:
			row.Error++
		}
	}
	for _, i := range rows {
		s := env.Summary(i)
		r := rec{s: &s, ds: env.Dataset, fi: env.Filter, notes: env.Notes, note: &noteState{idx: -1}}
		o := s.Outcome(env.Filter)
		if f.typ != tMulti {
			v, ok := r.text(f)
			add(v, !ok, o)
			continue
		}
		seen := false
		r.each(f, func(v string, fi int) bool {
			if fi >= 0 {
				add(v, false, s.Outcomes[fi])
			} else {
				add(v, false, o)
			}
			seen = true
			return false
		})
		if !seen {
			add("", true, o)
		}
	}
	out := make([]FacetRow, 0, len(acc)+1)
	for _, row := range acc {
		out = append(out, *row)
	}
	if none != nil {
		out = append(out, *none)
	}
	for i := range out {
		if out[i].Scored > 0 {
			out[i].MeanScore /= float64(out[i].Scored)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		if a.Missing != b.Missing {
			return b.Missing
		}
		return compareNatural(a.Value, b.Value) < 0
	})
	return out
}

// preferredFacetFields are the label fields the facets sheet opens on
// before others when status has nothing to tell apart (testsets, where
// every record is unscored): they say what a record is.
var preferredFacetFields = []string{"kind", "task_type", "category"}

// outcomeFacetFields are the lm-eval facet fields that describe the
// outcome, not the record: every record counts under each filter, so
// they never tell records apart the way a label does.
var outcomeFacetFields = []string{"filter", "answer", "agreement"}

// StartField picks the field a facets or slices sheet opens on among
// fields (FacetFields order): status when it has more than one value,
// else the first preferred label field with more than one value, else
// the first other record field (label, tag, note label) with more than
// one value, else status (fields[0]). count returns how many distinct
// values a field has among the counted records.
func StartField(fields []string, count func(field string) int) int {
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
