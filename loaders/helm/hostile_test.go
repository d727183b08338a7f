package helm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostile: run folders whose files are cut, of other types, or
// missing open with issues that say so, and never panic.
func TestHostile(t *testing.T) {
	spec := `{"name": "x:model=m", "scenario_spec": {"class_name": "a.B", "args": {}}, "adapter_spec": {"model": "m", "num_train_trials": 1}, "metric_specs": [], "groups": ["x"]}`
	for name, files := range map[string]map[string]string{
		"types": {runSpecJSON: spec, statsJSON: `{"a": 1}`, perInstanceStatsJSON: `[1, "a", {"stats": 5}]`,
			scenarioStateJSON: `{"request_states": [{"instance": 5}]}`},
		"cut_state": {runSpecJSON: spec, statsJSON: `[]`, scenarioStateJSON: `{"adapter_spec": {}, "request_states": [{"instance": {"id": "i1", "input": {"text": "q"}, "references": [], "split": "test"}, "train_trial_index": 0, "request": {"prompt": "q"}}, {"inst`},
		"no_states": {runSpecJSON: spec, statsJSON: `[]`, scenarioStateJSON: `{"adapter_spec": {}}`},
		"trial_out_of_range": {runSpecJSON: spec, statsJSON: `[]`,
			perInstanceStatsJSON: `[{"instance_id": "i1", "train_trial_index": 99999999, "stats": [{"name": {"name": "exact_match", "split": "test"}, "count": 1, "sum": 1, "sum_squared": 1, "min": 1, "max": 1, "mean": 1}]}]`},
		"bad_spec": {runSpecJSON: `[`, statsJSON: `[]`},
	} {
		dir := filepath.Join(t.TempDir(), name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f, body := range files {
			if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		dss, err := Open(dir)
		if err == nil && len(dss) == 0 {
			t.Errorf("%s: no dataset and no error", name)
		}
		for _, ds := range dss {
			for i := 0; i < ds.Records.Len(); i++ {
				if _, err := ds.Records.Record(i); err != nil {
					t.Errorf("%s: record %d: %v", name, i, err)
				}
			}
		}
	}
}

// TestLimits: a run file past maxRunFile, or a schema.json past
// maxSchema, is refused unread with its size and the limit; the run
// opens with what else it has, and says so. A schema.json that is not
// JSON is said too: the main metric is then stats.json's first, not the
// schema's.
func TestLimits(t *testing.T) {
	defer func(r, s int64) { maxRunFile, maxSchema = r, s }(maxRunFile, maxSchema)
	maxRunFile, maxSchema = 3000, 3000
	suite := filepath.Join(t.TempDir(), "v1")
	run := filepath.Join(suite, "r")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range runFiles {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "helm", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(run, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(suite, "schema.json"), []byte(`{"run_groups": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	dss, err := Open(run)
	if err != nil || len(dss) != 1 {
		t.Fatalf("%d datasets, %v", len(dss), err)
	}
	var got []string
	for _, is := range dss[0].Issues {
		got = append(got, is.Code+" "+is.String())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		"read-error " + filepath.Join(run, "stats.json") + ": error: the file is 3283 bytes; evalview reads it whole, and only up to 3000 bytes",
		"bad-json " + filepath.Join(suite, "schema.json") + ": warning: not the JSON helm-summarize writes: unexpected end of JSON input; the main metric is chosen from stats.json",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in\n%s", want, all)
		}
	}
	if dss[0].Records.Len() == 0 {
		t.Error("the run's records: none")
	}
}
