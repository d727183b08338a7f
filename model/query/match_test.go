package query

import (
	"strings"
	"testing"

	"evalview/model"
)

func TestFilterGeneric(t *testing.T) {
	ds := generic()
	env := Env{Dataset: ds, Notes: notes}
	cases := []struct {
		q    string
		want []string
	}{
		{"", []string{"a1", "a2", "a10", "a3", "b1"}},
		{"score<5", []string{"a2"}},
		{"score<=5", []string{"a2", "a3"}},
		{"-score<5", []string{"a1", "a10", "a3", "b1"}},
		{`score=""`, []string{"a10"}},
		{`score!=""`, []string{"a1", "a2", "a3", "b1"}},
		{"score=8", []string{"a1"}},
		{"score!=8", []string{"a2", "a10", "a3", "b1"}},
		{"category=math", []string{"a1", "a3"}},
		{"category:math", []string{"a1", "a3"}},
		{"category!=math", []string{"a2", "a10", "b1"}},
		{"category=Math", nil}, // = is exact
		{`category="high school"`, []string{"a10"}},
		{`category=""`, []string{"b1"}}, // an empty label counts as none
		{"category~^(geo|high)", []string{"a2", "a10"}},
		{"status=fail", []string{"a2"}},
		{"status=error", []string{"a3"}},
		{"status=unscored", []string{"a10"}},
		{"status!=pass", []string{"a2", "a10", "a3"}},
		{"status~^(fail|error)$", []string{"a2", "a3"}},
		{"labels.status=completed", []string{"a1", "a2", "a10", "b1"}},
		{"labels.status=error", []string{"a3"}},
		{"tag:critical", []string{"a1", "b1"}},
		{"-tag:critical", []string{"a2", "a10", "a3"}},
		{"tag!=critical", []string{"a2", "a10", "a3"}},
		{`tag=""`, []string{"a10", "a3"}},
		{`tag!=""`, []string{"a1", "a2", "b1"}},
		{"tag~^ea", []string{"a1", "a2"}},
		{"errors>0", []string{"a2", "a3"}},
		{"issues>=2", []string{"a3"}},
		{"issues=1", []string{"a1", "a2"}},
		{"warnings>0 errors=0", []string{"a1"}},
		{"attempts=3", []string{"a1", "a2"}},
		{"attempts<1", []string{"a10"}},
		{"line<3", []string{"a1", "a2"}}, // b1 has no line
		{`line=""`, []string{"b1"}},
		{"solve", []string{"a1"}},
		{"Solve", []string{"a1"}},
		{"SOLVE", nil},
		{"a1", []string{"a1", "a10"}}, // bare words match ids too
		{`"capital of"`, []string{"a2"}},
		{`"x"`, []string{"b1"}},
		{"-a1", []string{"a2", "a3", "b1"}},
		{"title~france", []string{"a2"}},
		{"title~France", []string{"a2"}},
		{"title~FRANCE", nil},
		{`title~\W`, []string{"a1", "a2", "a10", "b1"}}, // \W is no upper-case letter
		{"id<a3", []string{"a1", "a2"}},                 // natural order: a10 > a3
		{"id>=a3", []string{"a10", "a3", "b1"}},
		{"steps>5", []string{"a2"}},
		{"steps<5", []string{"a1"}}, // "x" is not a number
		{"steps>=x", []string{"a3"}},
		{"not category=math score>4", []string{"b1"}},
		{"score<5 category=geo status=fail tag:easy", []string{"a2"}},
		{"label:wrong-format", []string{"a1", "a2"}},
		{"label:lazy", []string{"a2"}},
		{`label=""`, []string{"a10", "a3", "b1"}},
		{"label~^wrong", []string{"a1", "a2"}},
		{"note~misread", []string{"a1"}},
		{`note=""`, []string{"a2", "a10", "a3", "b1"}},
		{"nosuchlabel=x", nil},
		{`nosuchlabel=""`, []string{"a1", "a2", "a10", "a3", "b1"}},
	}
	for _, c := range cases {
		got := ids(ds, Filter(env, mustParse(t, c.q)))
		equalStrings(t, c.q, got, c.want)
	}
	// Without a NoteLookup note terms see no notes.
	equalStrings(t, "label without notes", ids(ds, Filter(Env{Dataset: ds}, mustParse(t, "label:lazy"))), nil)
}

func TestFilterLMEval(t *testing.T) {
	ds := lmeval()
	cases := []struct {
		q      string
		filter int
		want   []string
	}{
		{"status=fail", 0, []string{"0", "10"}},
		{"status=pass", 0, []string{"1", "2"}},
		{"status=fail filter=flexible-extract", 0, []string{"2"}},
		{"filter=flexible-extract status=fail", 0, []string{"2"}},
		{"status=fail", 1, []string{"2"}},
		{"status=unscored", 1, []string{"10"}}, // no flexible-extract row
		{"filter=strict-match status=pass", 1, []string{"1", "2"}},
		{`answer="[invalid]"`, 0, []string{"0", "10"}},
		{"answer=18", 0, nil},
		{"answer=18 filter=flexible-extract", 0, []string{"0"}},
		{"answer=18", 1, []string{"0"}},
		{`answer=""`, 1, []string{"10"}},
		{"answer<6", 0, []string{"1", "2"}},
		{"filter=flexible-extract", 0, []string{"0", "1", "2"}},
		{"-filter=flexible-extract", 0, []string{"10"}},
		{"filter!=flexible-extract", 0, []string{"10"}},
		{"filter~flex", 0, []string{"0", "1", "2"}},
		{"agreement=mixed", 0, []string{"0", "2"}},
		{"agreement=pass", 0, []string{"1"}},
		{"agreement=fail", 0, []string{"10"}},
		{"score=1", 0, []string{"1", "2"}},
		{"score=1 filter=flexible-extract", 0, []string{"0", "1"}},
		{"score<1", 1, []string{"2"}},
		{"filter=nosuch", 0, nil},
	}
	for _, c := range cases {
		env := Env{Dataset: ds, Filter: c.filter}
		got := ids(ds, Filter(env, mustParse(t, c.q)))
		equalStrings(t, c.q, got, c.want)
	}
}

func TestMatchAndSelected(t *testing.T) {
	ds := lmeval()
	s := ds.Records.Summary(0) // strict fails, flexible passes
	env := Env{Dataset: ds}
	for _, c := range []struct {
		q    string
		want bool
	}{
		{"status=fail", true},
		{"status=pass filter=flexible-extract", true},
		{"status=fail filter=flexible-extract", false},
		{"", true},
	} {
		if got := mustParse(t, c.q).Match(env, s); got != c.want {
			t.Errorf("Match(%q) = %v, want %v", c.q, got, c.want)
		}
	}
	var nilQ *Query
	if !nilQ.Match(env, s) || nilQ.String() != "" || !nilQ.Empty() || nilQ.Selected(env) != 0 {
		t.Error("nil query does not behave as empty")
	}
	if fi := mustParse(t, "filter=flexible-extract").Selected(env); fi != 1 {
		t.Errorf("Selected = %d, want 1", fi)
	}
	if fi := mustParse(t, "filter=nosuch").Selected(Env{Dataset: ds, Filter: 1}); fi != 1 {
		t.Errorf("Selected with unknown filter = %d, want env's 1", fi)
	}
	if got := Filter(Env{}, mustParse(t, "x")); got != nil {
		t.Errorf("Filter without dataset = %v", got)
	}
}

func TestNotesCalledOnce(t *testing.T) {
	ds := generic()
	calls := 0
	env := Env{Dataset: ds, Notes: func(id string) ([]string, string) { calls++; return notes(id) }}
	Filter(env, mustParse(t, "label:wrong-format note~read label~lazy"))
	if calls > ds.Records.Len() {
		t.Errorf("notes looked up %d times for %d records", calls, ds.Records.Len())
	}
	calls = 0
	Filter(env, mustParse(t, "score>1"))
	if calls != 0 {
		t.Errorf("notes looked up %d times for a query without note terms", calls)
	}
}

func TestFieldValue(t *testing.T) {
	ds := lmeval()
	s := ds.Records.Summary(0)
	env := Env{Dataset: ds}
	for field, want := range map[string]string{
		"id": "0", "status": "fail", "score": "0", "answer": "[invalid]", "filter": "strict-match, flexible-extract",
		"agreement": "mixed", "attempts": "1", "line": "", "tag": "", "nosuch": "",
	} {
		if got := FieldValue(env, s, field); got != want {
			t.Errorf("FieldValue(%s) = %q, want %q", field, got, want)
		}
	}
	env.Filter = 1
	if got := FieldValue(env, s, "answer"); got != "18" {
		t.Errorf("answer under filter 1 = %q", got)
	}
	g := generic().Records.Summary(0)
	if got := FieldValue(Env{}, g, "labels.status"); got != "completed" {
		t.Errorf("labels.status = %q", got)
	}
	if got := FieldValue(Env{}, g, "status"); got != model.StatusPass.String() {
		t.Errorf("status = %q", got)
	}
}

func TestAnswerOfOneFilter(t *testing.T) {
	ds := lmeval()
	idx := Values(ds)
	q, err := idx.Parse(`answer.strict-match="[invalid]" answer.flexible-extract=18`)
	if err != nil {
		t.Fatal(err)
	}
	// Whatever filter the list shows (Env.Filter), each field reads its own.
	for _, fi := range []int{0, 1} {
		if got := Filter(Env{Dataset: ds, Filter: fi}, q); len(got) != 1 || got[0] != 0 {
			t.Errorf("filter %d: rows %v, want [0]", fi, got)
		}
	}
	if v := FieldValue(Env{Dataset: ds}, ds.Records.Summary(2), "answer.flexible-extract"); v != "6" {
		t.Errorf("answer.flexible-extract of doc 2: %q", v)
	}
	if _, err := idx.Parse("answer.nope=1"); err == nil || !strings.Contains(err.Error(), `unknown filter "nope"`) {
		t.Errorf("unknown filter: %v", err)
	}
	if got := LabelField("answer.x"); got != "labels.answer.x" {
		t.Errorf("a label key answer.x is reached as %q", got)
	}
}

// TestThresholdStatus: with a threshold, status terms, facets and sorting
// read each scored record's status at it (a1, 8, passes at its loader's
// 7.5 and fails at 9; b1, 9, passes at both), not as loaded; errors and
// unscored records keep theirs.
func TestThresholdStatus(t *testing.T) {
	ds := generic()
	ds.Scoring = &model.Scoring{Max: 10, Threshold: 7.5}
	nine := 9.0
	env := Env{Dataset: ds, Threshold: &nine}
	equalStrings(t, "status=pass at 9", ids(ds, Filter(env, mustParse(t, "status=pass"))), []string{"b1"})
	equalStrings(t, "status=fail at 9", ids(ds, Filter(env, mustParse(t, "status=fail"))), []string{"a1", "a2"})
	equalStrings(t, "status=pass as loaded", ids(ds, Filter(Env{Dataset: ds}, mustParse(t, "status=pass"))), []string{"a1", "b1"})
	if !mustParse(t, "status=fail").Match(env, ds.Records.Summary(0)) {
		t.Error("Match: a1 (8) is a fail at 9")
	}
	rows := Facet(env, all(ds), "category")
	for _, r := range rows {
		if r.Value == "math" && (r.Pass != 0 || r.Fail != 1 || r.Error != 1) {
			t.Errorf("facet math at 9: pass %d fail %d error %d, want 0 1 1", r.Pass, r.Fail, r.Error)
		}
	}
	three := 3.0
	low := Env{Dataset: ds, Threshold: &three}
	equalStrings(t, "status=pass at 3", ids(ds, Filter(low, mustParse(t, "status=pass"))), []string{"a1", "a2", "b1"})
	// Without Scoring the statuses are the dataset's own.
	ds.Scoring = nil
	equalStrings(t, "no Scoring", ids(ds, Filter(env, mustParse(t, "status=pass"))), []string{"a1", "b1"})
}
