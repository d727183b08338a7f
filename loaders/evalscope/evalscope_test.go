package evalscope_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders"
	"evalview/loaders/evalscope"
	"evalview/model"
)

const current = "testdata/outputs/20250810_143000"

// TestSniff: the writer's own lines and reports are claimed, others' are
// not (a Sample JSONL line, an lm-eval results file).
func TestSniff(t *testing.T) {
	for _, c := range []struct {
		head string
		want int
	}{
		{`{"index": 0, "model": "m", "model_output": {"choices": []}, "messages": []}` + "\n", 2},
		{`{"index": 0, "input": "q", "target": "A", "sample_score": {"score": {"value": {"acc": 1.0}}}}` + "\n", 2},
		{`{"choices": [{"index": 0, "message": {"content": "B"}}], "answer_id": "answer-1", "raw_input": {}, "index": 0}` + "\n", 2},
		{"{\n    \"name\": \"m@gsm8k\",\n    \"dataset_name\": \"gsm8k\",\n    \"model_name\": \"m\",\n    \"metrics\": []\n}", 2},
		{`{"id": "1", "messages": [{"role": "user", "content": "hi"}], "predict_result": [], "eval_result": {}}` + "\n", 0},
		{`{"results": {"gsm8k": {"acc": 0.5}}, "config": {}}`, 0},
		{`{"index": 3, "text": "just an index"}` + "\n", 0},
	} {
		if got := evalscope.SniffFile("x.jsonl", []byte(c.head)); got != c.want {
			t.Errorf("SniffFile(%.50s) = %d, want %d", c.head, got, c.want)
		}
	}
}

// TestDetect: every artifact of the three layouts opens as EvalScope.
func TestDetect(t *testing.T) {
	for _, p := range []string{
		"testdata/outputs", current, filepath.Join(current, "reviews"),
		filepath.Join(current, "predictions/qwen2.5-7b-instruct/gsm8k_main.jsonl"),
		filepath.Join(current, "reviews/qwen2.5-7b-instruct/mmlu_college_physics.jsonl"),
		filepath.Join(current, "reports/qwen2.5-7b-instruct/mmlu.json"),
		"testdata/outputs/20250301_090000/reviews/Qwen2.5-0.5B-Instruct/gsm8k_main.jsonl",
		"testdata/outputs/20241205_160000/predictions/qwen2-7b-instruct/arc_ARC-Easy.jsonl",
	} {
		k, _, err := loaders.Detect(p, "")
		if err != nil || k != model.KindEvalScope {
			t.Errorf("%s: detected %q, %v", p, k, err)
		}
	}
}

func open(t *testing.T, p string) []*model.Dataset {
	t.Helper()
	dss, err := evalscope.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	return dss
}

// TestNumbers: the reports' scores, per subset and overall, equal those
// recomputed from the reviews in all three layouts (the 0.x one weighs
// unrounded subset means, the later ones rounded ones).
func TestNumbers(t *testing.T) {
	n := 0
	for _, ds := range open(t, "testdata/outputs") {
		for _, c := range model.RecomputeMetrics(ds) {
			if !c.HasSamples || !c.HasReport {
				t.Errorf("%s %s: not recomputed (%s)", ds.Title, c.Name, c.Note)
				continue
			}
			if c.Differs() {
				t.Errorf("%s %s: recomputed %v, reported %v", ds.Title, c.Name, c.Samples, c.Reported)
			}
			n++
		}
	}
	if n != 9 {
		t.Errorf("%d metrics recomputed, want 9", n)
	}
}

// TestRecords: the model's answer is the attempt, the target the
// reference (not the other way round, as a Sample reading had it).
func TestRecords(t *testing.T) {
	for _, ds := range open(t, current) {
		if ds.Task != "gsm8k" || model.OriginOf(ds).Model != "qwen2.5-7b-instruct" {
			continue
		}
		r, err := ds.Records.Record(2)
		if err != nil {
			t.Fatal(err)
		}
		if r.Target != "70000" || !strings.Contains(r.Attempts[0].Text, "-10000") || r.Status != model.StatusFail {
			t.Errorf("record 2: target %q, attempt %q, %s", r.Target, r.Attempts[0].Text, r.Status)
		}
		if len(r.Messages) != 1 || r.Messages[0].Role != model.RoleUser {
			t.Errorf("the prompt without the model's answer: %+v", r.Messages)
		}
		return
	}
	t.Fatal("no gsm8k of qwen2.5-7b-instruct")
}

// TestDiffers: a review re-scored after the report is flagged beside the
// report's score.
func TestDiffers(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"predictions", "reviews", "reports"} {
		os.MkdirAll(filepath.Join(dir, sub, "qwen2.5-7b-instruct"), 0o755)
	}
	for _, f := range []string{"predictions/qwen2.5-7b-instruct/gsm8k_main.jsonl", "reviews/qwen2.5-7b-instruct/gsm8k_main.jsonl", "reports/qwen2.5-7b-instruct/gsm8k.json"} {
		data, _ := os.ReadFile(filepath.Join(current, f))
		if strings.HasPrefix(f, "reviews") {
			data = []byte(strings.Replace(string(data), `"acc": 0.0`, `"acc": 1.0`, 1))
		}
		os.WriteFile(filepath.Join(dir, f), data, 0o644)
	}
	dss := open(t, dir)
	if len(dss) != 1 {
		t.Fatalf("%d datasets", len(dss))
	}
	found := false
	for _, is := range dss[0].Issues {
		found = found || is.Code == "metric-differs"
	}
	if !found {
		t.Errorf("issues %v", dss[0].Issues)
	}
}

// TestOrigin: model, dataset and run as the overview lines them up.
func TestOrigin(t *testing.T) {
	var got []string
	for _, ds := range open(t, "testdata/outputs") {
		o := model.OriginOf(ds)
		got = append(got, o.Model+" "+o.Task+" "+model.RunTime(o.Run))
	}
	want := "qwen2-7b-instruct arc 2024-12-05 16:00|Qwen2.5-0.5B-Instruct gsm8k 2025-03-01 09:00|llama-3.1-8b-instruct gsm8k 2025-08-10 14:30|qwen2.5-7b-instruct gsm8k 2025-08-10 14:30|qwen2.5-7b-instruct mmlu 2025-08-10 14:30"
	if strings.Join(got, "|") != want {
		t.Errorf("origins\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
}
