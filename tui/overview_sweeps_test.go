package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"evalview/loaders/lmeval"
	"evalview/model"
)

// sweepDatasets opens folders of testdata/lmeval: sweeps/ holds real
// folders of many runs of one model (SOURCES.md there).
func sweepDatasets(t *testing.T, folders ...string) []*model.Dataset {
	t.Helper()
	var out []*model.Dataset
	for _, f := range folders {
		dss, err := lmeval.Open("../testdata/lmeval/" + f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, dss...)
	}
	return out
}

// TestGoldenOverviewSweeps snapshots the overview of folders where one
// model ran many times (issue 29): a column per configuration of the
// model, not per file. One model run 20 times over (the same settings
// merge, ↻ marks a task run again, r lists its runs; E shows the model
// run by run), a checkpoint sweep (revision=stepN, ordered as numbers),
// a few-shot sweep written by a newer harness, a steering sweep, a model
// folder named after a relative path (..__adapters__x); a shows
// the rows and columns that have no value.
// `go test ./tui -run TestGoldenOverviewSweeps -update` rewrites them.
func TestGoldenOverviewSweeps(t *testing.T) {
	cases := []struct {
		name    string
		folders []string
		keys    []string
		want    []string
	}{
		{"many_runs", []string{"sweeps/rwkv7-reruns"}, nil, []string{"4.2630↻", "4 columns"}},
		{"many_runs_reruns", []string{"sweeps/rwkv7-reruns"}, []string{"h", "g", "j", "j", "r"}, []string{"Runs", "4 runs of lambada_openai", "20.0883"}},
		{"many_runs_expanded", []string{"sweeps/rwkv7-reruns"}, []string{"h", "E"}, []string{"02-24 20:34", "9 columns"}},
		{"checkpoints", []string{"sweeps/pythia-160m"}, nil, []string{"step0", "step1]", "10 columns"}},
		{"fewshot", []string{"sweeps/gemma-2b-fewshot"}, nil, []string{"0-shot", "5-shot", "5 columns"}},
		{"steering", []string{"sweeps/steering"}, nil, []string{"alpha0.5", "alpha1.0", "steer_path unset"}},
		// A model folder named after a relative path: "..__adapters__x".
		{"dotdot_model", []string{"sweeps/adapters"}, nil, []string{"160m-lora", "v1.1-160m", "5 tasks × 2 columns", "worse than 160m-lora"}},
		// An LFS pointer where a samples file should be has no value.
		{"empty_hidden", []string{"sweeps/steering", "lfs"}, nil, []string{"2 tasks × 6 columns", "hidden (a)"}},
		{"empty_shown", []string{"sweeps/steering", "lfs"}, []string{"a"}, []string{"3 tasks × 7 columns", "empty rows shown"}},
	}
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					m := newOverviewModel(t, sweepDatasets(t, c.folders...), w, h)
					for _, k := range c.keys {
						press(m, k)
					}
					s := screen(m)
					checkFits(t, s, w, h)
					for _, want := range c.want {
						if !strings.Contains(s, want) {
							t.Errorf("lacks %q:\n%s", want, s)
						}
					}
					golden.RequireEqual(t, s)
				})
			}
		})
	}
}

// TestOverviewExpandAndEmpty: E shows the model under the cursor run by
// run and merges it again, a shows the empty rows and columns and hides
// them again, each keeping the baseline and the row under the cursor;
// r on a task that ran once says so.
func TestOverviewExpandAndEmpty(t *testing.T) {
	m := newOverviewModel(t, sweepDatasets(t, "sweeps/rwkv7-reruns", "lfs"), 120, 30)
	ov := m.overview.Table
	if n := len(ov().Columns); n != 4 || ov().HiddenColumns != 1 || ov().HiddenRows != 1 {
		t.Fatalf("%d columns, %d and %d hidden", n, ov().HiddenColumns, ov().HiddenRows)
	}
	press(m, "g", "j", "j", "h") // lambada_openai, the model's main configuration
	base := ov().Columns[0].Key
	press(m, "E")
	if n := len(ov().Columns); n != 9 || !ov().Columns[0].Expanded {
		t.Fatalf("expanded: %d columns", n)
	}
	if s := screen(m); !strings.Contains(s, "▸   lambada_openai") || !strings.Contains(s, "@ 2025-02-24 02:24 · lambada_openai") {
		t.Errorf("expanded, the cursor left lambada_openai of the model's first run:\n%s", s)
	}
	press(m, "E")
	if n := len(ov().Columns); n != 4 || ov().Columns[0].Key != base {
		t.Fatalf("merged again: %d columns", n)
	}
	press(m, "a")
	if n := len(ov().Columns); n != 5 || !strings.Contains(screen(m), "empty rows shown (a)") {
		t.Errorf("shown: %d columns", n)
	}
	if s := screen(m); !strings.Contains(s, "▸   lambada_openai") {
		t.Errorf("a moved the cursor:\n%s", s)
	}
	press(m, "a", "g", "r")
	if !strings.Contains(m.note, "arc_easy ran once in") {
		t.Errorf("r on a task run once: note %q", m.note)
	}
}
