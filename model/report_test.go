package model

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestReportFlattensFormatFigures: a run's figures, a filter agreement
// and pass@k are written as further top-level fields of the entry, after
// its own and in name order, as `summary --json` has always written them;
// an entry without them is the plain struct.
func TestReportFlattensFormatFigures(t *testing.T) {
	mean := 8.28
	r := DatasetReport{Kind: KindRun, Path: "run.zip", Records: 3, Run: &RunFigures{
		Attempts: 6, ScoredAttempts: 5, ScoredRecords: 2, MeanWeightedScore: &mean, Threshold: 8.5, AboveThreshold: 1,
		CategoryMeans: map[string]float64{"life": 8.28}, Statuses: map[string]int{"pass": 1, "fail": 1},
		Generation: map[string]float64{"completed_samples": 1}, ScoresMap: &ScoresMapRef{File: "scores_map.json", PassThreshold: 8.5},
	}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `"metrics":null,"above_threshold":1,"attempts":6,"category_means":{"life":8.28},"generation":{"completed_samples":1},` +
		`"mean_weighted_score":8.28,"scored_attempts":5,"scored_records":2,"scores_map":{"file":"scores_map.json","pass_threshold":8.5},` +
		`"statuses":{"fail":1,"pass":1},"threshold":8.5}`
	if !strings.HasSuffix(string(b), want) {
		t.Errorf("run entry:\n%s\nwant it to end with\n%s", b, want)
	}
	r = DatasetReport{Kind: KindLMEval, Agreement: map[string]Agreement{"a|b": {Both: 1, OnlyA: 2, OnlyB: 3, Neither: 4}},
		PassAtK: map[string]map[string]float64{"a": {"1": 0.5}}}
	b, _ = json.Marshal(r)
	want = `"metrics":null,"agreement":{"a|b":{"both":1,"only_a":2,"only_b":3,"neither":4}},"pass_at_k":{"a":{"1":0.5}}}`
	if !strings.HasSuffix(string(b), want) {
		t.Errorf("lm-eval entry:\n%s\nwant it to end with\n%s", b, want)
	}
	b, _ = json.Marshal(DatasetReport{Kind: KindSample})
	if strings.Contains(string(b), "attempts") || !strings.HasSuffix(string(b), `"metrics":null}`) {
		t.Errorf("plain entry: %s", b)
	}
}
