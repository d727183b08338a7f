package overview

import (
	"reflect"
	"strings"
	"testing"

	"evalview/model"
)

// fig is a reported figure.
func fig(name, filter string, v float64) Figure {
	return Figure{Name: name, Filter: filter, Value: v, HasValue: true, Reported: true}
}

func task(name string, groups []string, figs ...Figure) Task {
	return Task{Name: name, Groups: groups, Record: -1, Figures: figs}
}

// threeModels: three models of two tasks of group g (reported 0.5 and
// 0.7 by model a), and gsm8k.
func threeModels() []Entry {
	g := []string{"g"}
	mk := func(i int, m string, x, y, z float64) []Entry {
		return []Entry{
			{Dataset: 3 * i, Model: m, Run: "2025-01-0" + string(rune('1'+i)) + "T10-00-00.000001", Tasks: []Task{task("g_b", g, fig("acc", "none", x))},
				Groups: []model.GroupComparison{{Group: "g", Name: "acc", Filter: "none", Reported: (x + y) / 2, Recomputed: (x + y) / 2, HasRecomputed: true, Subtasks: 2}}},
			{Dataset: 3*i + 1, Model: m, Tasks: []Task{task("g_a", g, fig("acc", "none", y))}},
			{Dataset: 3*i + 2, Model: m, Tasks: []Task{task("gsm8k", nil, fig("exact_match", "strict-match", z), fig("exact_match", "flexible-extract", z+0.1))}},
		}
	}
	var out []Entry
	out = append(out, mk(0, "org/base-7b", 0.5, 0.7, 0.30)...)
	out = append(out, mk(1, "org/tuned-7b", 0.6, 0.6, 0.20)...)
	out = append(out, mk(2, "other/big-70b", 0.9, 0.8, 0.80)...)
	return out
}

func taskNames(t *Table, rows []int) string {
	var out []string
	for _, r := range rows {
		out = append(out, strings.Repeat(" ", t.Rows[r].Depth)+t.Rows[r].Task)
	}
	return strings.Join(out, "|")
}

func TestBuildThreeModels(t *testing.T) {
	tab := Build(threeModels(), Options{})
	if got := len(tab.Columns); got != 3 {
		t.Fatalf("%d columns", got)
	}
	labels := []string{tab.Columns[0].Label, tab.Columns[1].Label, tab.Columns[2].Label}
	if want := []string{"base-7b", "tuned-7b", "big-70b"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("labels %v, want %v", labels, want)
	}
	if got := taskNames(tab, tab.Visible(View{})); got != "g| g_a| g_b|gsm8k" {
		t.Errorf("rows %q", got)
	}
	// The group's row shows its aggregate; its metric is its subtasks'.
	g := tab.Rows[0]
	if !g.Group || g.Metric != "acc,none" || !g.Cells[1].HasFigure || g.Cells[1].Figure.Value != 0.6 || g.Cells[1].Figure.N != 2 {
		t.Errorf("group row %+v", g)
	}
	// gsm8k's metric is its first figure's, the same in every column.
	gsm := tab.Rows[3]
	if gsm.Metric != "exact_match,strict-match" || gsm.Cells[2].Figure.Value != 0.80 {
		t.Errorf("gsm8k row %+v", gsm)
	}
	if d, ok := tab.Delta(3, 1, 0); !ok || d > -0.0999 || d < -0.1001 {
		t.Errorf("delta tuned-base on gsm8k %v %v", d, ok)
	}
	if tab.Change(3, 1, 0) != -1 || tab.Change(3, 2, 0) != 1 {
		t.Errorf("changes %d %d", tab.Change(3, 1, 0), tab.Change(3, 2, 0))
	}
	if n := tab.Worse(1, 0); n != 2 { // g_a 0.7 -> 0.6 and gsm8k
		t.Errorf("worse than base: %d", n)
	}
	if w := tab.Worst(0); tab.Rows[w].Task != "gsm8k" {
		t.Errorf("worst of base: %q", tab.Rows[w].Task)
	}
}

func TestVisibleSortFilterFold(t *testing.T) {
	tab := Build(threeModels(), Options{})
	// By the tuned column, ascending: siblings sorted within their group.
	if got := taskNames(tab, tab.Visible(View{Sort: ByColumn, Column: 1})); got != "gsm8k|g| g_a| g_b" {
		t.Errorf("sorted by tuned: %q", got)
	}
	if got := taskNames(tab, tab.Visible(View{Sort: ByDelta, Compared: 1, Baseline: 0})); got != "gsm8k|g| g_a| g_b" {
		t.Errorf("sorted by delta: %q", got)
	}
	if got := taskNames(tab, tab.Visible(View{Sort: ByDelta, Compared: 1, Baseline: 0, Desc: true})); got != "g| g_b| g_a|gsm8k" {
		t.Errorf("sorted by delta, reversed: %q", got)
	}
	if got := taskNames(tab, tab.Visible(View{Folded: map[int]bool{0: true}})); got != "g|gsm8k" {
		t.Errorf("folded: %q", got)
	}
	if got := taskNames(tab, tab.Visible(View{Filter: "G_A", Folded: map[int]bool{0: true}})); got != "g| g_a" {
		t.Errorf("filtered: %q", got)
	}
	if got := taskNames(tab, tab.Visible(View{Filter: "g"})); got != "g| g_a| g_b|gsm8k" {
		t.Errorf("filter on a group keeps its subtasks: %q", got)
	}
}

func TestColumnsRuns(t *testing.T) {
	e := func(i int, run, name string, v float64) Entry {
		return Entry{Dataset: i, Model: "m", Run: run, Path: "/out/m/" + run, Tasks: []Task{task(name, nil, fig("acc", "none", v))}}
	}
	// Two runs of other tasks: one column of the model.
	tab := Build([]Entry{e(0, "2025-01-01T10-00-00.1", "a", 0.5), e(1, "2025-01-02T11-00-00.1", "b", 0.5)}, Options{})
	if len(tab.Columns) != 1 || tab.Columns[0].Runs != 2 || tab.Columns[0].Run != "" || tab.Columns[0].Label != "m" {
		t.Errorf("merged runs: %+v", tab.Columns)
	}
	// The same task run twice, the later run given first: one column,
	// whose cell is the later run's, marked, its runs one call away.
	tab = Build([]Entry{e(0, "2025-01-01T11-30-00.1", "a", 0.75), e(1, "2025-01-01T10-00-00.1", "a", 0.5)}, Options{})
	if len(tab.Columns) != 1 || tab.Columns[0].Label != "m" || tab.Columns[0].Runs != 2 {
		t.Fatalf("a task run twice: %+v", tab.Columns)
	}
	cell := tab.Rows[0].Cells[0]
	if cell.Entry != 0 || cell.Figure.Value != 0.75 || !reflect.DeepEqual(cell.Runs, []int{1, 0}) || cell.ValueText(false) != "0.7500"+RerunMark {
		t.Errorf("the latest run's cell: %+v (%q)", cell, cell.ValueText(false))
	}
	runs := tab.CellRuns(0, 0)
	if len(runs) != 2 || runs[0].Figure.Value != 0.5 || runs[0].Run != "2025-01-01T10-00-00.1" || runs[1].Figure.Value != 0.75 {
		t.Errorf("the cell's runs: %+v", runs)
	}
	// Expanded, the model is one column per run, labelled by time.
	tab = Build([]Entry{e(0, "2025-01-01T11-30-00.1", "a", 0.75), e(1, "2025-01-01T10-00-00.1", "a", 0.5)}, Options{Expand: map[string]bool{"m": true}})
	if len(tab.Columns) != 2 || tab.Columns[0].Label != "10:00" || tab.Columns[1].Label != "11:30" || !tab.Columns[1].Expanded {
		t.Errorf("expanded runs: %+v", tab.Columns)
	}
	if tab.Columns[1].Name() != "m @ 2025-01-01 11:30" {
		t.Errorf("name %q", tab.Columns[1].Name())
	}
	if c := tab.Rows[0].Cells[1]; c.Entry != 0 || len(c.Runs) != 1 {
		t.Errorf("an expanded run's cell: %+v", c)
	}
	tab = Build([]Entry{e(0, "2025-01-01T10-00-00.1", "a", 0.5), e(1, "2025-01-03T11-30-00.1", "a", 0.5)}, Options{Expand: map[string]bool{"m": true}})
	if tab.Columns[1].Label != "01-03 11:30" {
		t.Errorf("runs of other days: %q", tab.Columns[1].Label)
	}
	// Another model beside: the model's name leads its labels.
	tab = Build([]Entry{e(0, "2025-01-01T10-00-00.1", "a", 0.5), e(1, "2025-01-01T11-30-00.1", "a", 0.5),
		{Dataset: 2, Model: "n", Tasks: []Task{task("a", nil, fig("acc", "none", 0.1))}}}, Options{Expand: map[string]bool{"m": true}})
	if got := Labels(tab.Columns); !reflect.DeepEqual(got, []string{"m 10:00", "m 11:30", "n"}) {
		t.Errorf("labels beside another model: %q", got)
	}
}

func TestLabels(t *testing.T) {
	cases := []struct {
		models []string
		want   []string
	}{
		{[]string{"meta-llama/Llama-3.1-8B", "Qwen/Qwen2.5-7B"}, []string{"Llama-3.1-8B", "Qwen2.5-7B"}},
		{[]string{"a/m", "b/m"}, []string{"a/m", "b/m"}}, // the organisation tells them apart
		{[]string{"ckpt/run7-step1000", "ckpt/run7-step2000"}, []string{"step1000", "step2000"}},
		{[]string{"x", ""}, []string{"x", "model unknown"}},
		{[]string{"gpt2"}, []string{"gpt2"}},
	}
	for _, c := range cases {
		var cols []Column
		for _, m := range c.models {
			cols = append(cols, Column{Model: m})
		}
		if got := Labels(cols); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Labels(%v) = %v, want %v", c.models, got, c.want)
		}
	}
}

func TestOtherMetricAndEmpty(t *testing.T) {
	tab := Build([]Entry{
		{Dataset: 0, Model: "a", Tasks: []Task{task("t", nil, fig("acc", "none", 0.5))}},
		{Dataset: 1, Model: "b", Tasks: []Task{task("t", nil, fig("f1", "none", 0.4))}},
		{Dataset: 2, Model: "c", Records: 3, Tasks: []Task{task("t", nil)}},
		{Dataset: 3, Model: "d", Tasks: []Task{task("u", nil, fig("acc", "none", 0.1))}},
	}, Options{})
	r := tab.Rows[0]
	if !r.Cells[1].Other || !strings.Contains(r.Cells[1].Note, "f1,none") {
		t.Errorf("other metric: %+v", r.Cells[1])
	}
	if _, ok := tab.Delta(0, 1, 0); ok {
		t.Error("a delta between two metrics")
	}
	if r.Cells[2].HasFigure || r.Cells[2].Note != "3 records, none scored" {
		t.Errorf("unscored: %+v", r.Cells[2])
	}
	// A dataset with records and no score (a testset's cases) says so in
	// its cell, apart from a model that did not run the task.
	if got := r.Cells[2].ValueText(false); got != "3 unscored" {
		t.Errorf("unscored cell shows %q", got)
	}
	if got := r.Cells[3].ValueText(false); got != "–" {
		t.Errorf("a task not run shows %q", got)
	}
	if _, ok := tab.Delta(0, 2, 0); ok || tab.Worst(2) >= 0 {
		t.Error("an unscored cell has a delta or a worst task")
	}
	if r.Cells[3].Entry != -1 || r.Cells[3].Note != "not run by this model" {
		t.Errorf("not run: %+v", r.Cells[3])
	}
}

func TestLowerIsBetter(t *testing.T) {
	pp := func(v float64) Figure { f := fig("perplexity", "none", v); f.LowerIsBetter = true; return f }
	tab := Build([]Entry{
		{Dataset: 0, Model: "a", Tasks: []Task{task("lambada", nil, pp(4.0)), task("x", nil, fig("acc", "none", 0.2))}},
		{Dataset: 1, Model: "b", Tasks: []Task{task("lambada", nil, pp(3.5)), task("x", nil, fig("acc", "none", 0.3))}},
	}, Options{})
	if tab.Change(0, 1, 0) != 1 {
		t.Error("a lower perplexity is no improvement")
	}
	if w := tab.Worst(0); tab.Rows[w].Task != "x" {
		t.Errorf("worst %q: a perplexity is on a scale of its own", tab.Rows[w].Task)
	}
}

// TestUnknownRunsNotMerged: datasets of one model whose run is unknown
// (Sample files, logs without a stamp) and that hold the same task are
// not taken for a copy of one run: each gets a column of its own, told
// apart in its label, and no value is hidden. A copy of one stamped run
// still shows once.
func TestUnknownRunsNotMerged(t *testing.T) {
	e := func(i int, m, run string, v float64) Entry {
		return Entry{Dataset: i, Model: m, Run: run, Tasks: []Task{task("judged", nil, fig("score", "", v))}}
	}
	tab := Build([]Entry{e(0, "", "", 0.5), e(1, "", "", 0.25), e(2, "", "", 0.75)}, Options{})
	if len(tab.Columns) != 3 {
		t.Fatalf("%d columns: %+v", len(tab.Columns), tab.Columns)
	}
	labels := []string{tab.Columns[0].Label, tab.Columns[1].Label, tab.Columns[2].Label}
	if want := []string{"model unknown", "model unknown #2", "model unknown #3"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("labels %v, want %v", labels, want)
	}
	for c, want := range []float64{0.5, 0.25, 0.75} {
		if cell := tab.Rows[0].Cells[c]; cell.Entry != c || cell.Figure.Value != want {
			t.Errorf("column %d: %+v", c, cell)
		}
	}
	// Other tasks of an unknown run share its column.
	tab = Build([]Entry{e(0, "m", "", 0.5), {Dataset: 1, Model: "m", Tasks: []Task{task("other", nil, fig("acc", "", 0.1))}}}, Options{})
	if len(tab.Columns) != 1 {
		t.Errorf("two tasks of an unknown run: %d columns", len(tab.Columns))
	}
	tab = Build([]Entry{e(0, "m", "2025-01-01T10-00-00.1", 0.5), e(1, "m", "2025-01-01T10-00-00.1", 0.5)}, Options{})
	if len(tab.Columns) != 1 || tab.Rows[0].Cells[0].Entry != 0 {
		t.Errorf("a copy of one run: %+v", tab.Columns)
	}
}

// TestUnknownRunsPastMaxAlone: past MaxAlone runs of one model that stand
// alone, the next untimed runs of a task join its configuration's column
// as runs again, and the table counts them: a folder of thousands of
// one-task files without a time was thousands of columns, a table of
// gigabytes.
func TestUnknownRunsPastMaxAlone(t *testing.T) {
	var es []Entry
	n := MaxAlone + 10
	for i := range n + 1 {
		es = append(es, Entry{Dataset: i, Tasks: []Task{task("judged", nil, fig("score", "", float64(i)/100))}})
	}
	tab := Build(es, Options{})
	if len(tab.Columns) != MaxAlone+1 || tab.MergedUntimed != n-MaxAlone {
		t.Fatalf("%d columns, %d merged; want %d and %d", len(tab.Columns), tab.MergedUntimed, MaxAlone+1, n-MaxAlone)
	}
	first := tab.Rows[0].Cells[0]
	if len(first.Runs) != 1+n-MaxAlone {
		t.Errorf("the first column holds %d runs, want its own and the %d merged", len(first.Runs), n-MaxAlone)
	}
	if !strings.Contains(tab.MergedNote(), "10 runs without a time joined") {
		t.Errorf("note %q", tab.MergedNote())
	}
	if j := tab.JSON(0); j.MergedUntimed != n-MaxAlone {
		t.Errorf("JSON: %d merged", j.MergedUntimed)
	}
	// Below the limit nothing is merged and nothing is said.
	if tab := Build(es[:3], Options{}); tab.MergedUntimed != 0 || tab.MergedNote() != "" || len(tab.Columns) != 3 {
		t.Errorf("three runs: %d columns, %d merged", len(tab.Columns), tab.MergedUntimed)
	}
}

// TestPartner: the overview first compares the first column with the one
// that shares the most tasks with it, and its first row is the first
// they share.
func TestPartner(t *testing.T) {
	e := func(i int, m string, tasks ...string) Entry {
		var ts []Task
		for _, n := range tasks {
			ts = append(ts, task(n, nil, fig("acc", "", 0.5)))
		}
		return Entry{Dataset: i, Model: m, Run: "2025-01-01T10-00-00.1", Tasks: ts}
	}
	tab := Build([]Entry{e(0, "a", "t1", "t2", "t3"), e(1, "b", "u1"), e(2, "c", "t2"), e(3, "d", "t2", "t3")}, Options{})
	if p := tab.Partner(0); p != 3 {
		t.Errorf("partner of a: %d (%s), want d", p, tab.Columns[max(p, 0)].Label)
	}
	rows := tab.Visible(View{})
	if i := tab.FirstShared(rows, 0, 3); i < 0 || tab.Rows[rows[i]].Task != "t2" {
		t.Errorf("first shared row %d", i)
	}
	if p := Build([]Entry{e(0, "a", "t1"), e(1, "b", "u1")}, Options{}).Partner(0); p != -1 {
		t.Errorf("no shared task: partner %d", p)
	}
}
