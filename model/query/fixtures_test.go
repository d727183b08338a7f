package query

import (
	"reflect"
	"testing"

	"evalview/model"
)

// generic is a run-zip-like dataset: labels (one of them shadowing the
// built-in status), tags, scores, issue counts and line numbers.
func generic() *model.Dataset {
	sum := func(id, title string, st model.Status, score float64, has bool, labels map[string]string, tags []string, errs, warns, attempts, line int) *model.Record {
		return &model.Record{Summary: model.Summary{ID: id, Title: title, Status: st, Score: score, HasScore: has,
			Labels: model.LabelsOf(labels), Tags: tags, Errors: errs, Warnings: warns, Attempts: attempts, Line: line}}
	}
	recs := []*model.Record{
		sum("a1", "Solve 2+2", model.StatusPass, 8, true, map[string]string{"category": "math", "status": "completed", "steps": "2"}, []string{"critical", "easy"}, 0, 1, 3, 1),
		sum("a2", "Capital of France", model.StatusFail, 3, true, map[string]string{"category": "geo", "status": "completed", "steps": "10"}, []string{"easy"}, 1, 0, 3, 2),
		sum("a10", "High school algebra", model.StatusUnscored, 0, false, map[string]string{"category": "high school", "status": "completed"}, nil, 0, 0, 0, 3),
		sum("a3", "Integral", model.StatusError, 5, true, map[string]string{"category": "math", "status": "error", "steps": "x"}, nil, 2, 2, 1, 4),
		sum("b1", `Quote "x"`, model.StatusPass, 9, true, map[string]string{"status": "completed", "category": ""}, []string{"critical"}, 0, 0, 1, 0),
	}
	return &model.Dataset{Kind: model.KindRun, Title: "generic", Records: model.NewMemIndex(recs)}
}

// notes are error-analysis notes on generic's records.
func notes(id string) ([]string, string) {
	switch id {
	case "a1":
		return []string{"wrong-format"}, "misread the question"
	case "a2":
		return []string{"wrong-format", "lazy"}, ""
	}
	return nil, ""
}

// lmeval is an lm-eval dataset with two filters; doc 10 has no
// flexible-extract row (a trimmed file).
func lmeval() *model.Dataset {
	out := func(answer string, pass bool) model.Outcome {
		o := model.Outcome{Present: true, Answer: answer, Status: model.StatusFail, HasScore: true}
		if pass {
			o.Status, o.Score = model.StatusPass, 1
		}
		o.Metrics = []model.MetricValue{{Name: "exact_match", Value: o.Score}}
		return o
	}
	doc := func(id string, outs ...model.Outcome) *model.Record {
		s := model.Summary{ID: id, Title: "question " + id, Outcomes: outs, Attempts: 1}
		for len(s.Outcomes) < 2 {
			s.Outcomes = append(s.Outcomes, model.Outcome{})
		}
		f := s.Outcome(0)
		s.Status, s.Score, s.HasScore = f.Status, f.Score, f.HasScore
		return &model.Record{Summary: s}
	}
	recs := []*model.Record{
		doc("0", out("[invalid]", false), out("18", true)),
		doc("1", out("3", true), out("3", true)),
		doc("2", out("5", true), out("6", false)),
		doc("10", out("[invalid]", false)),
	}
	return &model.Dataset{Kind: model.KindLMEval, Title: "gsm8k", Filters: []string{"strict-match", "flexible-extract"},
		MainMetric: "exact_match", Records: model.NewMemIndex(recs)}
}

// ids returns the record ids of rows.
func ids(ds *model.Dataset, rows []int) []string {
	out := []string{}
	for _, i := range rows {
		out = append(out, ds.Records.Summary(i).ID)
	}
	return out
}

// all returns every row index of ds.
func all(ds *model.Dataset) []int {
	out := make([]int, ds.Records.Len())
	for i := range out {
		out[i] = i
	}
	return out
}

func mustParse(t testing.TB, line string) *Query {
	t.Helper()
	q, err := Parse(line)
	if err != nil {
		t.Fatalf("Parse(%q): %v", line, err)
	}
	return q
}

func equalStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: got %q, want %q", what, got, want)
	}
}
