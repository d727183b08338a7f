package query

import (
	"strconv"
	"testing"

	"evalview/model"
)

// synthetic builds n lm-eval-like summaries with two filters, labels and
// tags, shaped like a large samples file.
func synthetic(n int) *model.Dataset {
	cats := []string{"math", "physics", "high school", "law", "history"}
	answers := []string{"[invalid]", "18", "42", "7", "3.5"}
	recs := make([]*model.Record, n)
	for i := range recs {
		outs := make([]model.Outcome, 2)
		for fi := range outs {
			pass := (i+fi)%3 == 0
			o := model.Outcome{Present: fi == 0 || i%7 != 0, Answer: answers[(i+fi)%len(answers)], Status: model.StatusFail, HasScore: true}
			if pass {
				o.Status, o.Score = model.StatusPass, 1
			}
			outs[fi] = o
		}
		s := model.Summary{
			ID: strconv.Itoa(i), Title: "Question number " + strconv.Itoa(i) + " about " + cats[i%len(cats)],
			Labels:   model.LabelsOf(map[string]string{"category": cats[i%len(cats)], "task_type": "qa"}),
			Outcomes: outs, Attempts: 1 + i%4, Errors: i % 7 / 6, Line: i + 1,
		}
		if i%10 == 0 {
			s.Tags = []string{"critical", "reviewed"}
		}
		s.Status, s.Score, s.HasScore = outs[0].Status, outs[0].Score, outs[0].HasScore
		recs[i] = &model.Record{Summary: s}
	}
	return &model.Dataset{Kind: model.KindLMEval, Filters: []string{"strict-match", "maj@64"}, Records: model.NewMemIndex(recs)}
}

// BenchmarkFilter runs a query over 100,000 summaries, as the list does on
// every keystroke of the query line.
func BenchmarkFilter(b *testing.B) {
	ds := synthetic(100_000)
	for _, c := range []struct{ name, q string }{
		{"issue-example", "score<0.5 category=math status=fail filter=maj@64 tag:critical"},
		{"label", "category=math"},
		{"bare-word", "physics"},
		{"regex", `title~"number 9+ about"`},
		{"negated-numbers", "-attempts>2 errors=0 line<90000"},
	} {
		q := mustParse(b, c.q)
		env := Env{Dataset: ds}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var n int
			for b.Loop() {
				n = len(Filter(env, q))
			}
			b.ReportMetric(float64(n), "matches")
		})
	}
}

// BenchmarkFacet and BenchmarkSort measure the other whole-list
// operations over 100,000 summaries.
func BenchmarkFacet(b *testing.B) {
	ds := synthetic(100_000)
	rows, env := all(ds), Env{Dataset: ds}
	b.ReportAllocs()
	for b.Loop() {
		Facet(env, rows, "category")
	}
}

// BenchmarkSort sorts 100,000 rows by score.
func BenchmarkSort(b *testing.B) {
	ds := synthetic(100_000)
	env := Env{Dataset: ds}
	b.ReportAllocs()
	for b.Loop() {
		rows := all(ds)
		Sort(env, rows, SortKey{"id", true})
	}
}
