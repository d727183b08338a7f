package tui

import (
	"fmt"

	"evalview/loaders/runzip"
	"evalview/model"
	"evalview/model/runstats"
)

// runValidFacts are the facts loaders/runzip gives testdata/run/valid,
// in its order (the header reads them by key).
var runValidFacts = []model.Fact{
	{Key: "run id", Value: "2026-04-07_101500_rwkv7-2-9b-demo_chat_en_n8_r3_mt4000"},
	{Key: "status", Value: "completed"},
	{Key: "score status", Value: "completed"},
	{Key: "model requested", Value: "rwkv"},
	{Key: "model reported", Value: "rwkv7-2.9B-demo.zip"},
	{Key: "endpoint", Value: "http://localhost:8080/v1/chat/completions"},
	{Key: "language", Value: "en"},
	{Key: "task type", Value: "chat"},
	{Key: "device", Value: "MacBook Pro 16-inch"},
	{Key: "cpu", Value: "Apple M4 Pro"},
	{Key: "gpu", Value: "Apple M4 Pro"},
	{Key: "memory", Value: "48 GB"},
	{Key: "created", Value: "2026-04-07T10:15:00Z"},
	{Key: "updated", Value: "2026-04-07T10:45:00Z"},
	{Key: "repeat count", Value: "3"},
	{Key: "max tokens", Value: "4000"},
	{Key: "seed", Value: "20260407"},
	{Key: "selection mode", Value: "sequential"},
	{Key: "samples requested", Value: "8 of 340"},
	{Key: "source file", Value: "docs/requirements/prompt/prebuilt-prompt-en.json"},
	{Key: "samples", Value: "6/8 completed"},
	{Key: "attempts", Value: "24/24 done"},
	{Key: "progress", Value: "sample 8 (code)"},
	{Key: "pass threshold", Value: "8.5 (default)"},
	{Key: "category life", Value: "3/4 samples (Life)"},
	{Key: "category mathematics", Value: "1/2 samples (Mathematics)"},
	{Key: "category code", Value: "2/2 samples (Code)"},
}

// runSample is one fixture sample: its category, sample status, and per
// attempt a weighted score (< 0: the attempt errored).
type runSample struct {
	title, category, status string
	weights                 []float64
}

// runSamples cover the threshold's edges: exactly 8.5, just under (8.49),
// a perfect 10, an errored sample with no score, and one with a scored
// attempt beside an errored one.
var runSamples = []runSample{
	{"How do I stay motivated when progress feels slow?", "life", "completed", []float64{9.35, 8.35, 8.85}},
	{"Plan a weekly grocery budget", "life", "partial", []float64{7.7, -1, 7.7}},
	{"Prove that the square root of 2 is irrational", "mathematics", "error", []float64{-1, -1, -1}},
	{"Explain compound interest to a teenager", "mathematics", "completed", []float64{8.5, 8.5, 8.5}},
	{"Write a haiku about the sea", "life", "completed", []float64{9.4, 9.8, 9.6}},
	{"Reverse a linked list in Go", "code", "completed", []float64{10, 10, 10}},
	{"Suggest a name for a cat", "life", "completed", []float64{6, 6.5, 6.25}},
	{"Fix this off-by-one error", "code", "completed", []float64{8.49, 8.49, 8.49}},
}

// runScoresFor splits a weighted score into four plausible dimensions.
func runScoresFor(w float64) []model.Score {
	d := func(x float64) float64 { return max(0, min(10, float64(int(x+0.5)))) }
	return []model.Score{{Name: "relevance", Value: d(w + 0.6), Max: 10}, {Name: "quality", Value: d(w - 0.4), Max: 10},
		{Name: "fluency", Value: d(w + 0.4), Max: 10}, {Name: "satisfaction", Value: d(w - 0.6), Max: 10}}
}

// runValidFixture is a run dataset as loaders/runzip builds it (Kind run,
// facts, Extra keys, labels category/status/errored, the site's average
// weighted score), larger than testdata/run/valid so that the histogram
// and the threshold have something to show.
func runValidFixture() *model.Dataset {
	var recs []*model.Record
	for i, s := range runSamples {
		rec := &model.Record{}
		rec.ID, rec.Title = fmt.Sprint(i+1), s.title
		rec.Messages = []model.Message{{Role: model.RoleUser, Segments: []model.Segment{{Text: s.title}}}}
		errored := 0
		var sum float64
		for a, w := range s.weights {
			at := model.Attempt{Index: a + 1, StatusText: "completed", DurationMS: float64(8000 + 1000*a)}
			if w < 0 {
				errored++
				at.Status, at.StatusText = model.StatusError, "error"
				at.ErrorType, at.Error, at.ErrorBody, at.DurationMS = "http_error", "HTTP Error 504: Gateway Timeout", "upstream timed out", 900000
			} else {
				at.Text = fmt.Sprintf("Answer %d to %q: **short** and to the point.", a+1, s.title)
				at.Scores, at.Weighted, at.HasWeighted = runScoresFor(w), w, true
				at.Judge = fmt.Sprintf("Judged %v: clear, could be more specific.", w)
				at.Facts = []model.Fact{{Key: "characters", Value: fmt.Sprint(len(at.Text))}}
				at.Status = model.StatusFail
				if w >= 8.5 {
					at.Status = model.StatusPass
				}
				sum += w
				rec.ScoredAttempts++
			}
			rec.Attempts = append(rec.Attempts, at)
		}
		rec.Summary.Attempts, rec.AttemptsWanted = len(s.weights), 3
		rec.Labels = model.LabelsOf(map[string]string{"category": s.category, "sample_status": s.status, "errored": "no"})
		if errored > 0 {
			rec.Labels = rec.Labels.With("errored", "yes")
		}
		switch {
		case errored == len(s.weights) || s.status == "error":
			rec.Status = model.StatusError
		default:
			rec.Score, rec.HasScore = runstats.Round2(sum/float64(rec.ScoredAttempts)), true
			rec.Status = model.StatusFail
			if rec.Score >= 8.5 {
				rec.Status = model.StatusPass
			}
		}
		rec.Raw = []model.RawPart{{Label: fmt.Sprintf("samples/%04d.json", i+1), File: fmt.Sprintf("samples/%04d.json", i+1), Line: 1,
			JSON: []byte(fmt.Sprintf(`{"sample_index": %d, "source_category": %q}`, i+1, s.category))}}
		recs = append(recs, rec)
	}
	return asRun(&model.Dataset{
		Kind: model.KindRun, Path: "testdata/run/valid.zip", Title: "rwkv7-2-9b-demo_chat_en_n8_r3_mt4000 2026-04-07 10:15",
		Task: "2026-04-07_101500_rwkv7-2-9b-demo_chat_en_n8_r3_mt4000", Facts: runValidFacts,
		Metrics:    []model.Metric{{Name: "total_samples", Value: 8}, {Name: "completed_samples", Value: 6}, {Name: "error_attempts", Value: 4}},
		MainMetric: "weighted_score",
		Records:    model.NewMemIndex(recs),
		Scoring: runzip.Scoring(8.5, []string{"life", "mathematics", "code"},
			map[string]string{"life": "Life", "mathematics": "Mathematics", "code": "Code"}),
	})
}

// wantHigh lists the fixture's samples (0-based) on the site's high-score
// list at threshold t, worked out by hand from runSamples' averages:
// 8.85, 7.7, none, 8.5, 9.6, 10, 6.25, 8.49.
func wantHigh(t float64) []int {
	avgs := []float64{8.85, 7.7, -1, 8.5, 9.6, 10, 6.25, 8.49}
	var out []int
	for i, a := range avgs {
		if a >= 0 && a >= t {
			out = append(out, i)
		}
	}
	return out
}
