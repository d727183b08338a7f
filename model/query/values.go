package query

import (
	"fmt"
	"sort"
	"strings"

	"evalview/model"
)

// ValueCount is one value of a field and how many records have it.
type ValueCount struct {
	Value string
	Count int
}

// ValueIndex knows which fields and values a dataset has, for completion,
// for checking queries and for choosing facet fields and columns. It is
// built once per dataset from summaries only (Values) and is read-only
// afterwards, so it may be shared between goroutines.
type ValueIndex struct {
	ds *model.Dataset
	n  int
	// filter is the lm-eval filter whose statuses and answers completion
	// offers when the line has no filter= term.
	filter int

	labelKeys map[string]int // records with the key, even with "" value
	labels    map[string]map[string]int
	keyOrder  []string // label keys, most frequent first
	tags      map[string]int
	statuses  [][4]int         // per filter (one entry without filters)
	answers   []map[string]int // per filter
	present   map[string]int   // records with a row, per filter name
	agreement map[string]int
	attempts  bool // some record has attempts
	lines     bool // some record has a line number

	notes map[string]int // note label counts, nil without notes
}

// Values builds the value index of ds by reading every summary once. On a
// growing index it covers the records known so far; build it again when
// Records.Done turns true.
func Values(ds *model.Dataset) *ValueIndex {
	nf := len(ds.Filters)
	idx := &ValueIndex{
		ds: ds, labelKeys: map[string]int{}, labels: map[string]map[string]int{},
		tags: map[string]int{}, statuses: make([][4]int, max(nf, 1)),
		answers: make([]map[string]int, nf), present: map[string]int{}, agreement: map[string]int{},
	}
	for i := range idx.answers {
		idx.answers[i] = map[string]int{}
	}
	if ds.Records == nil {
		return idx
	}
	idx.n = ds.Records.Len()
	for i := 0; i < idx.n; i++ {
		idx.add(ds.Records.Summary(i))
	}
	idx.keyOrder = byCount(idx.labelKeys)
	return idx
}

func (idx *ValueIndex) add(s model.Summary) {
	for k, v := range s.Labels.All() {
		idx.labelKeys[k]++
		if v == "" {
			continue
		}
		m := idx.labels[k]
		if m == nil {
			m = map[string]int{}
			idx.labels[k] = m
		}
		m[v]++
	}
	for _, t := range s.Tags {
		idx.tags[t]++
	}
	if len(idx.ds.Filters) == 0 {
		idx.statuses[0][s.Status]++
	}
	for fi, o := range s.Outcomes {
		if fi >= len(idx.ds.Filters) || !o.Present {
			continue
		}
		idx.present[idx.ds.Filters[fi]]++
		idx.statuses[fi][o.Status]++
		if o.Answer != "" {
			idx.answers[fi][o.Answer]++
		}
	}
	if a := s.Agreement(); a != "" {
		idx.agreement[a]++
	}
	idx.attempts = idx.attempts || s.Attempts > 0
	idx.lines = idx.lines || s.Line > 0
}

// ForFilter returns a copy of the index whose completion offers the
// statuses and answers of filter fi (the filter the list shows).
func (idx *ValueIndex) ForFilter(fi int) *ValueIndex {
	c := *idx
	c.filter = fi
	return &c
}

// WithNotes returns a copy of the index that also knows the note labels
// notes gives the dataset's records (call again when notes change).
func (idx *ValueIndex) WithNotes(notes NoteLookup) *ValueIndex {
	c := *idx
	c.notes = map[string]int{}
	if notes != nil && idx.ds.Records != nil {
		for i := 0; i < idx.n; i++ {
			labels, _ := notes(idx.ds.Records.Summary(i).ID)
			for _, l := range labels {
				c.notes[l]++
			}
		}
	}
	return &c
}

// Len returns the number of records the index covers.
func (idx *ValueIndex) Len() int { return idx.n }

// hasFilters reports whether the dataset has lm-eval filters.
func (idx *ValueIndex) hasFilters() bool { return len(idx.ds.Filters) > 0 }

// Fields returns every field a query on this dataset can use, built-in
// fields first, then label fields from the most common.
func (idx *ValueIndex) Fields() []string {
	var out []string
	for _, b := range builtins {
		if (b.kind == fFilter || b.kind == fAnswer || b.kind == fAgreement) && !idx.hasFilters() {
			continue
		}
		out = append(out, b.name)
	}
	if len(idx.ds.Filters) > 1 {
		for _, f := range idx.ds.Filters {
			out = append(out, AnswerField(f))
		}
	}
	for _, k := range idx.keyOrder {
		out = append(out, LabelField(k))
	}
	return out
}

// FacetFields returns the fields worth a facet: status, the lm-eval
// filter, answer and agreement, every label field, tag when records have
// tags, label when notes are known.
func (idx *ValueIndex) FacetFields() []string {
	out := []string{"status"}
	if idx.hasFilters() {
		out = append(out, "filter", "answer")
		if len(idx.ds.Filters) > 1 {
			out = append(out, "agreement")
		}
	}
	for _, k := range idx.keyOrder {
		if idx.inRecords(k) {
			continue // a facet would count the records holding it as none
		}
		out = append(out, LabelField(k))
	}
	if len(idx.tags) > 0 {
		out = append(out, "tag")
	}
	if len(idx.notes) > 0 {
		out = append(out, "label")
	}
	return out
}

// inRecords reports whether label key k is, on some record, held in the
// record alone (Presentation.FieldLabels: a long text, an object), which
// only a query reads.
func (idx *ValueIndex) inRecords(k string) bool {
	if !idx.ds.Presentation.FieldLabels {
		return false
	}
	n := 0
	for _, c := range idx.labels[k] {
		n += c
	}
	return n < idx.labelKeys[k]
}

// Columns returns the list columns this dataset can show and sort by, in
// a sensible default order.
func (idx *ValueIndex) Columns() []string {
	out := []string{"id", "title", "status", "score"}
	if idx.hasFilters() {
		out = append(out, "answer")
		if len(idx.ds.Filters) > 1 {
			out = append(out, "agreement")
			for _, f := range idx.ds.Filters { // every filter's answer, side by side
				out = append(out, AnswerField(f))
			}
		}
	}
	if idx.attempts {
		out = append(out, "attempts")
	}
	out = append(out, "errors", "warnings")
	for _, k := range idx.keyOrder {
		out = append(out, LabelField(k))
	}
	if len(idx.tags) > 0 {
		out = append(out, "tag")
	}
	if idx.notes != nil {
		out = append(out, "label", "note")
	}
	return out
}

// FacetFields returns the fields of ds worth a facet (see
// ValueIndex.FacetFields); it reads every summary.
func FacetFields(ds *model.Dataset) []string { return Values(ds).FacetFields() }

// Columns returns the sortable list columns of ds (see
// ValueIndex.Columns); it reads every summary.
func Columns(ds *model.Dataset) []string { return Values(ds).Columns() }

// Values returns the values of field seen in the dataset, most frequent
// first (ties in natural order). Numeric fields and id, title and note
// have no value list.
func (idx *ValueIndex) Values(field string) []ValueCount {
	f := resolveField(field)
	switch f.kind {
	case fLabel:
		return sortCounts(idx.labels[f.key])
	case fTag:
		return sortCounts(idx.tags)
	case fNoteLabel:
		return sortCounts(idx.notes)
	case fFilter:
		return sortCounts(idx.present)
	case fAgreement:
		return sortCounts(idx.agreement)
	case fAnswer:
		if idx.filter >= 0 && idx.filter < len(idx.answers) {
			return sortCounts(idx.answers[idx.filter])
		}
	case fAnswerOf:
		if fi := idx.ds.FilterIndex(f.key); fi >= 0 && fi < len(idx.answers) {
			return sortCounts(idx.answers[fi])
		}
	case fStatus:
		fi := idx.filter
		if fi < 0 || fi >= len(idx.statuses) {
			fi = 0
		}
		m := map[string]int{}
		for st, n := range idx.statuses[fi] {
			if n > 0 {
				m[model.Status(st).String()] = n
			}
		}
		return sortCounts(m)
	}
	return nil
}

func sortCounts(m map[string]int) []ValueCount {
	out := make([]ValueCount, 0, len(m))
	for v, n := range m {
		out = append(out, ValueCount{v, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return compareNatural(out[i].Value, out[j].Value) < 0
	})
	return out
}

func byCount(m map[string]int) []string {
	var out []string
	for _, vc := range sortCounts(m) {
		out = append(out, vc.Value)
	}
	return out
}

// Parse parses line and checks it against the dataset (Parse, then
// Check): the one call the list's query line and `export --where` need.
func (idx *ValueIndex) Parse(line string) (*Query, error) {
	q, err := Parse(line)
	if err != nil {
		return nil, err
	}
	if err := idx.Check(q); err != nil {
		return nil, err
	}
	return q, nil
}

// Check reports the first term of q that names a field or filter the
// dataset does not have. The error lists what the dataset has.
func (idx *ValueIndex) Check(q *Query) error {
	if q == nil {
		return nil
	}
	for _, t := range q.terms {
		name := t.field.name()
		known := true
		switch t.field.kind {
		case fLabel:
			_, known = idx.labelKeys[t.field.key]
		case fFilter, fAnswer, fAgreement:
			known = idx.hasFilters()
		case fAnswerOf:
			if idx.ds.FilterIndex(t.field.key) < 0 {
				return termError(t, "unknown-filter", fmt.Sprintf("unknown filter %q in %s; filters: %s",
					t.field.key, name, strings.Join(idx.ds.Filters, ", ")))
			}
		}
		if !known {
			msg := fmt.Sprintf("unknown field %q; known fields: %s", name, strings.Join(idx.Fields(), ", "))
			if t.op == opEq && strings.Contains(t.raw, ":") {
				msg += ` (quote text with a colon to search for it: "a:b")`
			}
			return termError(t, "unknown-field", msg)
		}
		if t.field.kind == fFilter && t.op != opRe && t.value != "" && idx.ds.FilterIndex(t.value) < 0 {
			return termError(t, "unknown-filter", fmt.Sprintf("unknown filter %q; filters: %s", t.value, strings.Join(idx.ds.Filters, ", ")))
		}
	}
	return nil
}

// termError builds an Error for a parsed term, at the term's place.
func termError(t term, code, msg string) *Error {
	return &Error{Code: code, Term: t.raw, Pos: t.pos, Col: t.col, Msg: msg}
}
