package main

import (
	"path/filepath"
	"testing"

	"evalview/loaders"
	"evalview/model"
)

// TestReopenKeepsResultsFile: `r` on an lm-eval dataset opened from its
// folder reloads it with its results file (reported metrics, model), not
// as a bare samples file.
func TestReopenKeepsResultsFile(t *testing.T) {
	o := loaders.Options{}
	dss, err := loaders.Open([]string{filepath.Join(fixtures, "two_filters")}, o)
	if err != nil || len(dss) != 1 {
		t.Fatalf("open: %d datasets, %v", len(dss), err)
	}
	fresh, err := reopener(o)(dss[0])
	if err != nil {
		t.Fatal(err)
	}
	fact := func(ds *model.Dataset, k string) string {
		for _, f := range ds.Facts {
			if f.Key == k {
				return f.Value
			}
		}
		return ""
	}
	if got, want := fact(fresh, "model"), fact(dss[0], "model"); got == "" || got != want {
		t.Errorf("reloaded model fact %q, want %q (facts %v)", got, want, fresh.Facts)
	}
	if len(fresh.Metrics) != len(dss[0].Metrics) || fresh.Path != dss[0].Path {
		t.Errorf("reloaded %d metrics at %s, want %d at %s", len(fresh.Metrics), fresh.Path, len(dss[0].Metrics), dss[0].Path)
	}
}
