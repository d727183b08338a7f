package lmeval

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"evalview/model"
)

// TestOrigin: every samples file says its task, model and run, whatever
// the folder holds: the model the results file names, else its folder's
// name as the harness sanitized it ("other__big-70b"), said in a note;
// the groups its task sits under, from group_subtasks.
func TestOrigin(t *testing.T) {
	dss, err := Open("../../testdata/lmeval/overview")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]model.Origin{}
	for _, ds := range dss {
		got[ds.Origin.Model+" "+ds.Origin.Task] = ds.Origin
	}
	b := got["org/base-7b mmlu_b"]
	if b.Run != "2025-06-01T10-00-00.000001" || !reflect.DeepEqual(b.Groups, []string{"mmlu"}) || b.Note != "" {
		t.Errorf("base mmlu_b %+v", b)
	}
	if g := got["org/tuned-7b gsm8k"]; g.Groups != nil || g.Run != "2025-06-02T10-00-00.000001" {
		t.Errorf("tuned gsm8k %+v", g)
	}
	big, ok := got["other/big-70b mmlu_a"]
	if !ok || !strings.Contains(big.Note, "other__big-70b") || big.Groups != nil {
		t.Errorf("big mmlu_a %+v (origins %v)", big, got)
	}
}

// TestResultsOnlyTasks: a results file alone reports its tasks and
// groups, each with the groups above it (nested: mmlu > mmlu_stem >
// mmlu_anatomy), for the overview.
func TestResultsOnlyTasks(t *testing.T) {
	dss, err := Open("../../testdata/lmeval/groups")
	if err != nil || len(dss) != 1 {
		t.Fatalf("%d datasets, %v", len(dss), err)
	}
	ds := dss[0]
	if ds.Origin.Model != "acme/tiny-1b" || ds.Origin.Run != "2025-06-06T06-06-06.000006" || ds.Origin.Task != "" {
		t.Errorf("origin %+v", ds.Origin)
	}
	by := map[string]model.TaskReport{}
	for _, r := range ds.Tasks {
		by[r.Task] = r
		if rec := ds.Records.Summary(r.Record); rec.ID != r.Task {
			t.Errorf("task %s names record %d, which is %s", r.Task, r.Record, rec.ID)
		}
	}
	if a := by["mmlu_anatomy"]; !reflect.DeepEqual(a.Groups, []string{"mmlu", "mmlu_stem"}) || a.Group || len(a.Metrics) == 0 {
		t.Errorf("mmlu_anatomy %+v", a)
	}
	if g := by["mmlu_stem"]; !g.Group || !reflect.DeepEqual(g.Groups, []string{"mmlu"}) {
		t.Errorf("mmlu_stem %+v", g)
	}
	if len(ds.Tasks) != ds.Records.Len() {
		t.Errorf("%d tasks for %d records", len(ds.Tasks), ds.Records.Len())
	}
}

// TestOriginConfig: a results file's settings that tell configurations
// of its model apart (model_args besides the model and the settings of
// how it ran, num_fewshot set for the run, a task's own n-shot), from
// real sweeps (testdata/lmeval/sweeps/SOURCES.md).
func TestOriginConfig(t *testing.T) {
	open := func(path string) *model.Dataset {
		t.Helper()
		dss, err := Open(path)
		if err != nil || len(dss) != 1 {
			t.Fatalf("%s: %d datasets, %v", path, len(dss), err)
		}
		return dss[0]
	}
	cases := []struct {
		path, model, run string
		config, task     []model.Fact
	}{
		// model_args "use_accelerate=True,pretrained=...,revision=step1000";
		// no time anywhere in the file.
		{"../../testdata/lmeval/sweeps/pythia-160m/zero-shot/160m_step1000.json", "EleutherAI/pythia-v1.1-160m", "",
			[]model.Fact{{Key: "revision", Value: "step1000"}, {Key: "num_fewshot", Value: "0"}}, nil},
		// trust_remote_code and gpu_memory_utilization say how vllm ran.
		{"../../testdata/lmeval/sweeps/gemma-2b-fewshot/afrisenti_sw_5_5shot_2026-01-15T14-26-37.660309.json", "google/gemma-2b", "2026-01-15T14-26-37.660309",
			[]model.Fact{{Key: "dtype", Value: "bfloat16"}, {Key: "max_model_len", Value: "2048"}}, []model.Fact{{Key: "num_fewshot", Value: "5"}}},
		// add_bos_token=TRUE is True to the harness.
		{"../../testdata/lmeval/sweeps/rwkv7-reruns/fla-hub__rwkv7-1.5B-world/results_2025-02-24T20-14-18.192690.json", "fla-hub/rwkv7-1.5B-world", "2025-02-24T20-14-18.192690",
			[]model.Fact{{Key: "add_bos_token", Value: "True"}}, []model.Fact{{Key: "num_fewshot", Value: "0"}}},
		{"../../testdata/lmeval/sweeps/steering/meta-llama__Llama-3.2-1B-Instruct/results_2026-03-02T11-22-54.000004.json", "meta-llama/Llama-3.2-1B-Instruct", "2026-03-02T11-22-54.000004",
			[]model.Fact{{Key: "dtype", Value: "bfloat16"}, {Key: "steer_path", Value: "/home/u/steer/refusal_layer12_alpha2.0.pt"}}, []model.Fact{{Key: "num_fewshot", Value: "0"}}},
	}
	for _, c := range cases {
		ds := open(c.path)
		o := ds.Origin
		if o.Model != c.model || o.Run != c.run || !reflect.DeepEqual(o.Config, c.config) {
			t.Errorf("%s: model %q run %q config %v", c.path, o.Model, o.Run, o.Config)
		}
		if len(ds.Tasks) == 0 || !reflect.DeepEqual(ds.Tasks[0].Config, c.task) {
			t.Errorf("%s: task settings %+v", c.path, ds.Tasks)
		}
	}
	// A results file renamed without its stamp keeps its run's start
	// from "date" (UTC).
	b, err := os.ReadFile("../../testdata/lmeval/sweeps/steering/meta-llama__Llama-3.2-1B-Instruct/results_2026-03-02T11-22-54.000004.json")
	if err != nil {
		t.Fatal(err)
	}
	renamed := filepath.Join(t.TempDir(), "alpha2.json")
	if err := os.WriteFile(renamed, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if o := open(renamed).Origin; o.Run != "2026-03-02T11:22:54Z" || model.RunTime(o.Run) != "2026-03-02 11:22 UTC" {
		t.Errorf("renamed: run %q", o.Run)
	}
}

// TestRunConfigChatTemplate: the chat template and the system
// instruction are settings by their hashes; fewshot_as_multiturn when
// set; gen_kwargs one setting each, whether a string or an object.
func TestRunConfigChatTemplate(t *testing.T) {
	tmpl, sys, yes := "{{ messages }}", "Be brief.", true
	raw := rawResults{
		Config:         []byte(`{"model":"hf","model_args":{"pretrained":"org/m","peft":"../adapters/x","batch_size":8},"gen_kwargs":"temperature=0.7,do_sample=true","limit":100}`),
		ChatTemplate:   &tmpl,
		SystemInstruct: &sys, SystemInstructSHA: "abc123", FewshotAsMultiturn: &yes,
	}
	got := runConfig(raw, "../adapters/x")
	want := []model.Fact{{Key: "pretrained", Value: "org/m"}, {Key: "gen_kwargs.temperature", Value: "0.7"}, {Key: "gen_kwargs.do_sample", Value: "true"},
		{Key: "limit", Value: "100"}, {Key: "chat_template", Value: hashOr("", tmpl)}, {Key: "system_instruction", Value: "abc123"},
		{Key: "fewshot_as_multiturn", Value: "true"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("config\n got %v\nwant %v", got, want)
	}
}
