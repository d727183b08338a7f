package inspect

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"evalview/model"
)

// TestOriginRun: a log's run is its creation time, which the overview
// and the picker show and tell two runs of one task apart by.
func TestOriginRun(t *testing.T) {
	dss, err := Open(filepath.Join(fixtureDir, "capitals.json"))
	if err != nil || len(dss) != 1 {
		t.Fatalf("%d datasets, %v", len(dss), err)
	}
	if o := model.OriginOf(dss[0]); o.Run != "2025-07-05T09:59:00+00:00" || model.RunTime(o.Run) != "2025-07-05 09:59 UTC" || o.Model != "openai/gpt-4o-mini" {
		t.Errorf("origin %+v", o)
	}
}

// TestOriginConfig: a log's settings that tell configurations of its
// model apart (EvalSpec's model_args, model_generate_config, task_args,
// solver_args; EvalConfig's limit and epochs), those that change only
// how the run reached the model left out.
func TestOriginConfig(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(fixtureDir, "capitals.json"))
	if err != nil {
		t.Fatal(err)
	}
	var log map[string]any
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	ev := log["eval"].(map[string]any)
	ev["model_args"] = map[string]any{}
	ev["model_generate_config"] = map[string]any{"max_connections": 20, "temperature": 0.7, "max_tokens": 512, "timeout": 60}
	ev["task_args"] = map[string]any{"cot": true, "grader_model": "openai/gpt-4o"}
	ev["config"] = map[string]any{"epochs": 3, "limit": 50}
	b, _ = json.Marshal(log)
	path := filepath.Join(t.TempDir(), "capitals.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	dss, err := Open(path)
	if err != nil || len(dss) != 1 {
		t.Fatalf("%d datasets, %v", len(dss), err)
	}
	// encoding/json writes an object's keys sorted: the order here.
	want := []model.Fact{{Key: "generate.max_tokens", Value: "512"}, {Key: "generate.temperature", Value: "0.7"},
		{Key: "task_args.cot", Value: "true"}, {Key: "task_args.grader_model", Value: "openai/gpt-4o"},
		{Key: "limit", Value: "50"}, {Key: "epochs", Value: "3"}}
	if got := dss[0].Origin.Config; !reflect.DeepEqual(got, want) {
		t.Errorf("config\n got %v\nwant %v", got, want)
	}
}

// TestScoresPassOrFailNothing: a scorer whose values are numbers other
// than 0 and 1 (a winrate of 0.002 to 0.17) gives scores, not verdicts:
// no sample passes or fails under it, where every one failed (below 1).
// C and I, and a scorer of 0 and 1, still pass and fail.
func TestScoresPassOrFailNothing(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(fixtureDir, "capitals.json"))
	if err != nil {
		t.Fatal(err)
	}
	open := func(values ...any) []model.Status {
		t.Helper()
		var log map[string]any
		if err := json.Unmarshal(b, &log); err != nil {
			t.Fatal(err)
		}
		samples := log["samples"].([]any)
		for i, s := range samples {
			sc := s.(map[string]any)["scores"].(map[string]any)["match"].(map[string]any)
			sc["value"] = values[i]
		}
		delete(log, "reductions")
		out, _ := json.Marshal(log)
		path := filepath.Join(t.TempDir(), "capitals.json")
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		dss, err := Open(path)
		if err != nil || len(dss) != 1 {
			t.Fatalf("%d datasets, %v", len(dss), err)
		}
		ds := dss[0]
		for deadline := time.Now().Add(10 * time.Second); !ds.Records.Done(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("index not complete")
			}
		}
		var sts []model.Status
		for i := 0; i < ds.Records.Len(); i++ {
			s := ds.Records.Summary(i)
			sts = append(sts, s.Status)
			rec, err := ds.Records.Record(i)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Status != s.Status || rec.Attempts[0].Status != s.Status {
				t.Errorf("sample %d: record %v, epoch %v, list %v", i, rec.Status, rec.Attempts[0].Status, s.Status)
			}
		}
		return sts
	}
	u, p, f := model.StatusUnscored, model.StatusPass, model.StatusFail
	for _, c := range []struct {
		values []any
		want   []model.Status
	}{
		{[]any{0.17, 0.002}, []model.Status{u, u}},
		{[]any{1, 0.37}, []model.Status{u, u}}, // the first sample listed before the score was seen
		{[]any{"C", "I"}, []model.Status{p, f}},
		{[]any{1, 0}, []model.Status{p, f}},
		{[]any{true, "0.5"}, []model.Status{u, u}},
	} {
		if got := open(c.values...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("values %v: statuses %v, want %v", c.values, got, c.want)
		}
	}
}

// TestOpenFolderOfDatedFolders: a log folder whose logs sit in dated
// subfolders opens every log, not only its own files' (issue 29).
func TestOpenFolderOfDatedFolders(t *testing.T) {
	root := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "inspect", "capitals.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"2025-06-10/a.json", "2025-06-11/b.json", "top.json", ".git/c.json"} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dss, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ds := range dss {
		r, _ := filepath.Rel(root, ds.Path)
		got = append(got, filepath.ToSlash(r))
	}
	if want := "2025-06-10/a.json 2025-06-11/b.json top.json"; strings.Join(got, " ") != want {
		t.Errorf("opened %q, want %s", got, want)
	}
}
