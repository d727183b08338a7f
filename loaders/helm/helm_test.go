package helm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders/internal/folder"
	"evalview/model"
)

const mmluGPT2 = "mmlu:subject=anatomy,method=multiple_choice_joint,model=openai_gpt2"

// TestSniff: the run files score on their own keys, other JSON does not;
// run, suite and output folders score by their entries.
func TestSniff(t *testing.T) {
	root := fixtures(t)
	suiteDir := suiteOf(root)
	run := filepath.Join(suiteDir, mmluGPT2)
	for _, f := range []string{runSpecJSON, scenarioStateJSON, statsJSON, perInstanceStatsJSON, predictionsJSON, requestsJSON} {
		head, err := folder.ReadHead(filepath.Join(run, f))
		if err != nil {
			t.Fatal(err)
		}
		if got := SniffFile(f, head); got != 3 {
			t.Errorf("SniffFile(%s) = %d, want 3", f, got)
		}
		if got := SniffFile("results.json", head); got != 0 {
			t.Errorf("SniffFile(results.json with %s's content) = %d, want 0", f, got)
		}
	}
	for _, c := range []struct{ name, head string }{
		{statsJSON, `{"results": {"gsm8k": {"acc": 1}}}`},
		{statsJSON, `[{"name": "x", "value": 1}]`},
		{runSpecJSON, `{"name": "x"}`},
		{perInstanceStatsJSON, ``},
	} {
		if got := SniffFile(c.name, []byte(c.head)); got != 0 {
			t.Errorf("SniffFile(%s, %q) = %d, want 0", c.name, c.head, got)
		}
	}
	for _, c := range []struct {
		dir  string
		want int
	}{
		{run, 3},
		{suiteDir, 3},
		{filepath.Join(root, "benchmark_output"), 2},
		{root, 0},
	} {
		names, err := folder.Names(c.dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := SniffDir(c.dir, names); got != c.want {
			t.Errorf("SniffDir(%s) = %d, want %d", c.dir, got, c.want)
		}
	}
	if SniffDir("x", []string{"results_2025.json", "samples_gsm8k.jsonl"}) != 0 {
		t.Error("an lm-eval folder taken for HELM")
	}
}

// TestOpenLayouts: a run folder, one of its files, the suite and the
// output folder open the same runs.
func TestOpenLayouts(t *testing.T) {
	root := fixtures(t)
	suiteDir := suiteOf(root)
	for _, c := range []struct {
		path string
		n    int
	}{
		{filepath.Join(suiteDir, mmluGPT2), 1},
		{filepath.Join(suiteDir, mmluGPT2, statsJSON), 1},
		{suiteDir, 4},
		{filepath.Join(root, "benchmark_output"), 4},
	} {
		dss, err := Open(c.path)
		if err != nil || len(dss) != c.n {
			t.Errorf("Open(%s): %d datasets, %v; want %d", c.path, len(dss), err, c.n)
		}
	}
	if _, err := Open(root); err == nil || !strings.Contains(err.Error(), "no HELM run folder") {
		t.Errorf("Open(testdata) = %v, want no HELM run folder", err)
	}
}

// TestOrigin: the task drops the model from the run's name, the model is
// the adapter's, the run is the suite, and a deployment other than the
// model is the configuration.
func TestOrigin(t *testing.T) {
	dss, err := Open(suiteOf(fixtures(t)))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]model.Origin{}
	for _, ds := range dss {
		got[filepath.Base(ds.Path)] = model.OriginOf(ds)
	}
	o := got[mmluGPT2]
	if o.Task != "mmlu:subject=anatomy,method=multiple_choice_joint" || o.Model != "openai/gpt2" || o.Run != "v1" || len(o.Config) != 0 ||
		strings.Join(o.Groups, ",") != "mmlu" {
		t.Errorf("gpt2: %+v", o)
	}
	l := got["mmlu:subject=anatomy,method=multiple_choice_joint,model=meta_llama-3-8b"]
	if l.Task != o.Task || l.Model != "meta/llama-3-8b" || len(l.Config) != 1 || l.Config[0].Value != "together/llama-3-8b" {
		t.Errorf("llama: %+v", l)
	}
	if h := got["harm_bench:model=openai_gpt2"]; h.Task != "harm_bench" || len(h.Groups) != 0 {
		t.Errorf("harm_bench: %+v", h)
	}
}

// TestRecomputed: every stat of the fixture suite that per-instance stats
// can give is recomputed and equals stats.json (written by an
// independent transcription of HELM's aggregation); the derived ones
// are there (worst case, original, perplexity, num_instances).
func TestRecomputed(t *testing.T) {
	dss, err := Open(suiteOf(fixtures(t)))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, ds := range dss {
		for _, is := range ds.Issues {
			if is.Code == "metric-differs" {
				t.Errorf("%s: %s", ds.Path, is)
			}
		}
		cs := model.RecomputeMetrics(ds)
		n := 0
		for _, c := range cs {
			if !c.HasReport {
				continue
			}
			if !c.HasSamples {
				t.Errorf("%s: %s/%s not recomputed", filepath.Base(ds.Path), c.Filter, c.Name)
				continue
			}
			if c.Differs() {
				t.Errorf("%s: %s/%s differs: %v vs %v", filepath.Base(ds.Path), c.Filter, c.Name, c.Samples, c.Reported)
			}
			seen[c.Filter+"/"+c.Name] = true
			n++
		}
		if n == 0 {
			t.Errorf("%s: nothing recomputed", ds.Path)
		}
	}
	for _, k := range []string{"valid · robustness (worst)/exact_match", "valid · typos (original)/exact_match",
		"valid · typos (worst)/quasi_exact_match", "test/perplexity", "test/bits_per_byte", "test/num_instances", "valid · typos/num_instances"} {
		if !seen[k] {
			t.Errorf("%s was not recomputed", k)
		}
	}
}

// TestBroken: a stats.json that disagrees is a metric-differs warning, a
// cut per_instance_stats.json a bad-json error; the records still show.
func TestBroken(t *testing.T) {
	root := fixtures(t)
	for _, c := range []struct{ dir, code string }{
		{"differs", "metric-differs"},
		{"cut", "bad-json"},
	} {
		dss, err := Open(filepath.Join(root, "broken", c.dir))
		if err != nil || len(dss) != 1 {
			t.Fatalf("%s: %d datasets, %v", c.dir, len(dss), err)
		}
		ds := dss[0]
		found := false
		for _, is := range ds.Issues {
			found = found || is.Code == c.code
		}
		if !found {
			t.Errorf("%s: no %s issue in %v", c.dir, c.code, ds.Issues)
		}
		if ds.Records.Len() != 2 {
			t.Errorf("%s: %d records, want 2", c.dir, ds.Records.Len())
		}
		r, err := ds.Records.Record(0)
		if err != nil || len(r.Issues) != 1 || r.Issues[0].Code != "no-result" || r.Issues[0].Line == 0 {
			t.Errorf("%s: the first record's issues: %v (%v)", c.dir, r.Issues, err)
		}
	}
}

// TestReal opens HELM's own output committed to its repository (suites v3
// and v4 of the safety scenarios, bbq on eleven models), when
// ../shared/data/helm holds them: every stat recomputed equals stats.json.
func TestReal(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "data", "helm")
	if _, err := os.Stat(root); err != nil {
		t.Skip("no ../shared/data/helm")
	}
	var runs []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == runSpecJSON {
			runs = append(runs, filepath.Dir(p))
		}
		return nil
	})
	dss, err := openRuns(runs)
	if err != nil || len(dss) == 0 {
		t.Fatalf("%d runs: %v", len(dss), err)
	}
	for _, ds := range dss {
		for _, is := range ds.Issues {
			if is.Code == "metric-differs" {
				t.Errorf("%s", is)
			}
		}
	}
}
