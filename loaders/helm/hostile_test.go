package helm

import (
	"os"
	"path/filepath"
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
