package tui

import (
	"fmt"

	"evalview/loaders/lmeval"
	"evalview/loaders/runzip"
	"evalview/loaders/sample"
	"evalview/model"
)

// Fixture datasets, built in code so the golden files depend on nothing
// but this file: an lm-eval-like task, a run-like dataset with scored
// attempts, and a Sample-like dataset with tool calls and sections.

func boolPtr(b bool) *bool { return &b }

// lmevalFixture is a gsm8k-like task: 6 docs, two filters, 3 repeats,
// doc fields and a target; doc 1 carries an error, doc 3 a warning, and
// the dataset a count mismatch.
func lmevalFixture() *model.Dataset {
	const file = "results/acme__tiny-math-1b/samples_gsm8k_2025-11-02T09-14-27.512230.jsonl"
	questions := []string{
		"Janet's ducks lay 16 eggs per day. She eats three for breakfast every morning and bakes muffins for her friends every day with four. She sells the remainder at the farmers' market daily for $2 per fresh duck egg. How much in dollars does she make every day at the farmers' market?",
		"A robe takes 2 bolts of blue fiber and half that much white fiber. How many bolts in total does it take?",
		"Josh decides to try flipping a house. He buys a house for $80,000 and then puts in $50,000 in repairs. This increased the value of the house by 150%. How much profit did he make?",
		"鸭子每天下16个蛋。她每天早上吃三个，每天用四个给朋友烤松饼。她每天在农贸市场以每个2美元的价格出售剩余的鸭蛋。她每天在农贸市场赚多少钱？",
		"Title with a payload \x1b]2;pwned\x07 and an OSC 52 \x1b]52;c;cm0gLXJmIH4=\x07 inside",
		"James writes a 3-page letter to 2 different friends twice a week. How many pages does he write a year?",
	}
	targets := []string{"18", "3", "70000", "18", "42", "624"}
	// answers per doc: strict-match, flexible-extract
	answers := [][2]string{{"18", "18"}, {"[invalid]", "3"}, {"70000", "70000"}, {"16", "16"}, {"[invalid]", "41"}, {"624", "624"}}
	var recs []*model.Record
	for i, q := range questions {
		id := fmt.Sprint(i)
		rec := &model.Record{Target: targets[i]}
		rec.ID, rec.Title, rec.Line = id, q, i+1
		for fi, f := range []string{"strict-match", "flexible-extract"} {
			ok := answers[i][fi] == targets[i]
			st, v := model.StatusFail, 0.0
			if ok {
				st, v = model.StatusPass, 1.0
			}
			line := i + 1 + fi*6
			fr := model.FilterResult{Filter: f, Answer: answers[i][fi], Answers: []string{answers[i][fi]}, Status: st, Line: line}
			if i == 1 && fi == 0 {
				fr.Status = model.StatusUnscored // the row lacks its metric
			} else {
				fr.Metrics = []model.MetricValue{{Name: "exact_match", Value: v}}
			}
			rec.Filters = append(rec.Filters, fr)
			o := model.Outcome{Present: true, Answer: fr.Answer, Status: st, Metrics: fr.Metrics}
			if len(fr.Metrics) > 0 {
				o.Score, o.HasScore = v, true
			} else {
				o.Status = model.StatusUnscored
			}
			rec.Outcomes = append(rec.Outcomes, o)
			rec.Raw = append(rec.Raw, model.RawPart{Label: "filter " + f, File: file, Line: line,
				JSON: []byte(fmt.Sprintf(`{"doc_id": %d, "doc": {"question": %q, "answer": "#### %s"}, "target": %q, "filter": %q, "filtered_resps": [%q], "exact_match": %v, "resps": [["The answer is %s."]]}`,
					i, "q", targets[i], targets[i], f, answers[i][fi], v, answers[i][fi]))})
		}
		rec.Status, rec.Score, rec.HasScore = rec.Outcomes[0].Status, rec.Outcomes[0].Score, rec.Outcomes[0].HasScore
		rec.Messages = []model.Message{
			{Role: model.RoleUser, FewShot: true, Segments: []model.Segment{{Text: "Question: There are 15 trees in the grove. Grove workers will plant trees today. After they are done, there will be 21 trees. How many trees did they plant?"}}},
			{Role: model.RoleAssistant, FewShot: true, Segments: []model.Segment{{Text: "There are 15 trees originally. Then there were 21 trees after some more were planted. So there must have been 21 - 15 = 6. The answer is 6."}}},
			{Role: model.RoleUser, Segments: []model.Segment{{Text: "Question: " + q + "\nAnswer:"}}},
		}
		for r := 0; r < 3; r++ {
			rec.Attempts = append(rec.Attempts, model.Attempt{Index: r + 1,
				Text:  fmt.Sprintf("Let me think step by step (repeat %d). The answer is %s.", r+1, answers[i][1]),
				Facts: []model.Fact{{Key: "request", Value: "0"}, {Key: "repeat", Value: fmt.Sprint(r + 1)}}})
		}
		rec.Summary.Attempts = 3
		rec.Fields = []model.Field{{Name: "question", Value: q}, {Name: "answer", Value: "Step one.\nStep two.\n#### " + targets[i]}, {Name: "meta", Value: `{"source":"gsm8k","split":"test","difficulty":2}`, IsJSON: true}}
		recs = append(recs, rec)
	}
	recs[1].Issues = []model.Issue{{Severity: model.SeverityError, Code: "metric-missing", File: file, Line: 2, Record: "1", Path: "$.exact_match",
		Message: `metric "exact_match" is listed in "metrics" but the row has no value for it`}}
	recs[1].Errors = 1
	recs[3].Issues = []model.Issue{{Severity: model.SeverityWarning, Code: "duplicate-row", File: file, Line: 10, Record: "3",
		Message: `second row for filter "strict-match" (first on line 4); the first is used`}}
	recs[3].Warnings = 1
	return &model.Dataset{
		Presentation: lmeval.Presentation(),
		Kind:         model.KindLMEval, Path: file, Title: "gsm8k", Task: "gsm8k",
		Facts: []model.Fact{{Key: "model", Value: "acme/tiny-math-1b"}, {Key: "task", Value: "gsm8k"}, {Key: "date", Value: "2025-11-02 09:14"},
			{Key: "n-shot", Value: "5"}, {Key: "harness", Value: "0.4.9.1"}, {Key: "n-samples", Value: "6 of 1319"}, {Key: "samples file", Value: file}},
		Metrics: []model.Metric{
			{Filter: "strict-match", Name: "exact_match", Value: 0.6, Stderr: 0.2449, HasStderr: true},
			{Filter: "flexible-extract", Name: "exact_match", Value: 0.7, Stderr: 0.2108, HasStderr: true},
		},
		Filters:    []string{"strict-match", "flexible-extract"},
		MainMetric: "exact_match",
		Issues: []model.Issue{{Severity: model.SeverityWarning, Code: "count-mismatch", File: file,
			Message: "results file reports 1319 samples for gsm8k (n-samples effective), the samples file has 6 docs: trimmed or incomplete file?"}},
		Records: model.NewMemIndex(recs),
	}
}

// runFixture is a run-like dataset: attempts with score dimensions, a
// weighted score, an error and a judge note, and sections. It passes at
// 5: its statuses are those of its scores there (sample 0 averages 5.9),
// as model.StatusAt reads them.
func runFixture() *model.Dataset {
	scores := func(r, a, c, f float64) []model.Score {
		return []model.Score{{Name: "relevance", Value: r, Max: 10}, {Name: "accuracy", Value: a, Max: 10}, {Name: "completeness", Value: c, Max: 10}, {Name: "fluency", Value: f, Max: 10}}
	}
	rec := &model.Record{
		Messages: []model.Message{{Role: model.RoleSystem, Segments: []model.Segment{{Text: "You are a concise assistant."}}},
			{Role: model.RoleUser, Segments: []model.Segment{{Text: "Summarize the plot of Hamlet in two sentences."}}}},
		Attempts: []model.Attempt{
			{Index: 1, Text: "Prince Hamlet seeks revenge on his uncle Claudius, who murdered Hamlet's father to seize the throne. His hesitation leads to a tragic chain of deaths, including his own.",
				Status: model.StatusPass, StatusText: "ok", DurationMS: 1840, Scores: scores(8, 9, 7, 10), Weighted: 8.45, HasWeighted: true,
				Judge: "Accurate and concise; slightly omits Ophelia.", Facts: []model.Fact{{Key: "tokens", Value: "52"}, {Key: "model", Value: "tiny-1b"}}},
			{Index: 2, Status: model.StatusError, StatusText: "error", DurationMS: 30000, ErrorType: "Timeout", Error: "generation exceeded 30s",
				ErrorBody: `{"detail": "upstream timed out"}`},
			{Index: 3, Text: "Hamlet is a play.", Status: model.StatusFail, StatusText: "ok", DurationMS: 420, Scores: scores(3, 5, 1, 6), Weighted: 3.35, HasWeighted: true,
				Judge: "Far too short.", Raw: `{"choices":[{"text":"Hamlet is a play."}]}`},
		},
		Sections: []model.Section{
			{Title: "Generation params", Type: model.SectionFacts, Facts: []model.Fact{{Key: "temperature", Value: "0.7"}, {Key: "max_tokens", Value: "256"}}},
			{Title: "Judge prompt", Type: model.SectionText, Text: "Rate the answer on relevance, accuracy, completeness and fluency.", Folded: true},
		},
		Raw: []model.RawPart{{Label: "samples/0.json", File: "run.zip!samples/0.json", JSON: []byte(`{"sample_index":0,"prompt":"Summarize the plot of Hamlet in two sentences."}`)}},
	}
	rec.ID, rec.Title, rec.Status, rec.Score, rec.HasScore, rec.Summary.Attempts = "0", "Summarize the plot of Hamlet in two sentences.", model.StatusPass, 5.9, true, 3
	rec2 := &model.Record{Attempts: []model.Attempt{{Index: 1, Text: "Paris.", Status: model.StatusPass, Weighted: 10, HasWeighted: true, Scores: scores(10, 10, 10, 10)}}}
	rec2.ID, rec2.Title, rec2.Status, rec2.Score, rec2.HasScore = "1", "What is the capital of France?", model.StatusPass, 10, true
	return asRun(&model.Dataset{
		Kind: model.KindRun, Path: "run.zip", Title: "run 2025-10-01 tiny-1b", Task: "run-42",
		Facts:      []model.Fact{{Key: "run id", Value: "run-42"}, {Key: "model", Value: "tiny-1b"}, {Key: "status", Value: "completed"}},
		Metrics:    []model.Metric{{Name: "weighted_score", Value: 7.95}},
		MainMetric: "weighted_score",
		Records:    model.NewMemIndex([]*model.Record{rec, rec2}),
		Scoring:    runzip.Scoring(5, nil, nil),
	})
}

// asRun gives a run fixture what the run loader gives every run: a scale
// with the default threshold (unless the fixture sets one) and the run's
// presentation.
func asRun(ds *model.Dataset) *model.Dataset {
	if ds.Scoring == nil {
		ds.Scoring = runzip.Scoring(runzip.DefaultThreshold, nil, nil)
	}
	runzip.Present(ds)
	return ds
}

// sampleFixture is a Sample-like record with tool calls and results, a
// missing image, options, references and sections in their own tabs.
func sampleFixture() *model.Dataset {
	rec := &model.Record{
		Messages: []model.Message{
			{Role: model.RoleSystem, Segments: []model.Segment{{Text: "You can call tools."}}},
			{Role: model.RoleUser, Segments: []model.Segment{{Text: "What is the weather in Paris? See the photo."}, {Type: model.SegImage, URL: "images/paris.png", Resolved: "/data/images/paris.png", Exists: boolPtr(false)}}},
			{Role: model.RoleAssistant, Segments: []model.Segment{{Type: model.SegToolCall, ToolName: "get_weather", ToolCallID: "call_1", Arguments: `{"city":"Paris","unit":"celsius"}`}}},
			{Role: model.RoleTool, ToolCallID: "call_1", Segments: []model.Segment{{Type: model.SegToolResult, ToolCallID: "call_1", Text: `{"temp": 21, "sky": "clear"}`}}},
			{Role: model.RoleAssistant, Label: "golden trajectory 1", Segments: []model.Segment{{Text: "It is 21°C and clear in Paris."}}},
		},
		Options:    []model.Option{{ID: "A", Text: "Sunny"}, {ID: "B", Text: "Clear, 21°C", Correct: true}},
		References: []string{"B"},
		Target:     "B",
		Attempts:   []model.Attempt{{Index: 1, Text: "B", Status: model.StatusPass, StatusText: "judged", Judge: "matches the reference"}},
		Sections: []model.Section{
			{Title: "Tools", Tab: "Tools", Type: model.SectionJSON, JSON: `[{"name":"get_weather","parameters":{"city":"string","unit":"string"}}]`},
			{Title: "Eval result", Tab: "Eval", Type: model.SectionTable, Table: &model.Table{Columns: []string{"metric", "value", "note"}, Rows: [][]string{{"accuracy", "1.0", "exact match with the reference"}, {"tool_use", "1.0", "called get_weather once"}}}},
		},
	}
	rec.ID, rec.Title, rec.Status = "weather-001", "What is the weather in Paris? See the photo.", model.StatusPass
	return &model.Dataset{Kind: model.KindSample, Path: "samples.jsonl", Title: "samples.jsonl", Task: "samples",
		Records: model.NewMemIndex([]*model.Record{rec}), Presentation: sample.Presentation()}
}

// allFixtures are the three fixture datasets, opened together.
func allFixtures() []*model.Dataset {
	return []*model.Dataset{lmevalFixture(), runFixture(), sampleFixture()}
}
