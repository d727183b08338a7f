package overview

import (
	"fmt"
	"testing"

	"evalview/model"
)

// runsEntries are the entries of models models that ran runs times each,
// one results file per run of k tasks (as cmd/evalbench's -overview-runs
// folders).
func runsEntries(models, runs int) []Entry {
	tasks := 60
	if models == 1 {
		tasks = 70
	}
	k := max(3, (tasks+runs-1)/runs)
	var es []Entry
	for m := range models {
		for r := range runs {
			e := Entry{Dataset: len(es), Model: fmt.Sprintf("org/model-%02d", m), Run: fmt.Sprintf("2025-07-01T%02d-%02d-00.000000", (m*runs+r)/60, (m*runs+r)%60),
				Config: []model.Fact{{Key: "dtype", Value: "bfloat16"}}}
			for i := range k {
				t := (r*k + i) % tasks
				e.Tasks = append(e.Tasks, Task{Name: fmt.Sprintf("suite%d_task%d", t/10, t%10), Record: i,
					Figures: []Figure{fig("acc", "none", float64(t)/100), fig("acc_norm", "none", 0.5)},
					Config:  []model.Fact{{Key: "num_fewshot", Value: fmt.Sprint(5 * (t % 2))}}})
			}
			es = append(es, e)
		}
	}
	return es
}

// BenchmarkBuildRuns: the overview of one model run 200 times and of 50
// models run 10 times each, merged by configuration and run by run.
func BenchmarkBuildRuns(b *testing.B) {
	for _, c := range []struct {
		models, runs int
		expand       bool
	}{{1, 200, false}, {1, 200, true}, {50, 10, false}, {50, 10, true}} {
		es := runsEntries(c.models, c.runs)
		b.Run(fmt.Sprintf("%dx%d/expand=%v", c.models, c.runs, c.expand), func(b *testing.B) {
			for b.Loop() {
				Build(es, Options{ExpandAll: c.expand})
			}
		})
	}
}
