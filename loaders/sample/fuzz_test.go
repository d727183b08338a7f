package sample

import (
	"os"
	"path/filepath"
	"testing"

	"evalview/model"
)

// FuzzOpen feeds arbitrary bytes to the loader: it must never panic,
// every record it indexes must load again, and the counts in summaries
// must match the issues records carry.
func FuzzOpen(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(fixtures, "*.jsonl"))
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"messages":[{"role":"tool","content":[{"type":"image_url","image_url":"/"}]}],"options":[1,{"id":null}],"label":3}`))
	f.Add([]byte(`{"messages":{"role":"user"},"predict_result":{"error":true},"eval_result":{"overall":[],"metrics":[1],"judge":7}}`))
	f.Add([]byte(`"{\"messages\":\"x\",\"few_shot_examples\":[{\"few_shot_examples\":1,\"options\":\"no\"}]}"`))
	f.Add([]byte(`{"messages":[],"golden_trajectories":[{"messages":3},[1]],"unconditioned_input":[1,{}],"tools":{"a":1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "fuzz.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ds, err := Open(path)
		if err != nil {
			t.Fatalf("Open of a readable file failed: %v", err)
		}
		for _, d := range ds {
			for i := 0; i < d.Records.Len(); i++ {
				r, err := d.Records.Record(i)
				if err != nil {
					t.Fatalf("record %d of an indexed file fails to load: %v", i, err)
				}
				e, w := model.CountIssues(r.Issues)
				if s := d.Records.Summary(i); s.Errors != e || s.Warnings != w || s.ID != r.ID {
					t.Fatalf("summary %s %d/%d, record %s has %d/%d", s.ID, s.Errors, s.Warnings, r.ID, e, w)
				}
			}
			_ = model.Report(d)
		}
	})
}
