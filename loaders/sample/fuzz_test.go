package sample

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"

	"evalview/internal/hostile"
	"evalview/model"
)

// FuzzOpen feeds arbitrary bytes to the loader: it must never panic,
// every record it indexes must load again, and the counts in summaries
// must match the issues records carry.
func FuzzOpen(f *testing.F) {
	// Small seeds: the fuzzer minimises every input that finds new code
	// a byte at a time, each try a whole open, so the whole fixtures (up
	// to 5.5 KB) kept it minimising, at a few executions a second, instead
	// of exploring. A fixture is a seed when it is small, else its lines
	// that are whole JSON values of at most 2 KB are.
	seeds, _ := filepath.Glob(filepath.Join(fixtures, "*.jsonl"))
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			continue
		}
		if len(b) <= 1024 {
			f.Add(b)
			continue
		}
		for _, line := range bytes.Split(b, []byte("\n")) {
			if len(line) <= 2048 && json.Valid(line) {
				f.Add(append(line, '\n'))
			}
		}
	}
	f.Add([]byte(`{"messages":[{"role":"tool","content":[{"type":"image_url","image_url":"/"}]}],"options":[1,{"id":null}],"label":3}`))
	f.Add([]byte(`{"messages":{"role":"user"},"predict_result":{"error":true},"eval_result":{"overall":[],"metrics":[1],"judge":7}}`))
	f.Add([]byte(`"{\"messages\":\"x\",\"few_shot_examples\":[{\"few_shot_examples\":1,\"options\":\"no\"}]}"`))
	f.Add([]byte(`{"messages":[],"golden_trajectories":[{"messages":3},[1]],"unconditioned_input":[1,{}],"tools":{"a":1}}`))
	// One folder per fuzz process, in memory where it can be (t.TempDir
	// per execution cost more than the open); each execution's file has
	// a new name.
	dir := hostile.FuzzDir(f)
	var n atomic.Int64
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz"+strconv.FormatInt(n.Add(1), 10)+".jsonl")
		defer os.Remove(path)
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
