package query

import (
	"math"
	"strings"
	"testing"

	"evalview/model"
)

// nonFinite is a regression task's dataset whose scores (a mae) Python
// wrote as Infinity, -Infinity and NaN beside finite ones, with a label
// holding a non-finite value as text.
func nonFinite() *model.Dataset {
	rec := func(id string, score float64, has bool, x string) *model.Record {
		return &model.Record{Summary: model.Summary{ID: id, Title: "pair " + id, Score: score, HasScore: has,
			Labels: model.LabelsOf(map[string]string{"x": x})}}
	}
	recs := []*model.Record{
		rec("fin", 0.5, true, "2"),
		rec("inf", math.Inf(1), true, "inf"),
		rec("neg", math.Inf(-1), true, "-Infinity"),
		rec("nan", math.NaN(), true, "nan"),
		rec("none", 0, false, ""),
	}
	return &model.Dataset{Kind: model.KindLMEval, Title: "korsts_reg", Records: model.NewMemIndex(recs)}
}

// TestNonFiniteValuesPrintAsTheListDoes: a facet of a numeric field and
// a field's value name infinities and NaN as the list, export and summary
// do (inf, -inf, nan), never Go's +Inf and NaN.
func TestNonFiniteValuesPrintAsTheListDoes(t *testing.T) {
	ds := nonFinite()
	env := Env{Dataset: ds}
	want := map[string]string{"fin": "0.5", "inf": "inf", "neg": "-inf", "nan": "", "none": ""}
	for i := range ds.Records.Len() {
		s := ds.Records.Summary(i)
		if got := FieldValue(env, s, "score"); got != want[s.ID] {
			t.Errorf("FieldValue(%s, score) = %q, want %q", s.ID, got, want[s.ID])
		}
	}
	var values []string
	for _, r := range Facet(env, all(ds), "score") {
		values = append(values, r.Value)
		if strings.Contains(r.Value, "Inf") || strings.Contains(r.Value, "NaN") {
			t.Errorf("facet value %q is Go's spelling", r.Value)
		}
	}
	joined := strings.Join(values, " ")
	for _, w := range []string{"inf", "-inf", "0.5"} {
		if !strings.Contains(" "+joined+" ", " "+w+" ") {
			t.Errorf("facet values %q lack %q", joined, w)
		}
	}
}

// TestNonFiniteQueries: inf and a number past the largest float compare
// as infinities; nan on a score tests for a NaN score (shown as nan) and
// has no order; a label holding inf orders as a number.
func TestNonFiniteQueries(t *testing.T) {
	ds := nonFinite()
	env := Env{Dataset: ds}
	cases := []struct {
		q    string
		want []string
	}{
		{"score=inf", []string{"inf"}},
		{"score=Infinity", []string{"inf"}},
		{"score=-inf", []string{"neg"}},
		{"score>1e308", []string{"inf"}},
		{"score>=1e400", []string{"inf"}}, // past the largest float: +inf
		{"score<-1e400", nil},
		{"score<=-1e400", []string{"neg"}},
		{"score<1", []string{"fin", "neg"}},
		{"score=nan", []string{"nan"}},
		{"score!=nan", []string{"fin", "inf", "neg", "none"}},
		{`score=""`, []string{"nan", "none"}}, // a NaN is no value to aggregate
		{"x>100", []string{"inf"}},
		{"x<0", []string{"neg"}},
		{"x>=0", []string{"fin", "inf"}}, // nan is no number: never ordered
		{"x<=0", []string{"neg"}},
		{"x=nan", []string{"nan"}},
	}
	for _, c := range cases {
		equalStrings(t, c.q, ids(ds, Filter(env, mustParse(t, c.q))), c.want)
	}
	for _, bad := range []string{"score<nan", "score>=NaN"} {
		if _, err := Parse(bad); err == nil || !strings.Contains(err.Error(), "nan has no order") {
			t.Errorf("Parse(%q) = %v, want nan has no order", bad, err)
		}
	}
}

// TestSortNonFinite: scores sort with -inf first and inf last, NaN with
// the records that have no score, after every number either way.
func TestSortNonFinite(t *testing.T) {
	ds := nonFinite()
	env := Env{Dataset: ds}
	rows := all(ds)
	Sort(env, rows, SortKey{Column: "score"})
	equalStrings(t, "ascending", ids(ds, rows), []string{"neg", "fin", "inf", "nan", "none"})
	Sort(env, rows, SortKey{Column: "score", Desc: true})
	equalStrings(t, "descending", ids(ds, rows)[:3], []string{"inf", "fin", "neg"})
}
