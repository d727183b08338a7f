package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"evalview/model"
	"evalview/tui/ui"
)

// Fixtures of the overview (issue 17): models that ran the same tasks,
// built in code as lm-eval datasets with their Origin: mmlu_a and mmlu_b
// in group mmlu (with its aggregate, reported and recomputed), and
// gsm8k under two filters. right[t] says which docs of task t a model got
// right ('+') or wrong ('-').

type ovModel struct {
	name, run string
	right     map[string]string
	// reported overrides a task's reported value (the samples recompute
	// another one).
	reported map[string]float64
}

func ovModels(n int) []ovModel {
	all := []ovModel{
		{"org/base-7b", "2025-06-01T10-00-00.000001", map[string]string{"mmlu_a": "++--", "mmlu_b": "+++-", "gsm8k": "+---"}, map[string]float64{"mmlu_b": 0.70}},
		{"org/tuned-7b", "2025-06-02T10-00-00.000001", map[string]string{"mmlu_a": "+++-", "mmlu_b": "++--", "gsm8k": "++--"}, nil},
		{"other/big-70b", "2025-06-03T10-00-00.000001", map[string]string{"mmlu_a": "++++", "mmlu_b": "+-+-", "gsm8k": "++++"}, nil},
	}
	return all[:n]
}

// ovDataset is one task of one model.
func ovDataset(m ovModel, task string) *model.Dataset {
	filters := []string{"none"}
	metric := "acc"
	if task == "gsm8k" {
		filters, metric = []string{"strict-match", "flexible-extract"}, "exact_match"
	}
	var recs []*model.Record
	pass := 0
	for i, c := range m.right[task] {
		v, st := 0.0, model.StatusFail
		if c == '+' {
			v, st = 1, model.StatusPass
			pass++
		}
		rec := &model.Record{}
		rec.ID, rec.Title = fmt.Sprint(i), fmt.Sprintf("%s question %d", task, i)
		for range filters {
			rec.Outcomes = append(rec.Outcomes, model.Outcome{Present: true, Status: st, Score: v, HasScore: true,
				Answer: fmt.Sprint(v), Metrics: []model.MetricValue{{Name: metric, Value: v}}})
		}
		rec.Status, rec.Score, rec.HasScore = st, v, true
		recs = append(recs, rec)
	}
	mean := float64(pass) / float64(len(recs))
	ds := &model.Dataset{
		Kind: model.KindLMEval, Path: "/out/" + m.name + "/samples_" + task + "_" + m.run + ".jsonl",
		Title: task, Task: task, Filters: filters, MainMetric: metric, Records: model.NewMemIndex(recs),
		Facts:  []model.Fact{{Key: "task", Value: task}, {Key: "model", Value: m.name}},
		Origin: model.Origin{Task: task, Model: m.name, Run: m.run},
	}
	for _, f := range filters {
		v := mean
		if r, ok := m.reported[task]; ok {
			v = r
		}
		ds.Metrics = append(ds.Metrics, model.Metric{Filter: f, Name: metric, Value: v, Stderr: 0.25, HasStderr: true})
	}
	if strings.HasPrefix(task, "mmlu_") {
		ds.Origin.Groups = []string{"mmlu"}
		a, b := strings.Count(m.right["mmlu_a"], "+"), strings.Count(m.right["mmlu_b"], "+")
		g := float64(a+b) / 8
		ds.Groups = []model.GroupComparison{{Group: "mmlu", Filter: "none", Name: "acc", Subtasks: 2,
			Reported: g, Recomputed: g, HasRecomputed: true, WeightBySize: true}}
	}
	return ds
}

// overviewFixtures are n models' datasets, model by model.
func overviewFixtures(n int) []*model.Dataset {
	var out []*model.Dataset
	for _, m := range ovModels(n) {
		for _, t := range []string{"gsm8k", "mmlu_a", "mmlu_b"} {
			out = append(out, ovDataset(m, t))
		}
	}
	return out
}

// newOverviewModel opens the fixtures as the command does: on the
// overview.
func newOverviewModel(t *testing.T, dss []*model.Dataset, w, h int) *Model {
	t.Helper()
	t.Setenv("NO_COLOR", "1")
	m := New(dss, Options{Theme: "dark", Overview: true})
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// TestGoldenOverview snapshots the overview (the whole screen) of one
// model, of three with deltas (sorted by the delta, the baseline moved),
// with groups folded and unfolded, and the comparison of a task's runs.
// `go test ./tui -run TestGoldenOverview -update` rewrites them.
func TestGoldenOverview(t *testing.T) {
	cases := []struct {
		name   string
		models int
		keys   []string
		want   []string
	}{
		{"one_model", 1, nil, []string{"Overview", "3 tasks × 1 column", "▾ mmlu", "0.5000", "worst task"}},
		{"three_models", 3, nil, []string{"Δ tuned-7b − base-7b (baseline)", "[tuned-7b]", "+0.2500", "−0.2000", "0.7000≠", "worse than base-7b"}},
		{"three_sorted_by_delta", 3, []string{"h", "h", "s"}, []string{"sorted by Δ ↑", "[Δ]"}},
		{"three_baseline_big", 3, []string{"l", "B", "h"}, []string{"Δ tuned-7b − big-70b (baseline)"}},
		{"groups_folded", 3, []string{"Z"}, []string{"▸ mmlu"}},
		{"groups_unfolded", 3, []string{"Z", "Z"}, []string{"▾ mmlu", "mmlu_b"}},
		{"filtered", 3, append([]string{"/"}, "m", "m", "l", "u", "_", "b", "enter"), []string{"filter \"mmlu_b\""}},
		{"stderr", 3, []string{"e"}, []string{"0.2500±0.2500"}},
		{"runs", 3, []string{"j", "j", "C"}, []string{"Compare runs", "mmlu_a · 3 runs", "Agreement", "flipped"}},
		{"runs_all_docs", 3, []string{"j", "j", "C", "f"}, []string{"All docs (4"}},
	}
	for _, size := range [][2]int{{100, 30}, {80, 24}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					m := newOverviewModel(t, overviewFixtures(c.models), w, h)
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

// TestOverviewOpenAndBack: enter opens the cell's task of its model with
// its records, esc in the list comes back to the overview as it was
// left; x opens only the wrong answers; from the comparison of a task's
// runs, enter shows the doc in its run and esc brings both sheets back.
func TestOverviewOpenAndBack(t *testing.T) {
	m := newOverviewModel(t, overviewFixtures(3), 100, 30)
	press(m, "j", "j", "l") // mmlu_a, big-70b
	press(m, "enter")
	if m.sheets.top() != nil {
		t.Fatalf("enter left a sheet open: %T", m.sheets.top())
	}
	ds := m.datasets[m.cur]
	if ds.Task != "mmlu_a" || ds.Origin.Model != "other/big-70b" || m.list.WrongOnly() {
		t.Fatalf("opened %s of %s (wrong only %v)", ds.Task, ds.Origin.Model, m.list.WrongOnly())
	}
	press(m, "esc")
	if m.sheets.top() != ui.Sheet(m.overview) {
		t.Fatalf("esc in the list: top sheet %T", m.sheets.top())
	}
	if s := screen(m); !strings.Contains(s, "▸     mmlu_a") || !strings.Contains(s, "[big-70b]") {
		t.Errorf("the overview is not as it was left:\n%s", s)
	}
	press(m, "h", "x") // tuned-7b's wrong answers of mmlu_a: one
	if ds := m.datasets[m.cur]; ds.Origin.Model != "org/tuned-7b" || !m.list.WrongOnly() || len(m.list.Visible()) != 1 {
		t.Errorf("x opened %s of %s, wrong only %v, %d rows", ds.Task, ds.Origin.Model, m.list.WrongOnly(), len(m.list.Visible()))
	}
	press(m, "esc", "C", "enter")
	if ds := m.datasets[m.cur]; m.sheets.top() != nil || ds.Origin.Model != "org/base-7b" || ds.Task != "mmlu_a" || cursorRow(m) != 2 {
		t.Errorf("enter in the runs sheet: %s of %s, cursor %d", ds.Task, ds.Origin.Model, cursorRow(m))
	}
	press(m, "esc")
	if len(m.sheets.list) != 2 || m.sheets.list[0] != ui.Sheet(m.overview) {
		t.Errorf("esc after the runs sheet: %d sheets", len(m.sheets.list))
	}
	press(m, "esc", "esc") // the runs sheet, then the overview: the list
	if m.sheets.top() != nil {
		t.Errorf("esc twice left %T", m.sheets.top())
	}
	press(m, "T")
	if m.sheets.top() != ui.Sheet(m.overview) {
		t.Errorf("T did not bring the overview back")
	}
}

// TestOverviewTyping: while the filter is typed every key types, ? and T
// included, and esc drops it; q quits from the overview.
func TestOverviewTyping(t *testing.T) {
	m := newOverviewModel(t, overviewFixtures(2), 100, 30)
	press(m, "/")
	typeText(m, "?Tq")
	if s := screen(m); !strings.Contains(s, "filter: ?Tq▏") || m.sheets.top() != ui.Sheet(m.overview) {
		t.Fatalf("typing:\n%s", s)
	}
	send(m, tea.PasteMsg{Content: "x"})
	if !strings.Contains(screen(m), "filter: ?Tqx▏") {
		t.Errorf("paste went elsewhere:\n%s", screen(m))
	}
	press(m, "esc")
	if s := screen(m); strings.Contains(s, "filter:") || strings.Contains(s, `filter "`) || !strings.Contains(s, "mmlu_b") {
		t.Errorf("esc kept the filter:\n%s", s)
	}
	_, cmd := m.Update(keyMsg("q"))
	if cmd == nil {
		t.Fatal("q did nothing")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Errorf("q in the overview does not quit")
	}
}

// TestGoldenPickerFiltered: the picker filters as you type (every word,
// any case, over task, kind, model and run), and q quits from it.
func TestGoldenPickerFiltered(t *testing.T) {
	m := newTestModel(t, overviewFixtures(3), 100, 30)
	press(m, "D", "/")
	typeText(m, "MMLU big")
	press(m, "enter")
	s := screen(m)
	checkFits(t, s, 100, 30)
	for _, want := range []string{`filter "MMLU big": 2 of 9`, "mmlu_a", "other/big-70b", "2025-06-03 10:00", "1.0000 acc,none"} {
		if !strings.Contains(s, want) {
			t.Errorf("lacks %q:\n%s", want, s)
		}
	}
	if n := strings.Count(s, "  lm-eval  "); n != 2 {
		t.Errorf("the filter kept %d datasets:\n%s", n, s)
	}
	golden.RequireEqual(t, s)
	press(m, "j", "enter")
	if ds := m.datasets[m.cur]; ds.Task != "mmlu_b" || ds.Origin.Model != "other/big-70b" {
		t.Errorf("enter opened %s of %s", ds.Task, ds.Origin.Model)
	}
	press(m, "D")
	_, cmd := m.Update(keyMsg("q"))
	if cmd == nil {
		t.Fatal("q did nothing in the picker")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Errorf("q in the picker does not quit")
	}
}

// TestOverviewFinalWhenIndexedBeforeInit: indexes that complete between
// New (which builds the overview from what they hold so far) and Init
// leave no index growing, so no poll ever ticks; the overview must still
// take in their final figures (≠ marks, values of models without a
// results file) instead of saying "indexing" for ever.
func TestOverviewFinalWhenIndexedBeforeInit(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	dss := overviewFixtures(2)
	var idxs []*growingIndex
	for _, ds := range dss {
		idx := &growingIndex{recs: ds.Records.(*model.MemIndex).Recs}
		idx.grow(len(idx.recs), false)
		ds.Records = idx
		idxs = append(idxs, idx)
	}
	m := New(dss, Options{Theme: "dark", Overview: true})
	if m.overview == nil || m.overview.Complete() {
		t.Fatal("the overview should start with pending figures")
	}
	for _, idx := range idxs {
		idx.grow(len(idx.recs), true)
	}
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	s := screen(m)
	if !m.overview.Complete() || strings.Contains(s, "indexing") || !strings.Contains(s, "0.7000≠") {
		t.Errorf("the overview did not take in the complete indexes:\n%s", s)
	}
}

// TestListWhenIndexedBeforeInit: the list shows the records of an index
// that grew and completed between New and Init, when no poll ticks.
func TestListWhenIndexedBeforeInit(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	base := lmevalFixture()
	idx := &growingIndex{recs: base.Records.(*model.MemIndex).Recs}
	base.Records = idx
	m := New([]*model.Dataset{base}, Options{Theme: "dark"})
	idx.grow(6, true)
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	if s := screen(m); len(m.list.Visible()) != 6 || !strings.Contains(s, "1/6") {
		t.Errorf("%d rows shown of 6:\n%s", len(m.list.Visible()), s)
	}
}

// TestGoldenOverviewNarrowTwoColumns: at 80 columns, with long task and
// model names (a real folder of two runs), the baseline and the compared
// column show side by side: the metric column gives way first. Before,
// the baseline was left off screen and the delta had nothing beside it.
func TestGoldenOverviewNarrowTwoColumns(t *testing.T) {
	var dss []*model.Dataset
	for _, m := range []ovModel{
		{"/workspace/gemma3_12b_u2", "2025-10-14T14-44-39.372006", map[string]string{"pro_plus_chemistry": "+--", "pro_plus_psychology": "++-"}, nil},
		{"/workspace/gemma-3-12b-it-base", "2025-10-14T15-11-56.507865", map[string]string{"pro_plus_chemistry": "++-", "pro_plus_psychology": "++-"}, nil},
	} {
		for _, task := range []string{"pro_plus_chemistry", "pro_plus_psychology"} {
			ds := ovDataset(m, task) // scored as mmlu_pro_plus is: exact_match under custom-extract
			ds.Task, ds.Title, ds.Origin.Task = "mmlu_"+task, "mmlu_"+task, "mmlu_"+task
			ds.Facts[0].Value = ds.Task
			ds.Filters, ds.MainMetric = []string{"custom-extract"}, "exact_match"
			for i := range ds.Metrics {
				ds.Metrics[i].Filter, ds.Metrics[i].Name = "custom-extract", "exact_match"
			}
			for _, rec := range ds.Records.(*model.MemIndex).Recs {
				rec.Outcomes[0].Metrics[0].Name = "exact_match"
			}
			dss = append(dss, ds)
		}
	}
	m := newOverviewModel(t, dss, 80, 24)
	s := screen(m)
	checkFits(t, s, 80, 24)
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "  task") && (!strings.Contains(line, " gemma3_12b_u2 ") || !strings.Contains(line, "[gemma-3…t-base]")) {
			t.Errorf("the baseline and the compared column are not side by side:\n%s", s)
		}
	}
	if !strings.Contains(s, "mmlu_pro_plus_psychology") {
		t.Errorf("task names cut:\n%s", s)
	}
	golden.RequireEqual(t, s)
}

// TestPickerOverTheOverview: D opens the dataset picker over the
// overview too (it did nothing there); esc in the picker comes back to
// the overview, enter opens the dataset picked.
func TestPickerOverTheOverview(t *testing.T) {
	m := newOverviewModel(t, overviewFixtures(2), 100, 30)
	press(m, "D")
	if s := screen(m); !strings.Contains(s, "Datasets") || len(m.sheets.list) != 2 {
		t.Fatalf("D in the overview:\n%s", s)
	}
	press(m, "esc")
	if m.sheets.top() != ui.Sheet(m.overview) {
		t.Fatalf("esc in the picker: top sheet %T", m.sheets.top())
	}
	press(m, "D", "j", "enter")
	if m.sheets.top() != nil || m.cur != 1 {
		t.Errorf("enter in the picker: sheet %T, dataset %d", m.sheets.top(), m.cur)
	}
}

// TestOverviewManyModelsOneMetric: ten models of tasks that all have one
// metric, at 80 columns: the metric column gives its room to the models
// (the line under the rows names the metric), so four show, not two.
func TestOverviewManyModelsOneMetric(t *testing.T) {
	var dss []*model.Dataset
	for i := range 10 {
		m := ovModel{fmt.Sprintf("org/model-%02d", i), fmt.Sprintf("2025-07-01T%02d-00-00.000001", 8+i),
			map[string]string{"suite0_task0": "+-+-", "suite0_task1": "++--"}, nil}
		for _, task := range []string{"suite0_task0", "suite0_task1"} {
			dss = append(dss, ovDataset(m, task))
		}
	}
	m := newOverviewModel(t, dss, 80, 24)
	s := screen(m)
	checkFits(t, s, 80, 24)
	if !strings.Contains(s, "(1–4 shown)") || strings.Contains(s, " metric ") || !strings.Contains(s, "acc,none") {
		t.Errorf("want four models shown and the metric named under the rows:\n%s", s)
	}
}

// waitableIndex is a growing index that can be waited for, as lm-eval's
// background scans can.
type waitableIndex struct {
	*growingIndex
	done chan struct{}
}

func (w waitableIndex) Wait() error { <-w.done; return nil }

// TestOverviewFinalWhenIndexesComplete: the overview takes in the final
// figures as soon as the indexes complete, not at the next poll (250 ms
// later): the driver runs no timer, so only the wait brings them.
func TestOverviewFinalWhenIndexesComplete(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	dss := overviewFixtures(2)
	var idxs []waitableIndex
	for _, ds := range dss {
		g := &growingIndex{recs: ds.Records.(*model.MemIndex).Recs}
		g.grow(len(g.recs), false)
		w := waitableIndex{g, make(chan struct{})}
		ds.Records = w
		idxs = append(idxs, w)
	}
	m := New(dss, Options{Theme: "dark", Overview: true})
	go func() {
		time.Sleep(20 * time.Millisecond)
		for _, w := range idxs {
			w.grow(len(w.recs), true)
			close(w.done)
		}
	}()
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	if s := screen(m); !m.overview.Complete() || strings.Contains(s, "indexing") || !strings.Contains(s, "0.7000≠") {
		t.Errorf("the overview did not take in the completed indexes:\n%s", s)
	}
}
