package tui

import (
	"context"
	"fmt"
	"strings"

	"evalview/loaders/lmeval"
	"evalview/loaders/runzip"
	"evalview/model"
	"evalview/model/compare"
)

// Fixtures of the comparison views, built in code: an lm-eval task with
// three filters (strict-match and flexible-extract keep the first repeat,
// maj@4 votes over four), evalview's re-extractions with regex spans on
// every repeat, one doc whose logged strict-match answer disagrees with
// the re-extraction, subject and target labels, and a deep pass; a second
// run of the same task; and two run-like datasets over the same prompts.

// repeatsDoc is one doc: its target, each repeat's final number, and
// whether each repeat says "The answer is" (what strict-match needs).
type repeatsDoc struct {
	target  string
	answers []string
	phrase  []bool
	// logged overrides the logged strict-match answer (a harness drift).
	logged string
}

// repeatsDocs are the docs of the first run.
func repeatsDocs() []repeatsDoc {
	all := []bool{true, true, true, true}
	return []repeatsDoc{
		{"18", []string{"18", "18", "18", "18"}, all, ""},
		{"3", []string{"3", "3", "2", "3"}, []bool{false, true, true, true}, ""},
		{"70000", []string{"7000", "70000", "70000", "5"}, all, ""},
		{"18", []string{"16", "16", "16", "18"}, all, ""},
		{"42", []string{"42", "41", "41", "42"}, all, ""},
		{"624", []string{"624", "624", "624", "624"}, all, ""},
		{"5", []string{"5", "6", "6", "6"}, []bool{false, true, true, true}, ""},
		{"12", []string{"12", "12", "12", "12"}, all, "13"},
	}
}

var repeatsSubjects = []string{"algebra", "geometry", "arithmetic"}

// repeatsFixture builds the task from docs, titled title.
func repeatsFixture(title string, docs []repeatsDoc) *model.Dataset {
	filters := []string{"strict-match", "flexible-extract", "maj@4"}
	var recs []*model.Record
	for i, d := range docs {
		rec := &model.Record{Target: d.target}
		rec.ID, rec.Line = fmt.Sprint(i), i+1
		rec.Title = fmt.Sprintf("Question %d: how much is it (target %s)?", i, d.target)
		rec.Labels = model.LabelsOf(map[string]string{"subject": repeatsSubjects[i%3], compare.TargetLabel: d.target})
		rec.Messages = []model.Message{{Role: model.RoleUser, Segments: []model.Segment{{Text: rec.Title}}}}
		for r, ans := range d.answers {
			txt := fmt.Sprintf("Step one, step two. So it is %s.", ans)
			if d.phrase[r] {
				txt = fmt.Sprintf("Step one, step two. The answer is %s.", ans)
			}
			a := model.Attempt{Index: r + 1, Text: txt}
			for _, f := range filters {
				e := model.Extraction{Filter: f, Answer: ans, Start: -1, End: -1, Status: status(ans == d.target)}
				switch f {
				case "strict-match":
					if d.phrase[r] {
						e.Start = strings.Index(txt, "The answer is")
						e.End = e.Start + len("The answer is ") + len(ans)
					} else {
						e.Answer, e.Status = "[invalid]", model.StatusFail
					}
				default:
					e.Start = strings.LastIndex(txt, ans)
					e.End = e.Start + len(ans)
				}
				if f != "maj@4" && r > 0 {
					e.Note = compare.NotCounted + "take_first keeps the first repeat"
				}
				if f == "strict-match" && r == 0 && d.logged != "" {
					e.Logged, e.Disagrees = d.logged, true
				}
				a.Extractions = append(a.Extractions, e)
			}
			rec.Attempts = append(rec.Attempts, a)
		}
		rec.Summary.Attempts = len(rec.Attempts)
		for _, f := range filters {
			ans := compare.Votes(rec, f)[0].Answer
			if f == "strict-match" && d.logged != "" {
				ans = d.logged
			}
			ok := ans == d.target
			v := 0.0
			if ok {
				v = 1
			}
			fr := model.FilterResult{Filter: f, Answer: ans, Answers: []string{ans}, Status: status(ok),
				Metrics: []model.MetricValue{{Name: "exact_match", Value: v}}, Line: i + 1}
			rec.Filters = append(rec.Filters, fr)
			rec.Outcomes = append(rec.Outcomes, model.Outcome{Present: true, Answer: ans, Status: fr.Status, Score: v, HasScore: true, Metrics: fr.Metrics})
		}
		rec.Status, rec.Score, rec.HasScore = rec.Outcomes[0].Status, rec.Outcomes[0].Score, true
		if d.logged != "" {
			rec.Warnings = 1
			rec.Issues = []model.Issue{{Severity: model.SeverityWarning, Code: "reextract-mismatch", Record: rec.ID,
				Message: `strict-match: logged "` + d.logged + `", re-extracted "` + d.target + `"`}}
		}
		recs = append(recs, rec)
	}
	ds := &model.Dataset{
		Presentation: lmeval.Presentation(),
		Kind:         model.KindLMEval, Path: "samples_gsm8k_" + title + ".jsonl", Title: title, Task: "gsm8k",
		Facts:      []model.Fact{{Key: "task", Value: "gsm8k"}},
		Filters:    filters,
		MainMetric: "exact_match",
		Metrics: []model.Metric{{Filter: "strict-match", Name: "exact_match", Value: 0.375},
			{Filter: "flexible-extract", Name: "exact_match", Value: 0.5}, {Filter: "maj@4", Name: "exact_match", Value: 0.75}},
		Records: model.NewMemIndex(recs),
	}
	ds.Deep = func(ctx context.Context, progress func(done, total int)) (*model.DeepReport, error) {
		rep := &model.DeepReport{PassAtK: map[string]map[int]float64{}, Repeats: 4, Reextracted: len(recs) * len(filters)}
		for _, f := range filters {
			var counts []compare.RepeatCount
			for _, r := range recs {
				n, c := compare.RepeatsRight(r, f)
				counts = append(counts, compare.RepeatCount{N: n, C: c})
			}
			rep.PassAtK[f] = compare.MeanPassAtK(counts, compare.KValues(4))
		}
		for i, r := range recs {
			if len(r.Issues) > 0 {
				rep.Flagged = append(rep.Flagged, i)
				rep.Issues = append(rep.Issues, r.Issues...)
			}
			progress(i+1, len(recs))
		}
		return rep, ctx.Err()
	}
	return ds
}

func status(ok bool) model.Status {
	if ok {
		return model.StatusPass
	}
	return model.StatusFail
}

// tunedDocs are the second run: docs 2 and 3 turn right, doc 5 wrong.
func tunedDocs() []repeatsDoc {
	docs := repeatsDocs()
	docs[2].answers = []string{"70000", "70000", "70000", "70000"}
	docs[3].answers = []string{"18", "18", "16", "18"}
	docs[5].answers = []string{"625", "624", "625", "625"}
	docs[7].logged = ""
	return docs
}

// scoredRunFixture is a run-like dataset over four prompts, scored as
// given (< 0: no score), passing at 6.
func scoredRunFixture(title string, scores []float64) *model.Dataset {
	prompts := []string{"Summarize Hamlet.", "Capital of France?", "Write a haiku about rain.", "Explain recursion."}
	var recs []*model.Record
	for i, p := range prompts {
		rec := &model.Record{}
		rec.ID, rec.Title = fmt.Sprint(i), p
		if i < len(scores) && scores[i] >= 0 {
			rec.Score, rec.HasScore, rec.Status = scores[i], true, status(scores[i] >= 6)
		}
		rec.Attempts = []model.Attempt{{Index: 1, Text: "answer to " + p, Weighted: rec.Score, HasWeighted: rec.HasScore}}
		recs = append(recs, rec)
	}
	return asRun(&model.Dataset{Kind: model.KindRun, Path: title + ".zip", Title: title, Task: title, MainMetric: "weighted_score",
		Records: model.NewMemIndex(recs), Scoring: runzip.Scoring(6, nil, nil)})
}

// compareFixtures are two runs of the task and two scored runs.
func compareFixtures() []*model.Dataset {
	return []*model.Dataset{
		repeatsFixture("gsm8k base", repeatsDocs()),
		repeatsFixture("gsm8k tuned", tunedDocs()),
		scoredRunFixture("run-a", []float64{8, 9, 4, -1}),
		scoredRunFixture("run-b", []float64{8.5, 9, 7, 5}),
	}
}
