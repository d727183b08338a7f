package query

import (
	"strings"

	"evalview/model"
)

// NoteLookup returns the error-analysis note of a record: its labels and
// its free text. It is called at most once per record and query, and only
// when the query, facet or sort needs notes.
type NoteLookup func(recordID string) (labels []string, note string)

// Env is what a query is evaluated against.
type Env struct {
	Dataset *model.Dataset
	// Filter is the index in Dataset.Filters of the lm-eval filter the list
	// shows: status, score and answer refer to it unless the query holds a
	// filter=NAME term.
	Filter int
	// Notes gives error-analysis notes; nil when there are none.
	Notes NoteLookup
	// Threshold, when set, is the pass threshold a scored dataset's
	// statuses are read at (model.Scoring.SummaryAt): the one the browser
	// shows (t, +, -, --threshold), which may not be the one the loader
	// set them at. Nil reads them as loaded.
	Threshold *float64
}

// Summary is record i's summary as the query reads it: its status at
// env.Threshold when that is set.
func (env Env) Summary(i int) model.Summary {
	return env.At(env.Dataset.Records.Summary(i))
}

// At reads s's status at env.Threshold, when set.
func (env Env) At(s model.Summary) model.Summary {
	if env.Threshold == nil || env.Dataset == nil {
		return s
	}
	return env.Dataset.Scoring.SummaryAt(s, *env.Threshold)
}

// Selected returns the filter index status, score and answer refer to
// under q: the one a filter=NAME term names when the dataset has it,
// env.Filter otherwise. Facets and sorting should be given an Env with
// this Filter so that they agree with the list.
func (q *Query) Selected(env Env) int {
	if q != nil && q.filter != "" && env.Dataset != nil {
		if fi := env.Dataset.FilterIndex(q.filter); fi >= 0 {
			return fi
		}
	}
	return env.Filter
}

// Match reports whether summary s satisfies every term of q (its status
// read at env.Threshold). A nil or empty query matches everything.
func (q *Query) Match(env Env, s model.Summary) bool {
	return q.MatchAt(env, -1, s)
}

// MatchAt is Match for record i of env.Dataset, whose summary is s: a
// field held only in the record (Presentation.FieldLabels) is read from
// it. i < 0 reads summaries only.
func (q *Query) MatchAt(env Env, i int, s model.Summary) bool {
	if q.Empty() {
		return true
	}
	s = env.At(s)
	return q.match(&rec{s: &s, ds: env.Dataset, fi: q.Selected(env), notes: env.Notes, note: &noteState{idx: i}})
}

func (q *Query) match(r *rec) bool {
	for _, i := range q.order {
		t := &q.terms[i]
		if t.eval(r) == t.neg {
			return false
		}
	}
	return true
}

// Filter returns the indices of env.Dataset's records that match q, in
// index order. It reads summaries, and records only for fields held in
// them alone (Presentation.FieldLabels); on a growing index it covers the
// records known when called.
func Filter(env Env, q *Query) []int {
	if env.Dataset == nil || env.Dataset.Records == nil {
		return nil
	}
	idx := env.Dataset.Records
	n := idx.Len()
	out := make([]int, 0, n)
	if q.Empty() {
		for i := 0; i < n; i++ {
			out = append(out, i)
		}
		return out
	}
	fi := q.Selected(env)
	for i := 0; i < n; i++ {
		s := env.At(idx.Summary(i))
		if q.match(&rec{s: &s, ds: env.Dataset, fi: fi, notes: env.Notes, note: &noteState{idx: i}}) {
			out = append(out, i)
		}
	}
	return out
}

// eval reports whether the term holds, before negation.
func (t *term) eval(r *rec) bool {
	switch t.field.typ {
	case tNumber:
		if t.nan {
			return r.isNaN(t.field) == (t.op == opEq)
		}
		v, ok := r.num(t.field)
		return t.compareNum(v, ok)
	case tMulti:
		return t.evalMulti(r)
	}
	if t.field.kind == fBare {
		return t.contains(r.s.ID) || t.contains(r.s.Title)
	}
	if t.field.kind == fStatus && t.op != opRe {
		st := r.s.Outcome(r.fi).Status
		return (st == t.status) == (t.op == opEq)
	}
	v, ok := r.text(t.field)
	switch t.op {
	case opEq:
		return t.equal(v, ok)
	case opNe:
		return !t.equal(v, ok)
	case opRe:
		return t.re.MatchString(v)
	}
	if !ok {
		return false
	}
	if t.hasNum {
		n, isNum := parseNum(v)
		return isNum && ordered(t.op, cmpFloat(n, t.num))
	}
	return ordered(t.op, compareNatural(v, t.value))
}

func (t *term) equal(v string, ok bool) bool {
	if t.value == "" {
		return !ok
	}
	return v == t.value
}

func (t *term) compareNum(v float64, ok bool) bool {
	switch t.op {
	case opEq:
		if t.value == "" {
			return !ok
		}
		return ok && v == t.num
	case opNe:
		if t.value == "" {
			return ok
		}
		return !ok || v != t.num
	}
	return ok && ordered(t.op, cmpFloat(v, t.num))
}

// evalMulti tests membership: = any value equals (value "" means none at
// all), ~ any value matches.
func (t *term) evalMulti(r *rec) bool {
	var found bool
	switch {
	case t.op == opRe:
		found = r.each(t.field, func(v string, _ int) bool { return t.re.MatchString(v) })
	case t.value == "":
		found = !r.each(t.field, func(string, int) bool { return true })
	default:
		found = r.each(t.field, func(v string, _ int) bool { return v == t.value })
	}
	if t.op == opNe {
		return !found
	}
	return found
}

// contains is the bare-word text match, smart case.
func (t *term) contains(s string) bool {
	if t.fold {
		start, _ := indexFold(s, t.value)
		return start >= 0
	}
	return strings.Contains(s, t.value)
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// ordered applies an ordering operator to a comparison result.
func ordered(o op, c int) bool {
	switch o {
	case opLt:
		return c < 0
	case opLe:
		return c <= 0
	case opGt:
		return c > 0
	case opGe:
		return c >= 0
	}
	return false
}
