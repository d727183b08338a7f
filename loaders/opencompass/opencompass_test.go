package opencompass_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders"
	"evalview/loaders/opencompass"
	"evalview/model"
)

const work = "testdata/outputs/default/20250301_101500"

// TestSniff: the writer's own shapes are claimed, others' files are not.
func TestSniff(t *testing.T) {
	for _, c := range []struct {
		name, head string
		want       int
	}{
		{"gsm8k.json", "{\n    \"0\": {\n        \"origin_prompt\": [\n            {\n                \"role\": \"HUMAN\"", 2},
		{"ceval.json", "{\n    \"0\": {\n        \"in-context examples\": \"\",\n        \"label: A\": {", 2},
		{"tmp_gsm8k.jsonl", `{"idx": 0, "origin_prompt": "Q", "prediction": "A"}` + "\n", 2},
		{"summary_20250301_101500.csv", "dataset,version,metric,mode,qwen\ngsm8k,1d7fe4,accuracy,gen,66.67\n", 2},
		{"summary_20250301_101500.md", "| dataset | version | metric | mode | qwen |\n|-----|", 2},
		// Others' files.
		{"results_2025.json", `{"results": {"gsm8k": {"exact_match,none": 0.5}}}`, 0},
		{"samples.jsonl", `{"doc_id": 0, "doc": {}, "target": "1"}` + "\n", 0},
		{"x.json", `{"0": {"text": "no prompt here"}}`, 0},
		{"notes.md", "| dataset | version | metric | mode |", 0},
	} {
		if got := opencompass.SniffFile(c.name, []byte(c.head)); got != c.want {
			t.Errorf("SniffFile(%s) = %d, want %d", c.name, got, c.want)
		}
	}
	res := filepath.Join(work, "results", "m", "gsm8k.json")
	if got := opencompass.SniffPath(res, []byte(`{"accuracy": 50.0, "details": []}`)); got != 2 {
		t.Errorf("a results file in its place: %d", got)
	}
	if got := opencompass.SniffPath("elsewhere/gsm8k.json", []byte(`{"accuracy": 50.0}`)); got != 0 {
		t.Errorf("a JSON of numbers away from results/: %d", got)
	}
}

// TestDetect: the registry opens every artifact of a work folder, and the
// folder of runs, as OpenCompass.
func TestDetect(t *testing.T) {
	for _, p := range []string{
		work, filepath.Dir(work), filepath.Join(work, "predictions"),
		filepath.Join(work, "predictions/qwen2.5-1.5b-instruct-hf/gsm8k.json"),
		filepath.Join(work, "predictions/qwen2.5-1.5b-instruct-hf/math_1.json"),
		filepath.Join(work, "predictions/internlm2_5-1_8b-chat-hf/tmp_triviaqa.jsonl"),
		filepath.Join(work, "results/qwen2.5-1.5b-instruct-hf/gsm8k.json"),
		filepath.Join(work, "results/qwen2.5-1.5b-instruct-hf_judged-by--gpt-4o-2024-08-06/alignment_bench.json"),
		filepath.Join(work, "summary/summary_20250301_101500.csv"),
	} {
		k, _, err := loaders.Detect(p, "")
		if err != nil || k != model.KindOpenCompass {
			t.Errorf("%s: detected %q, %v", p, k, err)
		}
	}
}

func open(t *testing.T, p string) []*model.Dataset {
	t.Helper()
	dss, err := opencompass.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	return dss
}

func find(dss []*model.Dataset, mdl, task string) *model.Dataset {
	for _, ds := range dss {
		if o := model.OriginOf(ds); o.Model == mdl && o.Task == task {
			return ds
		}
	}
	return nil
}

// TestNumbers: every metric recomputed from the details equals the
// results file's, and nothing is flagged.
func TestNumbers(t *testing.T) {
	dss := open(t, work)
	n := 0
	for _, ds := range dss {
		for _, c := range model.RecomputeMetrics(ds) {
			if c.Differs() {
				t.Errorf("%s %s: recomputed %v, reported %v", ds.Title, c.Name, c.Samples, c.Reported)
			}
			if c.HasSamples && c.HasReport {
				n++
			}
		}
		for _, is := range ds.Issues {
			if is.Code == "metric-differs" || is.Code == "summary-differs" {
				t.Errorf("%s: %v", ds.Title, is)
			}
		}
	}
	if n != 7 { // accuracy of gsm8k, ceval, math, simpleqa; simpleqa's three counts
		t.Errorf("%d metrics recomputed, want 7", n)
	}
	q := find(dss, "qwen2.5-1.5b-instruct-hf", "gsm8k")
	if q == nil || q.Records.Len() != 3 {
		t.Fatalf("qwen gsm8k: %v", q)
	}
	if s := q.Records.Summary(1); s.Status != model.StatusFail || s.Score != 0 || !s.HasScore {
		t.Errorf("gsm8k record 1: %+v", s)
	}
	m := find(dss, "qwen2.5-1.5b-instruct-hf", "math")
	if m == nil || m.Records.Len() != 3 {
		t.Fatalf("math, read from its two splits: %v", m)
	}
	if r, _ := m.Records.Record(2); r.Attempts[0].Text != `$\boxed{4}$` || r.Target != "4" {
		t.Errorf("math record 2, the second split's first: %+v", r)
	}
}

// TestDiffers: a results file whose accuracy the details do not give is
// flagged beside it, and the summary's value that disagrees too.
func TestDiffers(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, work, dir)
	p := filepath.Join(dir, "results/qwen2.5-1.5b-instruct-hf/gsm8k.json")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(data), "66.66666666666667", "70.0", 1)), 0o644)
	ds := find(open(t, dir), "qwen2.5-1.5b-instruct-hf", "gsm8k")
	codes := map[string]bool{}
	for _, is := range ds.Issues {
		codes[is.Code] = true
	}
	if !codes["metric-differs"] || !codes["summary-differs"] {
		t.Errorf("issues %v", ds.Issues)
	}
}

// TestOrigin: model, task and run as the overview lines them up; a
// judged dataset is a configuration of its own, by its judge.
func TestOrigin(t *testing.T) {
	dss := open(t, filepath.Dir(work)) // two runs
	var runs []string
	for _, ds := range dss {
		o := model.OriginOf(ds)
		if o.Model == "qwen2.5-1.5b-instruct-hf" && o.Task == "gsm8k" {
			runs = append(runs, model.RunTime(o.Run))
		}
	}
	if strings.Join(runs, ",") != "2025-03-01 10:15,2025-03-02 09:00" {
		t.Errorf("runs %v", runs)
	}
	j := find(dss, "qwen2.5-1.5b-instruct-hf", "alignment_bench")
	if j == nil || len(j.Origin.Config) != 1 || j.Origin.Config[0].Value != "gpt-4o-2024-08-06" {
		t.Fatalf("judged: %+v", j)
	}
	if r, _ := j.Records.Record(0); !strings.Contains(r.Attempts[0].Judge, "[[7]]") || r.Attempts[0].Text == "" {
		t.Errorf("judged record: %+v", r.Attempts)
	}
}

// TestBroken: a predictions file that is not JSON is an error beside
// the dataset, not a crash, and the other datasets open.
func TestBroken(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, work, dir)
	os.WriteFile(filepath.Join(dir, "predictions/qwen2.5-1.5b-instruct-hf/gsm8k.json"), []byte(`{"0": {"origin_prompt": "x", `), 0o644)
	dss := open(t, dir)
	ds := find(dss, "qwen2.5-1.5b-instruct-hf", "gsm8k")
	if ds == nil || len(dss) != 8 {
		t.Fatalf("%d datasets", len(dss))
	}
	found := false
	for _, is := range ds.Issues {
		found = found || is.Code == "bad-json" && is.Severity == model.SeverityError
	}
	if !found {
		t.Errorf("issues %v", ds.Issues)
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}
