package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

const scoresOnly = "../../testdata/run/scores_only"

// A run with scores but no samples: check says once that the importer
// needs samples/ (the files in --json, not one line each), and the run's
// records and figures come from its score files.
func TestCheckScoresOnlyRun(t *testing.T) {
	out, _, code := runCmd(t, "check", scoresOnly)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 3 || !strings.Contains(lines[0], "error: the run has no samples/*.json") ||
		!strings.Contains(lines[0], "6 score files (sample_index 1-6)") || lines[1] != scoresOnly+": note: 1 artifact opened; nothing left out" ||
		lines[2] != "1 error, 0 warnings in 1 dataset (6 records)" {
		t.Errorf("exit %d:\n%s", code, out)
	}
	out, _, _ = runCmd(t, "check", "--json", scoresOnly)
	var issues []jsonIssue
	if err := json.Unmarshal([]byte(out), &issues); err != nil {
		t.Fatal(err)
	}
	if len(issues) != 2 || issues[0].Code != "no-samples" || len(issues[0].Items) != 6 || issues[1].Code != "folder-read" ||
		!strings.HasSuffix(issues[0].Items[5], "scores/0006_score.json") {
		t.Errorf("issues = %+v", issues)
	}
}

// summary for a run: its generation counters are not printed as lm-eval
// metrics (a "filter none" table of completed_samples with no recomputed
// value), category_means is printed with the values --json gives, and
// scores_map.json's figures stand beside the ones computed from the score
// files.
func TestSummaryRunText(t *testing.T) {
	for _, c := range []struct {
		path string
		mean float64
	}{{"../../testdata/run/valid", 8.28}, {scoresOnly, 8.44}} {
		t.Run(c.path, func(t *testing.T) { summaryRunText(t, c.path, c.mean) })
	}
}

func summaryRunText(t *testing.T, path string, mean float64) {
	out, _, code := runCmd(t, "summary", path)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if regexp.MustCompile(`(?m)^\s+none\s+\w+_(samples|attempts|categories)`).MatchString(out) || strings.Contains(out, "filter  metric") {
		t.Errorf("generation counters printed as metrics:\n%s", out)
	}
	jout, _, _ := runCmd(t, "summary", "--json", path)
	var got struct {
		Datasets []struct {
			CategoryMeans map[string]float64                   `json:"category_means"`
			Mean          float64                              `json:"mean_weighted_score"`
			Generation    map[string]float64                   `json:"generation"`
			Metrics       map[string]map[string]map[string]any `json:"metrics"`
			ScoresMap     *struct {
				PassThreshold float64 `json:"pass_threshold"`
			} `json:"scores_map"`
		}
	}
	if err := json.Unmarshal([]byte(jout), &got); err != nil || len(got.Datasets) != 1 {
		t.Fatalf("%v\n%s", err, jout)
	}
	d := got.Datasets[0]
	var parts []string
	for _, c := range sortedKeys(d.CategoryMeans) {
		parts = append(parts, fmt.Sprintf("%s %v", c, d.CategoryMeans[c]))
	}
	if want := "  category means: " + strings.Join(parts, ", ") + "\n"; !strings.Contains(out, want) || len(d.CategoryMeans) == 0 {
		t.Errorf("category means not as in --json (%v); want %q in\n%s", d.CategoryMeans, want, out)
	}
	if !strings.Contains(out, fmt.Sprintf("mean weighted score %v,", d.Mean)) || d.Mean != mean {
		t.Errorf("mean %v not as in --json:\n%s", d.Mean, out)
	}
	if d.Generation["total_attempts"] != 2*float64(len(strings.Split(strings.TrimSpace(mustExport(t, path)), "\n"))) ||
		!strings.Contains(out, "  generation summary: completed_attempts ") {
		t.Errorf("generation = %v\n%s", d.Generation, out)
	}
	if _, ok := d.Metrics["none"]; ok {
		t.Errorf("counters still in metrics: %v", d.Metrics)
	}
	if path != scoresOnly {
		if d.ScoresMap != nil || len(d.Metrics) != 0 {
			t.Errorf("a run without scores_map.json: metrics %v, scores_map %v", d.Metrics, d.ScoresMap)
		}
		return
	}
	if gm := d.Metrics["run"]["global_mean"]; gm["samples"] != 8.43 || gm["reported"] != 8.43 || gm["differs"] != false || d.ScoresMap == nil || d.ScoresMap.PassThreshold != 8 {
		t.Errorf("global_mean = %v, scores_map = %+v", gm, d.ScoresMap)
	}
	if !regexp.MustCompile(`(?m)^  run\s+global_mean\s+8\.43\s+6\s+8\.43\s*$`).MatchString(out) {
		t.Errorf("scores_map.json comparison missing:\n%s", out)
	}
}

func mustExport(t *testing.T, path string) string {
	t.Helper()
	out, _, code := runCmd(t, "export", path)
	if code != 0 {
		t.Fatalf("export %s: exit %d", path, code)
	}
	return out
}

// export writes full values: no label holds the target cut for the screen
// ("Janet sells … $<<9*2…"), on any fixture or real artifact.
func TestExportFullTargets(t *testing.T) {
	rows := 0
	for _, p := range agreePaths(t) {
		out, _, code := runCmd(t, "export", p)
		if code == 2 {
			continue
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if line == "" {
				continue // no records
			}
			var r struct {
				Kind   string            `json:"kind"`
				Target string            `json:"target"`
				Labels map[string]string `json:"labels"`
			}
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("%s: %v: %s", p, err, line)
			}
			if r.Kind == "jsonl" {
				continue // plain records: their labels are their own fields, a "target" among them
			}
			if lt, ok := r.Labels["target"]; ok {
				rows++
				if lt != r.Target {
					t.Errorf("%s: label target %q, target %q", p, lt, r.Target)
				}
			}
		}
	}
	if rows == 0 {
		t.Fatal("no row with a target label")
	}
}
