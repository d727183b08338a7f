package tui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
)

// benchOverview is models x tasks lm-eval datasets of docs records each:
// the tasks in groups of ten (grp0 > grp0_t0...), each model's runs
// its own column.
func benchOverview(models, tasks, docs int) []*model.Dataset {
	var out []*model.Dataset
	for m := 0; m < models; m++ {
		name := fmt.Sprintf("org/model-%02d", m)
		for t := 0; t < tasks; t++ {
			task := fmt.Sprintf("grp%d_t%d", t/10, t%10)
			recs := make([]*model.Record, docs)
			pass := 0
			for i := range recs {
				v, st := 0.0, model.StatusFail
				if (i*7+t*3+m)%5 < 3 {
					v, st = 1, model.StatusPass
					pass++
				}
				r := &model.Record{}
				r.ID, r.Title = fmt.Sprint(i), "question"
				r.Outcomes = []model.Outcome{{Present: true, Status: st, Score: v, HasScore: true, Metrics: []model.MetricValue{{Name: "acc", Value: v}}}}
				r.Status, r.Score, r.HasScore = st, v, true
				recs[i] = r
			}
			mean := float64(pass) / float64(docs)
			out = append(out, &model.Dataset{
				Kind: model.KindLMEval, Title: task, Task: task, Path: name + "/" + task, Filters: []string{"none"}, MainMetric: "acc",
				Records: model.NewMemIndex(recs), Metrics: []model.Metric{{Filter: "none", Name: "acc", Value: mean, Stderr: 0.01, HasStderr: true}},
				Origin: model.Origin{Task: task, Model: name, Run: "2025-01-01T00-00-00.0", Groups: []string{fmt.Sprintf("grp%d", t/10)}},
				Groups: []model.GroupComparison{{Group: fmt.Sprintf("grp%d", t/10), Name: "acc", Filter: "none", Reported: 0.6, Recomputed: 0.6, HasRecomputed: true, Subtasks: 10}},
			})
		}
	}
	return out
}

// BenchmarkOverviewKeys measures one key of the overview and the frame
// it draws, on 10 models x 60 tasks (target: 16 ms).
func BenchmarkOverviewKeys(b *testing.B) {
	b.Setenv("NO_COLOR", "")
	dss := benchOverview(10, 60, 200)
	for _, k := range []string{"j", "l", "s", "b", "z", "e", "/"} {
		b.Run(k, func(b *testing.B) {
			m := New(dss, Options{Theme: "dark", Overview: true})
			drive(m, m.Init())
			send(m, tea.WindowSizeMsg{Width: 160, Height: 50})
			_ = m.View()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				send(m, keyMsg(k))
				if k == "/" {
					send(m, keyMsg("esc"))
				}
				_ = m.View()
			}
		})
	}
}

// BenchmarkOverviewOpen measures the overview's first build and frame
// over 600 datasets (10 x 60) and 5,000 (one task each).
func BenchmarkOverviewOpen(b *testing.B) {
	b.Setenv("NO_COLOR", "")
	for _, c := range []struct {
		name          string
		models, tasks int
	}{{"600", 10, 60}, {"5000", 1, 5000}} {
		dss := benchOverview(c.models, c.tasks, 20)
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				m := New(dss, Options{Theme: "dark", Overview: true})
				send(m, tea.WindowSizeMsg{Width: 160, Height: 50})
				_ = m.View()
			}
		})
	}
}
