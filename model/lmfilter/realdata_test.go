package lmfilter

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// realTask is what a results file says about one task.
type realTask struct {
	pipelines []Pipeline
	version   string
}

// loadRealResults reads the task configs of every results file in dir,
// keyed by file then task.
func loadRealResults(t *testing.T, dir string) map[string]map[string]realTask {
	out := map[string]map[string]realTask{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Configs map[string]struct {
				FilterList json.RawMessage `json:"filter_list"`
				OutputType string          `json:"output_type"`
			} `json:"configs"`
			Version string `json:"lm_eval_version"`
		}
		if json.Unmarshal(data, &doc) != nil || doc.Configs == nil {
			continue
		}
		tasks := map[string]realTask{}
		for name, c := range doc.Configs {
			ps, err := ParseFilterList(c.FilterList)
			if err != nil {
				t.Errorf("%s: configs.%s.filter_list: %v", f, name, err)
				continue
			}
			if len(ps) == 0 {
				ps = DefaultPipelines(c.OutputType)
			}
			for i := range ps {
				ps[i].HarnessVersion = doc.Version
			}
			tasks[name] = realTask{pipelines: ps, version: doc.Version}
		}
		out[f] = tasks
	}
	return out
}

// taskFor picks the results file and task config a samples file belongs
// to: the longest task name in its file name, preferring a results file
// with the same timestamp.
func taskFor(samples string, results map[string]map[string]realTask) (string, realTask, bool) {
	base := filepath.Base(samples)
	stamp := base[strings.LastIndex(base, "_")+1:]
	stamp = strings.TrimSuffix(stamp, ".jsonl")
	var files []string
	for f := range results {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool {
		return strings.Contains(files[i], stamp) && !strings.Contains(files[j], stamp) ||
			strings.Contains(files[i], stamp) == strings.Contains(files[j], stamp) && files[i] < files[j]
	})
	for _, f := range files {
		best := ""
		for name := range results[f] {
			if (strings.Contains(base, "_"+name+"_") || strings.HasSuffix(base, "_"+name+".jsonl")) && len(name) > len(best) {
				best = name
			}
		}
		if best != "" {
			return best, results[f][best], true
		}
	}
	return "", realTask{}, false
}

// realRows reads a samples file: JSONL, or (harness 0.4.0) one JSON array.
func realRows(t *testing.T, path string) []map[string]any {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '[' {
		var rows []map[string]any
		if err := json.Unmarshal(trimmed, &rows); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return rows
	}
	var rows []map[string]any
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var row map[string]any
		if err := json.Unmarshal(line, &row); err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
		rows = append(rows, row)
	}
	return rows
}

// TestRealSamplesReproduceFilteredResps re-applies each results file's
// filter_list to every samples row's resps and checks that the harness's
// logged filtered_resps come out.
func TestRealSamplesReproduceFilteredResps(t *testing.T) {
	root, err := filepath.Abs("../../../shared/data/lm_eval")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(root); err != nil {
		t.Skip("shared data not available:", err)
	}
	checked, unsupported := map[string]int{}, map[string]int{}
	err = filepath.WalkDir(root, func(dir string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		results := loadRealResults(t, dir)
		samples, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		for _, s := range samples {
			task, cfg, ok := taskFor(s, results)
			if !ok {
				t.Errorf("%s: no results file configures its task", s)
				continue
			}
			for n, row := range realRows(t, s) {
				filter, _ := row["filter"].(string)
				if filter == "" {
					filter = "none" // harness 0.4.0 logged no filter name
				}
				p, ok := Find(cfg.pipelines, filter)
				if !ok {
					t.Errorf("%s row %d: filter %q not in configs.%s.filter_list", s, n+1, filter, task)
					continue
				}
				doc, _ := row["doc"].(map[string]any)
				resps, _ := row["resps"].([]any)
				logged, _ := row["filtered_resps"].([]any)
				if len(resps) != len(logged) {
					t.Errorf("%s row %d: %d requests but %d filtered_resps", s, n+1, len(resps), len(logged))
					continue
				}
				compared := false
				for i, req := range resps {
					reps, _ := req.([]any)
					res, err := p.Run(Input{Resps: reps, Doc: doc})
					if errors.Is(err, ErrUnsupported) {
						// A task's own filter code (format_span) cannot be
						// re-run: check says so with a filter-unsupported
						// note, and there is nothing to compare.
						unsupported[filter]++
						continue
					}
					if err != nil {
						t.Errorf("%s row %d request %d (%s): %v", s, n+1, i, filter, err)
						continue
					}
					if !reflect.DeepEqual(res.Value, logged[i]) {
						t.Errorf("%s row %d request %d (%s): re-applied %#v, logged %#v", s, n+1, i, filter, res.Value, logged[i])
					}
					compared = true
				}
				if compared {
					checked[filter]++
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Every filter the data holds must have been exercised.
	for _, f := range []string{"strict-match", "flexible-extract", "custom-extract", "none"} {
		if checked[f] == 0 {
			t.Errorf("no %s rows were checked (checked %v)", f, checked)
		}
	}
	t.Logf("rows checked per filter: %v; requests of filters that run a task's own code, not re-applied: %v", checked, unsupported)
}
