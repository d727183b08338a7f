package runzip

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/model"
	"evalview/model/runstats"
)

const scoresOnlyDir = "../../testdata/run/scores_only"

// A run with scores but no samples (the spec's own reference run) opens
// with one record per score file, each built from the score alone, and
// one error that names the count and lists the files: it opened as
// "0 records" with an orphan-score error per score file.
func TestScoresOnlyRun(t *testing.T) {
	rs := runSet{}
	for _, n := range []string{"manifest.json", "generation_summary.json", "scores_map.json",
		"scores/0001_score.json", "scores/0002_score.json", "scores/0003_score.json",
		"scores/0004_score.json", "scores/0005_score.json", "scores/0006_score.json"} {
		data, err := os.ReadFile(filepath.Join(scoresOnlyDir, n))
		if err != nil {
			t.Fatal(err)
		}
		rs[n] = data
	}
	for name, p := range map[string]string{"folder": scoresOnlyDir, "zip": rs.zip(t, "run/")} {
		t.Run(name, func(t *testing.T) {
			ds := openOne(t, p)
			if ds.Records.Len() != 6 {
				t.Fatalf("records = %d, want one per score file", ds.Records.Len())
			}
			issues := allIssues(t, ds)
			if len(issues) != 1 || issues[0].Code != "no-samples" || issues[0].Severity != E ||
				!strings.Contains(issues[0].Message, "6 score files (sample_index 1-6)") || len(issues[0].Items) != 6 ||
				!strings.HasSuffix(issues[0].Items[2], "scores/0003_score.json") {
				t.Fatalf("issues:%s\nitems %v", dump(issues), issues[0].Items)
			}
			r, err := ds.Records.Record(2)
			if err != nil {
				t.Fatal(err)
			}
			if r.ID != "3" || r.Title != "Probability of a sum of 7 with two dice" || r.Labels.Get("category") != "mathematics" ||
				len(r.Messages) != 1 || !strings.Contains(r.Messages[0].Text(), "two fair dice") {
				t.Errorf("record 3 = %+v", r.Summary)
			}
			// The site's averageWeightedScore: 8.125 rounds half up.
			if !r.HasScore || r.Score != 8.13 || r.Status != model.StatusPass || r.ScoredAttempts != 2 || r.AttemptsWanted != 2 {
				t.Errorf("record 3 score %v %v status %v scored %d wanted %d", r.Score, r.HasScore, r.Status, r.ScoredAttempts, r.AttemptsWanted)
			}
			if len(r.Attempts) != 2 {
				t.Fatalf("attempts = %d", len(r.Attempts))
			}
			a := r.Attempts[1]
			if a.Index != 2 || a.Text != "" || !a.HasWeighted || a.Weighted != 9.2 || len(a.Scores) != 4 ||
				a.Judge != "Counts the six outcomes clearly; 1/6." || a.Status != model.StatusPass {
				t.Errorf("attempt 2 = %+v", a)
			}
			if !strings.Contains(a.NoText, "not in this run: no sample file has sample_index 3") {
				t.Errorf("the attempt does not say where its response is: %q", a.NoText)
			}
			if len(r.Raw) != 1 || !strings.HasSuffix(r.Raw[0].File, "0003_score.json") {
				t.Errorf("raw = %+v", r.Raw)
			}
			st := runstats.StatsOf(ds, 0)
			if st.Records != 6 || st.Attempts != 12 || st.ScoredAttempts != 12 || st.AboveThreshold != 4 || st.Threshold != 8 ||
				st.MeanWeightedScore == nil || *st.MeanWeightedScore != 8.44 || st.CategoryMeans["mathematics"] != 8.91 {
				t.Errorf("stats = %+v", st)
			}
		})
	}
}

// scores_map.json is compared with the figures computed from the score
// files as its writer computes them; the fixture's was written by that
// writer, so every figure agrees, even where the site's rounding gives
// another mean (sample 3: 8.12 there, 8.13 on the site).
func TestScoresMapAgrees(t *testing.T) {
	ds := openOne(t, scoresOnlyDir)
	c := ScoresMapOf(ds)
	if c == nil {
		t.Fatalf("no scores_map check")
	}
	if c.Threshold != 8 || !strings.HasSuffix(c.File, "scores_map.json") {
		t.Errorf("check = %+v", c)
	}
	got := map[string]model.MetricComparison{}
	for _, f := range c.Figures {
		got[f.Filter+"/"+f.Name] = f
		if f.Differs() || !f.HasSamples || !f.HasReport {
			t.Errorf("figure %s %s: computed %v (%v), reported %v (%v)", f.Filter, f.Name, f.Samples, f.HasSamples, f.Reported, f.HasReport)
		}
	}
	for k, v := range map[string]float64{"run/total": 6, "run/passed": 4, "run/failed": 2, "run/global_mean": 8.43,
		"category mathematics/mean": 8.9, "category life/mean": 8.12, "category code/passed": 1} {
		if f, ok := got[k]; !ok || f.Samples != v {
			t.Errorf("%s = %+v, want %v", k, f, v)
		}
	}
	if len(c.Figures) != 4+3*3 {
		t.Errorf("%d figures, want the run's 4 and 3 per category (samples only where they differ)", len(c.Figures))
	}
}

// A score file changed after scores_map.json was written: the figures it
// moves differ, the sample's own mean_score among them.
func TestScoresMapDiffers(t *testing.T) {
	rs := runSet{}
	for _, n := range []string{"manifest.json", "generation_summary.json", "scores_map.json", "scores/0001_score.json", "scores/0002_score.json",
		"scores/0003_score.json", "scores/0004_score.json", "scores/0005_score.json", "scores/0006_score.json"} {
		data, err := os.ReadFile(filepath.Join(scoresOnlyDir, n))
		if err != nil {
			t.Fatal(err)
		}
		rs[n] = data
	}
	rs.edit(t, "scores/0002_score.json", func(m map[string]any) { obj(arr(m["attempt_evals"])[1])["weighted_score"] = 9.05 })
	ds := openOne(t, rs.zip(t, ""))
	c := ScoresMapOf(ds)
	var differ []string
	for _, f := range c.Figures {
		if f.Differs() {
			differ = append(differ, fmt.Sprintf("%s/%s %v %v", f.Filter, f.Name, f.Samples, f.Reported))
		}
	}
	// The writer run on the changed files gives 5, 1, 8.6 and life 8.62.
	want := []string{"run/passed 5 4", "run/failed 1 2", "run/global_mean 8.6 8.43",
		"category life/passed 2 1", "category life/mean 8.62 8.12", "sample 2/mean_score 8.38 7.38"}
	if strings.Join(differ, "; ") != strings.Join(want, "; ") {
		t.Errorf("differing figures:\n got %v\nwant %v", differ, want)
	}
}

// PyRound2 and exactMean are Python's round(x, 2) and statistics.mean;
// the expected values come from Python 3.
func TestPythonArithmetic(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{7.05, 9.2}, 8.12},  // 8.125 exactly: half to even
		{[]float64{8.35, 8.4}, 8.38},  // 8.375 exactly: half to even is up
		{[]float64{7.7, 7.05}, 7.38},  // 7.375
		{[]float64{10, 9.35}, 9.68},   // the float nearest 9.675 is just above it
		{[]float64{8.85, 7.38}, 8.12}, // 8.115
		{[]float64{0.1, 0.2, 0.3}, 0.2},
	} {
		if got := PyRound2(exactMean(c.in)); got != c.want {
			t.Errorf("round(mean(%v), 2) = %v, want %v", c.in, got, c.want)
		}
	}
	if got := PyRound2(2.675); got != 2.67 { // Python's documented example
		t.Errorf("round(2.675, 2) = %v", got)
	}
	if got := exactMean([]float64{1e308, 1e308, -1e308}); math.Abs(got-1e308/3) > 1e293 {
		t.Errorf("exact mean of large values = %v", got)
	}
}
