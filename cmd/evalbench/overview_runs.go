package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The overview of many runs (issue 29): output folders where each model
// ran many times, one results file per invocation as people keep them
// (a model folder of 70 results_<stamp>.json, some tasks run again),
// opened on the overview, whose columns merge a model's runs: the first
// screen, the overview's first frame and every key's frame (16.7 ms),
// and peak memory. -overview-runs gives the shapes, MODELSxRUNS.

// overviewRuns are -overview-runs' shapes ("" measures none).
var overviewRuns string

// ovRunTasks is how many tasks the runs of one model cover: 70 for one
// model (the folder), 60 for each of many.
func ovRunTasks(models int) int {
	if models == 1 {
		return 70
	}
	return 60
}

// ovRunsFolder writes models folders of runs results files each: run r
// of a model reports k tasks from task r*k on (k the fewest that cover
// the model's tasks, at least 3), so that with many runs each task runs
// again several times, each run a time of its own; tasks alternate 0-
// and 5-shot, their defaults, as a folder of one configuration has them.
func ovRunsFolder(dir string, models, runs int) (string, error) {
	out := filepath.Join(dir, fmt.Sprintf("runs-%dx%d", models, runs))
	if done, _ := filepath.Glob(filepath.Join(out, "*", "results_*.json")); len(done) == models*runs {
		return out, nil
	}
	tasks := ovRunTasks(models)
	k := max(3, (tasks+runs-1)/runs)
	for m := 0; m < models; m++ {
		name := fmt.Sprintf("org/model-%02d", m)
		folder := filepath.Join(out, strings.ReplaceAll(name, "/", "__"))
		if err := os.MkdirAll(folder, 0o755); err != nil {
			return "", err
		}
		for r := 0; r < runs; r++ {
			at := time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(m*runs+r) * 7 * time.Minute)
			stamp := at.Format("2006-01-02T15-04-05.000000")
			results, nshot, versions, hib := map[string]any{}, map[string]any{}, map[string]any{}, map[string]any{}
			for i := 0; i < k; i++ {
				t := (r*k + i) % tasks
				task := fmt.Sprintf("suite%d_task%d", t/10, t%10)
				v := float64((m*31+t*17+r*3)%100) / 100
				results[task] = map[string]any{"alias": task, "acc,none": v, "acc_stderr,none": 0.01, "acc_norm,none": v / 2, "acc_norm_stderr,none": 0.01}
				nshot[task] = 5 * (t % 2)
				versions[task] = 1.0
				hib[task] = map[string]bool{"acc": true, "acc_norm": true}
			}
			doc := map[string]any{
				"results": results, "versions": versions, "n-shot": nshot, "higher_is_better": hib,
				"config": map[string]any{"model": "hf", "model_args": "pretrained=" + name + ",dtype=bfloat16,trust_remote_code=True",
					"batch_size": "auto", "device": "cuda:0", "limit": nil, "gen_kwargs": nil},
				"model_name": name, "lm_eval_version": "0.4.9", "date": float64(at.Unix()),
			}
			data, err := json.MarshalIndent(doc, "", "  ")
			if err != nil {
				return "", err
			}
			if err := os.WriteFile(filepath.Join(folder, "results_"+stamp+".json"), data, 0o644); err != nil {
				return "", err
			}
		}
	}
	return out, nil
}

// measureOverviewRuns measures the browser's overview on folders of
// many runs of each shape ("1x200,50x10").
func measureOverviewRuns(self, bin, dir, shapes string, wait time.Duration) ([]row, error) {
	var rows []row
	for _, sh := range strings.Split(shapes, ",") {
		sh = strings.TrimSpace(sh)
		if sh == "" {
			continue
		}
		ms, rs, ok := strings.Cut(sh, "x")
		models, err1 := strconv.Atoi(ms)
		runs, err2 := strconv.Atoi(rs)
		if !ok || err1 != nil || err2 != nil || models <= 0 || runs <= 0 {
			return nil, fmt.Errorf("-overview-runs: %q is not MODELSxRUNS", sh)
		}
		folder, err := ovRunsFolder(dir, models, runs)
		if err != nil {
			return nil, err
		}
		mb := folderBytes(folder)
		label := fmt.Sprintf("%d model(s) × %d runs, %.1f MB", models, runs, mb)
		budget := 150 + 0.05*mb
		tr, err := bestOverviewTrace(bin, folder, wait)
		if err != nil {
			rows = append(rows, row{size: label, what: "browser", note: "not measured: " + err.Error()})
		} else {
			rows = append(rows,
				row{size: label, what: "browser: first screen (the overview)", secs: tr.first, target: "≤ 0.15 s", ok: tr.first <= 0.15},
				row{size: label, what: "browser: overview complete", secs: tr.complete, rss: tr.rssMB,
					target: fmt.Sprintf("≤ %.0f MB", budget), ok: tr.rssMB <= budget})
		}
		r, err := measure(self, "-overview-keys", folder)
		if err != nil {
			return nil, err
		}
		f := strings.Fields(r.out + " ? ? ?")
		slowest, _ := strconv.ParseFloat(f[0], 64)
		first, _ := strconv.ParseFloat(f[2], 64)
		rows = append(rows,
			row{size: label, what: "overview: its first frame (columns merged, labelled, drawn)", secs: first / 1000, target: "≤ 16.7 ms", ok: first <= 16.7},
			row{size: label, what: "overview: slowest key and its frame (" + f[1] + ")", secs: slowest / 1000, target: "≤ 16.7 ms", ok: slowest <= 16.7})
	}
	return rows, nil
}
