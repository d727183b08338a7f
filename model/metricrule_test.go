package model

import (
	"math"
	"strings"
	"testing"

	"evalview/model/lmmetrics"
)

// TestMetricRules: each aggregation takes the row shapes the harness
// gives it and says why not otherwise.
func TestMetricRules(t *testing.T) {
	pair := func(a, b string) RowValue { return RowValue{Labels: []string{a, b}} }
	cases := []struct {
		rule   MetricRule
		nums   []float64
		values []RowValue
		want   float64
		note   string
	}{
		{MetricRule{Name: "acc", Aggregation: "mean"}, []float64{1, 0, 1, 1}, nil, 0.75, ""},
		{MetricRule{Name: "f1", Aggregation: "f1"}, nil, []RowValue{pair("1", "1"), pair("0", "1")}, 2.0 / 3, ""},
		{MetricRule{Name: "f1", Aggregation: "f1"}, []float64{0.5}, nil, 0, "not all hold [gold, pred]"},
		{MetricRule{Name: "bleu", Aggregation: "bleu"}, nil, []RowValue{pair("a", "b")}, 0, "corpus-level, not recomputed"},
		{MetricRule{Name: "acc", Aggregation: "mean"}, []float64{1}, []RowValue{{Nums: []float64{1}}}, 0, "hold a number and"},
		{RuleFromFunction("x", "def my_agg(items):\n    return 1\n"), []float64{1}, nil, 0, "own function (my_agg)"},
		{RuleFromFunction("inst_level_loose_acc", "def agg_inst_level_acc(items):\n"), nil, []RowValue{{Nums: []float64{1, 0}}, {Nums: []float64{1}}}, 2.0 / 3, ""},
		{MetricRule{Name: "x", Aggregation: "bypass"}, []float64{1}, nil, 0, "999"},
	}
	for _, c := range cases {
		v, _, _, note := c.rule.Apply(c.nums, c.values)
		if c.note == "" && (note != "" || v != c.want) || c.note != "" && !strings.Contains(note, c.note) {
			t.Errorf("%+v: %v, %q; want %v, %q", c.rule, v, note, c.want, c.note)
		}
	}
	if DefaultAggregation("word_perplexity") != "weighted_perplexity" || DefaultAggregation("mcc") != "matthews_corrcoef" || DefaultAggregation("exact_match") != "mean" {
		t.Error("default aggregations")
	}
}

// TestRuleFromF1Functions: a task's own f1 aggregation is recognised from
// its source in either quote style (kobest, aradice), or from its name in
// the "<function NAME at 0x...>" configs of v0.4.0; the weighted average
// too. Values from sklearn's f1_score documentation.
func TestRuleFromF1Functions(t *testing.T) {
	g := []string{"0", "1", "2", "0", "1", "2"}
	p := []string{"0", "2", "1", "0", "0", "1"}
	var pairs []RowValue
	for i := range g {
		pairs = append(pairs, RowValue{Labels: []string{g[i], p[i]}})
	}
	for _, c := range []struct {
		src, agg string
		want     float64
	}{
		{"def macro_f1_score(items):\n    fscore = f1_score(golds, preds, average=\"macro\")\n", "macro_f1", 0.8 / 3},
		{"def f(items):\n    return f1_score(golds, preds, average = 'micro')\n", "micro_f1", 1.0 / 3},
		{"def weighted_f1_score(items):\n    fscore = f1_score(golds, preds, average=\"weighted\")\n", "weighted_f1", 0.8 / 3},
		{"<function macro_f1_score at 0x7f3a2c1b5e10>", "macro_f1", 0.8 / 3},
		{"<function weighted_f1_score at 0x7f3a2c1b5e10>", "weighted_f1", 0.8 / 3},
	} {
		r := RuleFromFunction("f1", c.src)
		v, n, agg, note := r.Apply(nil, pairs)
		if agg != c.agg || note != "" || n != 6 || math.Abs(v-c.want) > 1e-12 {
			t.Errorf("%q: %v %d %q %q, want %v by %s", c.src, v, n, agg, note, c.want, c.agg)
		}
	}
	if r := RuleFromFunction("f1", "<function my_f1 at 0x1>"); r.Aggregation != "custom" {
		t.Errorf("an unknown function by name: %+v", r)
	}
	// f1_score([0, 0, 1, 1, 1], [0, 1, 1, 1, 0], average="weighted"):
	// label 0 f1 1/2 (support 2), label 1 f1 2/3 (support 3) -> 0.6.
	if v := lmmetrics.WeightedF1([]string{"0", "0", "1", "1", "1"}, []string{"0", "1", "1", "1", "0"}); math.Abs(v-0.6) > 1e-12 {
		t.Errorf("weighted f1 %v", v)
	}
}

// TestMissingNoteLFS: a samples file that is a Git LFS pointer says so
// beside each reported metric, not that lm-eval wrote no samples.
func TestMissingNoteLFS(t *testing.T) {
	ds := &Dataset{Kind: KindLMEval, Records: NewMemIndex(nil),
		Metrics: []Metric{{Filter: "none", Name: "acc", Value: 0.59}},
		Issues:  []Issue{Errorf("lfs-pointer", "samples_x.jsonl", 1, "", "Git LFS pointer, not data: run git lfs pull")}}
	cs := RecomputeMetrics(ds)
	if len(cs) != 1 || !strings.Contains(cs[0].Note, "Git LFS pointer") {
		t.Errorf("%+v", cs)
	}
	ds.Issues = nil
	if cs := RecomputeMetrics(ds); !strings.Contains(cs[0].Note, "--log_samples") {
		t.Errorf("without samples: %+v", cs)
	}
}
