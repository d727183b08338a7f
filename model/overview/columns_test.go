package overview

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"evalview/model"
)

// labelsOf are the table's column labels.
func labelsOf(t *Table) []string {
	var out []string
	for _, c := range t.Columns {
		out = append(out, c.Label)
	}
	return out
}

// TestOneModelManyInvocations: one model that ran 70 tasks one
// invocation each, ten of them twice (issue 29: "230 tasks × 108
// columns", a first screen of "–"), is one column with every cell
// filled, the re-run ones marked and showing the later run.
func TestOneModelManyInvocations(t *testing.T) {
	var es []Entry
	for i := range 70 {
		run := fmt.Sprintf("2026-01-%02dT10-00-00.000001", 1+i%28)
		es = append(es, Entry{Dataset: len(es), Model: "google/gemma-2b", Run: run,
			Tasks: []Task{task(fmt.Sprintf("task_%d", i), nil, fig("acc", "none", 0.25))}})
	}
	for i := range 10 { // run again, later
		es = append(es, Entry{Dataset: len(es), Model: "google/gemma-2b", Run: "2026-02-01T10-00-00.000001",
			Tasks: []Task{task(fmt.Sprintf("task_%d", i*7), nil, fig("acc", "none", 0.5))}})
	}
	tab := Build(es, Options{})
	if len(tab.Columns) != 1 || len(tab.Rows) != 70 {
		t.Fatalf("%d columns × %d rows", len(tab.Columns), len(tab.Rows))
	}
	if c := tab.Columns[0]; c.Label != "gemma-2b" || c.Runs != 29 || c.Tasks != 70 {
		t.Errorf("column %+v", c)
	}
	reruns := 0
	for _, r := range tab.Rows {
		c := r.Cells[0]
		if !c.HasFigure {
			t.Errorf("%s: empty cell", r.Task)
		}
		if len(c.Runs) > 1 {
			reruns++
			if c.Figure.Value != 0.5 || !strings.HasSuffix(c.ValueText(false), RerunMark) {
				t.Errorf("%s: the later run is not shown: %+v", r.Task, c)
			}
		}
	}
	if reruns != 10 {
		t.Errorf("%d cells marked as run again, want 10", reruns)
	}
}

// TestManyRunsOneModel: 14 runs of one model, each of other tasks, are
// one column, not 14 with one filled cell each.
func TestManyRunsOneModel(t *testing.T) {
	var es []Entry
	for i := range 14 {
		es = append(es, Entry{Dataset: i, Model: "m", Run: fmt.Sprintf("2026-01-01T10-%02d-00.0", i),
			Tasks: []Task{task(fmt.Sprintf("t%d", i), nil, fig("acc", "none", 0.5))}})
	}
	tab := Build(es, Options{})
	if len(tab.Columns) != 1 {
		t.Fatalf("%d columns", len(tab.Columns))
	}
	for _, r := range tab.Rows {
		if c := r.Cells[0]; !c.HasFigure || strings.Contains(c.Note, "not run") {
			t.Errorf("%s: %+v", r.Task, c)
		}
	}
}

// sweep is n results files of one model that differ in one setting,
// in the order given; their runs' times unknown (the Pythia suite's
// files name none).
func sweep(name string, key string, vals []string) []Entry {
	var es []Entry
	for i, v := range vals {
		es = append(es, Entry{Dataset: i, Model: name, Path: fmt.Sprintf("/evals/%d.json", i),
			Config: []model.Fact{{Key: "use_accelerate", Value: "True"}, {Key: key, Value: v}},
			Tasks: []Task{task("arc_easy", nil, fig("acc", "none", float64(i)/100)),
				task("piqa", nil, fig("acc", "none", 0.5))}})
	}
	return es
}

// TestCheckpointSweep: 27 checkpoints of one model (revision=stepN in
// model_args, given in file-name order) are 27 columns labelled by
// their checkpoints, ordered as numbers; they were 27 columns labelled
// "#2 … #27" in file-name order.
func TestCheckpointSweep(t *testing.T) {
	steps := []string{"0", "1", "1000", "103000", "113000", "123000", "128", "13000", "133000", "143000", "16", "2",
		"23000", "256", "3000", "32", "33000", "4", "43000", "512", "53000", "63000", "64", "73000", "8", "83000", "93000"}
	vals := make([]string, len(steps))
	for i, s := range steps {
		vals[i] = "step" + s
	}
	tab := Build(sweep("EleutherAI/pythia-v1.1-160m", "revision", vals), Options{})
	want := []string{"step0", "step1", "step2", "step4", "step8", "step16", "step32", "step64", "step128", "step256",
		"step512", "step1000", "step3000", "step13000", "step23000", "step33000", "step43000", "step53000", "step63000",
		"step73000", "step83000", "step93000", "step103000", "step113000", "step123000", "step133000", "step143000"}
	if got := labelsOf(tab); !reflect.DeepEqual(got, want) {
		t.Errorf("labels %q", got)
	}
	c := tab.Columns[11]
	if c.Name() != "EleutherAI/pythia-v1.1-160m revision=step1000" || c.Tail != "step1000" || c.Runs != 1 {
		t.Errorf("column %+v, name %q", c, c.Name())
	}
	// Each column holds its own checkpoint's values.
	for ci, col := range tab.Columns {
		e := tab.Entries[tab.Rows[0].Cells[ci].Entry]
		if v, _ := factValue(e.Config, "revision"); "revision="+v != col.Settings() {
			t.Errorf("column %s shows %s's cell", col.Label, v)
		}
	}
}

// TestSteeringSweep: 123 runs of one model, each with its own steering
// vector (steer_path differs), were 123 columns all labelled with the
// model and a time; they are labelled by the part of the path that
// differs.
func TestSteeringSweep(t *testing.T) {
	var vals []string
	for i := range 123 {
		vals = append(vals, fmt.Sprintf("/scratch/u1/steer/llama3_layer%d_alpha%.1f.pt", 10+i%3, float64(i/3)/2))
	}
	es := sweep("meta-llama/Llama-3.1-8B", "steer_path", vals)
	for i := range es {
		es[i].Run = fmt.Sprintf("2026-03-01T%02d-%02d-00.0", i/60, i%60)
	}
	tab := Build(es, Options{})
	if len(tab.Columns) != 123 {
		t.Fatalf("%d columns", len(tab.Columns))
	}
	labels := labelsOf(tab)
	if labels[0] != "layer10_alpha0.0" || labels[1] != "layer10_alpha0.5" || labels[3] != "layer10_alpha1.5" {
		t.Errorf("labels %q", labels[:6])
	}
	if distinct(labels) != 123 {
		t.Errorf("%d distinct labels", distinct(labels))
	}
}

// TestConfigurationSweep: runs of one model with and without a chat
// template, at two n-shots set per task (the harness writes num_fewshot
// in each task's n-shot since v0.4), and with a dtype one run left
// unset.
func TestConfigurationSweep(t *testing.T) {
	nshot := func(n string) []model.Fact { return []model.Fact{{Key: "num_fewshot", Value: n}} }
	chat := []model.Fact{{Key: "chat_template", Value: "3f2a9c1d0b"}}
	es := []Entry{
		{Dataset: 0, Model: "m", Run: "2026-01-01T10-00-00.0", Tasks: []Task{{Name: "a", Record: -1, Figures: []Figure{fig("acc", "none", 0.1)}, Config: nshot("0")}}},
		{Dataset: 1, Model: "m", Run: "2026-01-01T11-00-00.0", Tasks: []Task{{Name: "a", Record: -1, Figures: []Figure{fig("acc", "none", 0.2)}, Config: nshot("5")}}},
		{Dataset: 2, Model: "m", Run: "2026-01-01T12-00-00.0", Config: chat, Tasks: []Task{{Name: "a", Record: -1, Figures: []Figure{fig("acc", "none", 0.3)}, Config: nshot("5")}}},
		// b only ever ran at 5-shot, its default: it joins 5-shot.
		{Dataset: 3, Model: "m", Run: "2026-01-01T13-00-00.0", Tasks: []Task{{Name: "b", Record: -1, Figures: []Figure{fig("acc", "none", 0.4)}, Config: nshot("5")}}},
	}
	tab := Build(es, Options{})
	if got := labelsOf(tab); !reflect.DeepEqual(got, []string{"0-shot", "5-shot", "5-shot chat"}) {
		t.Fatalf("labels %q", got)
	}
	b := tab.Rows[tab.RowIndex("b")]
	if !b.Cells[1].HasFigure || b.Cells[0].HasFigure {
		t.Errorf("b: %+v", b.Cells)
	}
	if n := b.Cells[0].Note; n != "not run in this configuration; the model ran it in 5-shot" {
		t.Errorf("note %q", n)
	}
	// A model that left every task at its own default n-shot is one
	// column, not one per n-shot.
	es = []Entry{
		{Dataset: 0, Model: "m", Run: "2026-01-01T10-00-00.0", Tasks: []Task{{Name: "mmlu", Record: -1, Figures: []Figure{fig("acc", "none", 0.1)}, Config: nshot("5")}}},
		{Dataset: 1, Model: "m", Run: "2026-01-01T11-00-00.0", Tasks: []Task{{Name: "hellaswag", Record: -1, Figures: []Figure{fig("acc", "none", 0.2)}, Config: nshot("0")}}},
	}
	if tab := Build(es, Options{}); len(tab.Columns) != 1 {
		t.Errorf("tasks at their defaults: %q", labelsOf(tab))
	}
	// Settings that differ in how a run ran, not what it evaluated, are
	// the loaders' to leave out; a setting one run states and another
	// does not splits them, said as unset.
	es = []Entry{
		{Dataset: 0, Model: "m", Config: []model.Fact{{Key: "dtype", Value: "bfloat16"}}, Run: "2026-01-01T10-00-00.0", Tasks: []Task{task("a", nil, fig("acc", "none", 0.1))}},
		{Dataset: 1, Model: "m", Run: "2026-01-01T11-00-00.0", Tasks: []Task{task("a", nil, fig("acc", "none", 0.2))}},
	}
	if got := labelsOf(Build(es, Options{})); !reflect.DeepEqual(got, []string{"dtype unset", "bfloat16"}) {
		t.Errorf("labels %q", got)
	}
}

// TestHideEmpty: rows and columns without any value are left out unless
// asked for, and counted.
func TestHideEmpty(t *testing.T) {
	es := []Entry{
		{Dataset: 0, Model: "a", Tasks: []Task{task("t", nil, fig("acc", "none", 0.5)), task("nothing", nil)}},
		{Dataset: 1, Model: "b", Tasks: []Task{task("nothing", nil)}},
		{Dataset: 2, Model: "c", Tasks: []Task{task("u", []string{"g"}, fig("acc", "none", 0.5)), task("v", []string{"g"})}},
	}
	tab := Build(es, Options{})
	if got := labelsOf(tab); !reflect.DeepEqual(got, []string{"a", "c"}) || tab.HiddenColumns != 1 {
		t.Errorf("columns %q, %d hidden", got, tab.HiddenColumns)
	}
	if got := taskNames(tab, tab.Visible(View{})); got != "g| u|t" || tab.HiddenRows != 2 {
		t.Errorf("rows %q, %d hidden", got, tab.HiddenRows)
	}
	if g := tab.Rows[tab.RowIndex("g")]; len(g.Children) != 1 || tab.Rows[g.Children[0]].Task != "u" || tab.Rows[g.Children[0]].Parent != tab.RowIndex("g") {
		t.Errorf("the group's tree: %+v", g)
	}
	all := Build(es, Options{ShowEmpty: true})
	if len(all.Columns) != 3 || len(all.Rows) != 5 || all.HiddenRows != 0 || all.HiddenColumns != 0 {
		t.Errorf("shown: %d columns, %d rows", len(all.Columns), len(all.Rows))
	}
	// A column keeps its key, and a row its name, across the two.
	if all.ColumnIndex(tab.Columns[1].Key) != 2 || all.RowIndex("u") < 0 {
		t.Errorf("keys: %q", tab.Columns[1].Key)
	}
}

// TestUnknownRunBesideStamped: a run whose time is unknown that holds a
// task a stamped run of its configuration holds is not taken for older
// or newer: it is a column of its own.
func TestUnknownRunBesideStamped(t *testing.T) {
	es := []Entry{
		{Dataset: 0, Model: "m", Run: "2026-01-01T10-00-00.0", Tasks: []Task{task("a", nil, fig("acc", "none", 0.1))}},
		{Dataset: 1, Model: "m", Tasks: []Task{task("a", nil, fig("acc", "none", 0.2))}},
		{Dataset: 2, Model: "m", Tasks: []Task{task("b", nil, fig("acc", "none", 0.3))}},
	}
	tab := Build(es, Options{})
	if got := labelsOf(tab); !reflect.DeepEqual(got, []string{"m", "m #2"}) {
		t.Fatalf("labels %q", got)
	}
	if c := tab.Rows[0].Cells; c[0].Entry != 0 || c[1].Entry != 1 || tab.Rows[1].Cells[0].Entry != 2 {
		t.Errorf("cells %+v", tab.Rows)
	}
}

func TestTrimCommon(t *testing.T) {
	cases := []struct{ in, want []string }{
		{[]string{"step1000", "step2000"}, []string{"step1000", "step2000"}},
		{[]string{"vectors/llama_alpha3.0.pt", "vectors/llama_alpha1.5.pt"}, []string{"alpha3.0", "alpha1.5"}},
		{[]string{"/ckpt/run_a/epoch_20/model", "/ckpt/run_a/epoch_5/model"}, []string{"epoch_20", "epoch_5"}},
		{[]string{"out/checkpoint-1000", "out/checkpoint-200"}, []string{"checkpoint-1000", "checkpoint-200"}},
		{[]string{"a/run1/step100", "a/run2/step200"}, []string{"run1/step100", "run2/step200"}},
		{[]string{"bfloat16", "float16"}, []string{"bfloat16", "float16"}},
		{[]string{"../adapters/x"}, []string{"x"}},
	}
	for _, c := range cases {
		if got := trimCommon(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("trimCommon(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestNatCompare: task names and settings' values order naturally,
// numbers by value (settings' with their decimals), exactly however
// long; on names without a decimal point the two orders are one.
func TestNatCompare(t *testing.T) {
	for _, c := range [][2]string{{"alpha1.25", "alpha1.5"}, {"alpha1.5", "alpha2"}, {"alpha2", "alpha10.0"}, {"step128", "step1000"}, {"step0", "step1"},
		{"x1.5", "x1.55"}, {"v12345678901234567890", "v12345678901234567891"}} {
		if natCompareDec(c[0], c[1]) >= 0 || natCompareDec(c[1], c[0]) <= 0 {
			t.Errorf("%s before %s", c[0], c[1])
		}
	}
	for _, c := range [][2]string{{"1.50", "1.5"}, {"007", "7"}} {
		if natCompareDec(c[0], c[1]) != 0 {
			t.Errorf("%s and %s are one number", c[0], c[1])
		}
	}
	names := []string{"bbh_2", "bbh_10", "bbh_1", "bbh", "a10b2", "a10b10", "a9", "mmlu_0", "mmlu_00",
		"v18446744073709551616", "v18446744073709551617", "v99", "x.1", "x1", "", "_"}
	for _, a := range names {
		for _, b := range names {
			if ca, cb := sign(natCompare(a, b)), sign(natCompareDec(a, b)); ca != cb {
				t.Errorf("%q vs %q: natCompare %d, natCompareDec %d", a, b, ca, cb)
			}
		}
	}
	if natCompare("bbh_2", "bbh_10") >= 0 || natCompare("v18446744073709551616", "v18446744073709551617") >= 0 {
		t.Error("digit runs compare as numbers")
	}
}

func sign(c int) int {
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}

// TestWorstOnOneScale: a model's worst task is the lowest share (an
// accuracy), not a BLEU of 1.06 out of 100 nor an mcc just below 0.
func TestWorstOnOneScale(t *testing.T) {
	tab := Build([]Entry{{Dataset: 0, Model: "m", Tasks: []Task{
		task("cola", nil, fig("mcc", "none", -0.0005)),
		task("mafand", nil, fig("bleu", "none", 0.0002)),
		task("flores", nil, fig("bleu", "none", 8.19)),
		task("arc", nil, fig("acc", "none", 0.42)),
		task("piqa", nil, fig("acc", "none", 0.71)),
	}}}, Options{})
	if w := tab.Worst(0); w < 0 || tab.Rows[w].Task != "arc" {
		t.Errorf("worst %d", w)
	}
}

// TestHarnessSplits: one model evaluated by two harnesses (an lm-eval
// run beside a lighteval one) is two columns, labelled by the harness,
// the settings one of them leaves unset left out of the labels.
func TestHarnessSplits(t *testing.T) {
	es := []Entry{
		{Dataset: 0, Kind: model.KindLMEval, Model: "acme/tiny-1b", Run: "2025-11-03T10-00-00.0",
			Config: []model.Fact{{Key: "dtype", Value: "bfloat16"}, {Key: "limit", Value: "10.0"}}, Tasks: []Task{task("arc_easy", nil, fig("acc", "none", 0.8))}},
		{Dataset: 1, Kind: model.KindLighteval, Model: "acme/tiny-1b", Run: "2025-07-05T09-59-00.1", Tasks: []Task{task("arc:challenge|0", nil, fig("acc", "", 0.5))}},
	}
	if got := labelsOf(Build(es, Options{})); !reflect.DeepEqual(got, []string{"lighteval", "lm-eval"}) {
		t.Errorf("labels %q", got)
	}
}
