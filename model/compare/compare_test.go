package compare

import (
	"math"
	"reflect"
	"strconv"
	"testing"

	"evalview/model"
)

// o is an outcome: "p" pass, "f" fail, "u" unscored, "-" no row; the score
// is 1 for pass and 0 for fail.
func o(code, answer string) model.Outcome {
	switch code {
	case "p":
		return model.Outcome{Present: true, Status: model.StatusPass, Answer: answer, Score: 1, HasScore: true}
	case "f":
		return model.Outcome{Present: true, Status: model.StatusFail, Answer: answer, Score: 0, HasScore: true}
	case "u":
		return model.Outcome{Present: true, Answer: answer}
	}
	return model.Outcome{}
}

// lmDataset builds an lm-eval-like dataset: codes[i] is one letter per
// filter for record i, answers[i] the answers per filter.
func lmDataset(filters []string, codes []string, labels []map[string]string) *model.Dataset {
	var recs []*model.Record
	for i, c := range codes {
		s := model.Summary{ID: strconv.Itoa(i)}
		for fi := range filters {
			s.Outcomes = append(s.Outcomes, o(string(c[fi]), "a"+string(c[fi])))
		}
		if labels != nil {
			s.Labels = model.LabelsOf(labels[i])
		}
		first := s.Outcome(0)
		s.Status, s.Score, s.HasScore = first.Status, first.Score, first.HasScore
		recs = append(recs, &model.Record{Summary: s})
	}
	return &model.Dataset{Kind: model.KindLMEval, Filters: filters, Records: model.NewMemIndex(recs)}
}

func TestFilters(t *testing.T) {
	ds := lmDataset([]string{"a", "b"}, []string{"pp", "pf", "fp", "ff", "p-", "uf", "pp"}, nil)
	cases := []struct {
		name      string
		a, b      int
		rows      []int
		want      Table
		wantCells []Cell
	}{
		{"all", 0, 1, nil, Table{Both: 2, OnlyA: 1, OnlyB: 1, Neither: 1, Missing: 2},
			[]Cell{Both, OnlyA, OnlyB, Neither, Missing, Missing, Both}},
		{"reversed", 1, 0, nil, Table{Both: 2, OnlyA: 1, OnlyB: 1, Neither: 1, Missing: 2},
			[]Cell{Both, OnlyB, OnlyA, Neither, Missing, Missing, Both}},
		{"subset", 0, 1, []int{3, 1}, Table{OnlyA: 1, Neither: 1}, []Cell{Neither, OnlyA}},
		{"same filter", 0, 0, []int{0, 1, 3}, Table{Both: 2, Neither: 1}, []Cell{Both, Both, Neither}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tab, cells := Filters(ds, c.a, c.b, c.rows)
			if tab != c.want {
				t.Errorf("table %+v, want %+v", tab, c.want)
			}
			if !reflect.DeepEqual(cells, c.wantCells) {
				t.Errorf("cells %v, want %v", cells, c.wantCells)
			}
		})
	}
	tab, _ := Filters(ds, 0, 1, nil)
	if tab.Placed() != 5 || math.Abs(tab.Agree()-0.6) > 1e-12 {
		t.Errorf("placed %d agree %v", tab.Placed(), tab.Agree())
	}
	for _, c := range Cells {
		if tab.Get(c) == 0 && c != Missing {
			t.Errorf("Get(%v) = 0", c)
		}
	}
}

func TestAgreement(t *testing.T) {
	ds := lmDataset([]string{"x", "y", "z"}, []string{"ppf", "pfp", "fff", "pp-"}, nil)
	got := Agreement(ds)
	want := map[string]Table{
		"x|y": {Both: 2, OnlyA: 1, Neither: 1},
		"y|x": {Both: 2, OnlyB: 1, Neither: 1},
		"x|z": {Both: 1, OnlyA: 1, Neither: 1, Missing: 1},
		"z|x": {Both: 1, OnlyB: 1, Neither: 1, Missing: 1},
		"y|z": {OnlyA: 1, OnlyB: 1, Neither: 1, Missing: 1},
		"z|y": {OnlyA: 1, OnlyB: 1, Neither: 1, Missing: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Agreement\n got %+v\nwant %+v", got, want)
	}
	if a := Agreement(lmDataset([]string{"x"}, []string{"p"}, nil)); a != nil {
		t.Errorf("one filter: %v, want nil", a)
	}
}

func TestAnswersAndTargets(t *testing.T) {
	ds := lmDataset([]string{"x"}, []string{"p", "f", "p", "f", "f", "-"},
		[]map[string]string{{"target": "7"}, {"target": "7"}, {"target": "10"}, {"target": "2"}, {}, {"target": "2"}})
	ans := Answers(ds, 0, nil)
	if want := []Freq{{"af", 3, 0}, {"ap", 2, 2}}; !reflect.DeepEqual(ans, want) {
		t.Errorf("Answers %+v, want %+v", ans, want)
	}
	tg := Targets(ds, 0, nil)
	// Equal counts sort naturally: 2 before 7 before 10.
	if want := []Freq{{"2", 2, 0}, {"7", 2, 1}, {"10", 1, 1}}; !reflect.DeepEqual(tg, want) {
		t.Errorf("Targets %+v, want %+v", tg, want)
	}
	if got := Answers(ds, 0, []int{0}); !reflect.DeepEqual(got, []Freq{{"ap", 1, 1}}) {
		t.Errorf("Answers on rows: %+v", got)
	}
}

func TestSlices(t *testing.T) {
	labels := []map[string]string{{"subject": "math"}, {"subject": "law"}, {"subject": "math"}, nil, {"subject": "law"}}
	ds := lmDataset([]string{"x", "y"}, []string{"pp", "pf", "ff", "fu", "pp"}, labels)
	got := Slices(ds, "subject", nil)
	want := []Slice{
		{Value: "law", Rows: []int{1, 4}, Count: 2, PerFilter: []SliceMetric{{"x", 2, 0, 2, 1}, {"y", 1, 1, 2, 0.5}}},
		{Value: "math", Rows: []int{0, 2}, Count: 2, PerFilter: []SliceMetric{{"x", 1, 1, 2, 0.5}, {"y", 1, 1, 2, 0.5}}},
		{Value: NoValue, Rows: []int{3}, Count: 1, PerFilter: []SliceMetric{{"x", 0, 1, 1, 0}, {"y", 0, 0, 0, 0}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Slices subject\n got %+v\nwant %+v", got, want)
	}
	if got := Slices(ds, "labels.subject", []int{0, 1}); len(got) != 2 || got[0].Count != 1 {
		t.Errorf("labels.subject on rows: %+v", got)
	}
	agr := Slices(ds, FieldAgreement, nil)
	var vals []string
	for _, s := range agr {
		vals = append(vals, s.Value+":"+strconv.Itoa(s.Count))
	}
	if want := []string{"mixed:2", "pass:2", "fail:1"}; !reflect.DeepEqual(vals, want) {
		t.Errorf("agreement slices %v, want %v", vals, want)
	}
	if r := (SliceMetric{Pass: 1, Fail: 3}).PassRate(); r != 0.25 {
		t.Errorf("PassRate %v", r)
	}
}

func TestSlicesWithoutFilters(t *testing.T) {
	recs := []*model.Record{
		{Summary: model.Summary{ID: "1", Status: model.StatusPass, Score: 9, HasScore: true, Labels: model.LabelsOf(map[string]string{"category": "a"})}},
		{Summary: model.Summary{ID: "2", Status: model.StatusFail, Score: 3, HasScore: true, Labels: model.LabelsOf(map[string]string{"category": "a"})}},
	}
	ds := &model.Dataset{Kind: model.KindRun, Records: model.NewMemIndex(recs)}
	got := Slices(ds, "category", nil)
	want := []Slice{{Value: "a", Rows: []int{0, 1}, Count: 2, PerFilter: []SliceMetric{{"", 1, 1, 2, 6}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestNatLess(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"2", "10", true}, {"10", "2", false}, {"a2", "a10", true}, {"a", "b", true},
		{"a", "a1", true}, {"x#9", "x#10", true}, {"007", "7", true}, {"7", "007", false}, {"", "", false},
	}
	for _, c := range cases {
		if got := natLess(c.a, c.b); got != c.want {
			t.Errorf("natLess(%q, %q) = %v", c.a, c.b, got)
		}
	}
}
