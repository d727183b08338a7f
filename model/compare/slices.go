package compare

import (
	"sort"
	"strings"

	"evalview/model"
)

// Slice fields that are not labels.
const (
	// FieldAgreement groups lm-eval docs by whether their filters agree:
	// "pass" (all right), "fail" (all wrong), "mixed", as the query
	// language's agreement field spells them.
	FieldAgreement = "agreement"
	// FieldStatus groups records by their overall status.
	FieldStatus = "status"
)

// NoValue is the slice of records that have no value for the field.
const NoValue = "(none)"

// SliceMetric is one filter's figures over a slice.
type SliceMetric struct {
	// Filter is the filter name, "" for formats without filters.
	Filter string
	// Pass and Fail count right and wrong records; Scored counts records
	// with a score, whose mean Mean is.
	Pass, Fail, Scored int
	Mean               float64
}

// PassRate is Pass over Pass+Fail, 0 when there are neither.
func (m SliceMetric) PassRate() float64 {
	if m.Pass+m.Fail == 0 {
		return 0
	}
	return float64(m.Pass) / float64(m.Pass+m.Fail)
}

// Slice is the records sharing one value of a field.
type Slice struct {
	Value string
	// Rows are the record indexes, ascending.
	Rows  []int
	Count int
	// PerFilter has one entry per dataset filter, in ds.Filters order
	// (one entry with Filter "" for formats without filters).
	PerFilter []SliceMetric
}

// Slices groups rows (nil: every record) by field: any Summary.Labels key
// ("subject", "category", "target"; "labels.KEY" also reaches it),
// FieldAgreement, or FieldStatus. Records without a value form the NoValue
// slice. Slices are sorted by count, most first, then by value in natural
// order, NoValue last among equals.
func Slices(ds *model.Dataset, field string, rows []int) []Slice {
	return SlicesAt(ds, field, rows, nil)
}

// SlicesAt is Slices with the statuses of a scored dataset (model.Scoring)
// read at threshold t (model.Scoring.SummaryAt), as the browser's list
// shows them after t, + or -; a nil t reads them as loaded.
func SlicesAt(ds *model.Dataset, field string, rows []int, t *float64) []Slice {
	filters := ds.Filters
	if len(filters) == 0 {
		filters = []string{""}
	}
	value := sliceValue(field)
	acc := map[string]*Slice{}
	var order []string
	for _, ri := range allRows(ds, rows) {
		s := ds.Records.Summary(ri)
		if t != nil {
			s = ds.Scoring.SummaryAt(s, *t)
		}
		v := value(&s)
		if v == "" {
			v = NoValue
		}
		sl := acc[v]
		if sl == nil {
			sl = &Slice{Value: v, PerFilter: make([]SliceMetric, len(filters))}
			for fi, f := range filters {
				sl.PerFilter[fi].Filter = f
			}
			acc[v] = sl
			order = append(order, v)
		}
		sl.Rows = append(sl.Rows, ri)
		sl.Count++
		for fi := range filters {
			o := s.Outcome(fi)
			if len(ds.Filters) == 0 {
				o = s.Outcome(-1)
			}
			m := &sl.PerFilter[fi]
			if r, ok := right(o); ok {
				if r {
					m.Pass++
				} else {
					m.Fail++
				}
			}
			if o.Present && o.HasScore {
				m.Mean += o.Score // a sum until the end
				m.Scored++
			}
		}
	}
	out := make([]Slice, 0, len(order))
	for _, v := range order {
		sl := acc[v]
		sort.Ints(sl.Rows)
		for fi := range sl.PerFilter {
			if m := &sl.PerFilter[fi]; m.Scored > 0 {
				m.Mean /= float64(m.Scored)
			}
		}
		out = append(out, *sl)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		if (out[i].Value == NoValue) != (out[j].Value == NoValue) {
			return out[j].Value == NoValue
		}
		return natLess(out[i].Value, out[j].Value)
	})
	return out
}

// sliceValue returns the reader of field's value on a summary.
func sliceValue(field string) func(s *model.Summary) string {
	switch field {
	case FieldAgreement:
		return (*model.Summary).Agreement
	case FieldStatus:
		return func(s *model.Summary) string { return s.Status.String() }
	}
	key := strings.TrimPrefix(field, "labels.")
	return func(s *model.Summary) string { return s.Labels.Get(key) }
}
