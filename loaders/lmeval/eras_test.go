package lmeval

import (
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"evalview/model"
)

// Fixtures modelled on the logs of each harness era (issue 14): each test
// names the class of real file its fixture reproduces.

// byTask opens dir and returns its datasets by task.
func byTask(t *testing.T, dir string) map[string]*model.Dataset {
	t.Helper()
	dss, err := Open("../../testdata/lmeval/" + dir)
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	out := map[string]*model.Dataset{}
	for _, ds := range dss {
		out[ds.Task] = ds
	}
	return out
}

// comparisons returns ds's recomputed metrics by "filter metric".
func comparisons(ds *model.Dataset) map[string]model.MetricComparison {
	out := map[string]model.MetricComparison{}
	for _, c := range model.RecomputeMetrics(ds) {
		out[c.Filter+" "+c.Name] = c
	}
	return out
}

// allIssues is what check reports for ds: its issues, every record's and
// the deep check's.
func allIssues(t *testing.T, ds *model.Dataset) []model.Issue {
	t.Helper()
	is, err := ds.AllIssues()
	if err != nil {
		t.Fatal(err)
	}
	if ds.Deep != nil {
		is = append(is, deep(t, ds).Issues...)
	}
	return is
}

// TestRowsWithoutFilterKey: v0.4.5 rows (no "filter", no "metrics") of a
// two-filter task, gathered from two ranks, are attributed to the config's
// filters in filter_list order; every reported metric is compared, the
// deep check runs, no row is thrown away, and one note says so.
func TestRowsWithoutFilterKey(t *testing.T) {
	ds := byTask(t, "v0.4.5_two_filters")["gsm8k"]
	if want := []string{"strict-match", "flexible-extract"}; !reflect.DeepEqual(ds.Filters, want) {
		t.Fatalf("filters %v, want %v", ds.Filters, want)
	}
	cs := comparisons(ds)
	for _, k := range []string{"strict-match exact_match", "flexible-extract exact_match"} {
		c := cs[k]
		if !c.HasSamples || !c.HasReport || c.Differs() || c.N != 4 {
			t.Errorf("%s: %+v", k, c)
		}
	}
	if cs["strict-match exact_match"].Samples != 0.5 || cs["flexible-extract exact_match"].Samples != 0.75 {
		t.Errorf("recomputed %v and %v, want 0.5 and 0.75", cs["strict-match exact_match"].Samples, cs["flexible-extract exact_match"].Samples)
	}
	issues := allIssues(t, ds)
	e, w := model.CountIssues(issues)
	if e != 0 || w != 0 || model.CountNotes(issues) != 1 {
		t.Fatalf("issues %v", issues)
	}
	note := issues[0]
	if note.Code != "filter-inferred" || !strings.Contains(note.Message, `"strict-match", "flexible-extract"`) || !strings.Contains(note.Message, "8 rows") {
		t.Errorf("note %+v", note)
	}
	if !strings.Contains(ds.Fact("filters"), "filter_list") {
		t.Errorf("no header fact on the inferred filters: %v", ds.Facts)
	}
	// Records come in file order: docs 0 and 2 (rank 0), then 1 and 3.
	// Doc 1 has strict-match [invalid] and flexible-extract $10.
	var ids []string
	for i := 0; i < ds.Records.Len(); i++ {
		ids = append(ids, ds.Records.Summary(i).ID)
	}
	if strings.Join(ids, " ") != "0 2 1 3" {
		t.Fatalf("record order %v", ids)
	}
	rec, err := ds.Records.Record(2)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Filters) != 2 || rec.Filters[0].Answer != "[invalid]" || rec.Filters[1].Answer != "$10" {
		t.Errorf("doc 1 rows: %+v", rec.Filters)
	}
	if rep := deep(t, ds); len(rep.Issues) != 0 {
		t.Errorf("deep check: %v", rep.Issues)
	}
}

// TestRowsWithoutFilterKeyNoResults: without a results file the rows
// stay under "none", the doc's second row is a duplicate, and the note
// says why nothing was inferred.
func TestRowsWithoutFilterKeyNoResults(t *testing.T) {
	dss, err := Open("../../testdata/lmeval/v0.4.5_two_filters/samples_gsm8k_2024-10-20T09-15-30.123456.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// The folder's results file is found as a companion: take it away.
	r := (*results)(nil)
	ds, err := samplesDataset(dss[0].Path, r, false)
	if err != nil {
		t.Fatal(err)
	}
	settle([]*model.Dataset{ds}, false)
	if !reflect.DeepEqual(ds.Filters, []string{"none"}) {
		t.Errorf("filters %v", ds.Filters)
	}
	var codes []string
	for _, is := range ds.Issues {
		codes = append(codes, is.Code)
	}
	if !strings.Contains(strings.Join(codes, " "), "filter-inferred") || !strings.Contains(ds.Issues[len(ds.Issues)-1].Message+ds.Issues[0].Message, "no results file") {
		t.Errorf("issues %v", ds.Issues)
	}
}

// TestNonFiniteMetrics: a regression task's mae of Infinity, in the rows
// and in the results file (with a NaN stderr), reads; the mean over the
// rows is Infinity, as Python's is, and agrees with the reported one.
func TestNonFiniteMetrics(t *testing.T) {
	ds := byTask(t, "regression_infinity")["korsts_reg"]
	c := comparisons(ds)["none mae"]
	if !c.HasSamples || !math.IsInf(c.Samples, 1) || !math.IsInf(c.Reported, 1) || !math.IsNaN(c.Stderr) || c.N != 3 || c.Differs() {
		t.Errorf("mae %+v", c)
	}
	if e, w := model.CountIssues(allIssues(t, ds)); e+w != 0 {
		t.Errorf("%d errors, %d warnings", e, w)
	}
	if s := ds.Records.Summary(1); len(s.Outcomes) != 1 || !math.IsInf(s.Outcomes[0].Metrics[0].Value, 1) {
		t.Errorf("doc 1: %+v", s.Outcomes)
	}
}

// TestClassificationMetrics: f1 and mcc rows hold [gold, pred]; they are
// read (no metric-missing) and recomputed as sklearn does, in a v0.4.9
// file (mrpc) and a v0.4.5 one without "metrics" (cola).
func TestClassificationMetrics(t *testing.T) {
	dss := byTask(t, "classification_f1_mcc")
	for task, want := range map[string]map[string]float64{
		"mrpc": {"none acc": 0.6, "none f1": 2.0 / 3},
		"cola": {"none mcc": 1.0 / 3},
	} {
		ds := dss[task]
		cs := comparisons(ds)
		for k, v := range want {
			c := cs[k]
			if !c.HasSamples || math.Abs(c.Samples-v) > 1e-12 || c.Differs() {
				t.Errorf("%s %s: %+v, want %v", task, k, c, v)
			}
		}
		if e, w := model.CountIssues(allIssues(t, ds)); e+w != 0 {
			t.Errorf("%s: %d errors, %d warnings", task, e, w)
		}
	}
	rec, _ := dss["mrpc"].Records.Record(0)
	if len(rec.Filters[0].Values) != 1 || !reflect.DeepEqual(rec.Filters[0].Values[0].Labels, []string{"1", "1"}) {
		t.Errorf("mrpc doc 0 f1 value: %+v", rec.Filters[0].Values)
	}
}

// TestIfevalMetrics: booleans and per-instruction lists; inst_level_*
// use the task's own aggregation (agg_inst_level_acc, dumped as source),
// recomputed; the deep check does not "re-extract" the whole response.
func TestIfevalMetrics(t *testing.T) {
	ds := byTask(t, "ifeval")["leaderboard_ifeval"]
	cs := comparisons(ds)
	for k, v := range map[string]float64{"none prompt_level_strict_acc": 0.25, "none inst_level_strict_acc": 5.0 / 8, "none prompt_level_loose_acc": 0.5, "none inst_level_loose_acc": 0.75} {
		if c := cs[k]; !c.HasSamples || c.Samples != v || c.Differs() {
			t.Errorf("%s: %+v, want %v", k, c, v)
		}
	}
	if cs["none inst_level_strict_acc"].Aggregation != "inst_level_mean" {
		t.Errorf("aggregation %q", cs["none inst_level_strict_acc"].Aggregation)
	}
	rec, _ := ds.Records.Record(1)
	for _, a := range rec.Attempts {
		if len(a.Extractions) > 0 {
			t.Errorf("ifeval attempt re-extracted: %+v", a.Extractions)
		}
	}
	if e, w := model.CountIssues(allIssues(t, ds)); e+w != 0 {
		t.Errorf("%d errors, %d warnings", e, w)
	}
}

// TestPerplexityMetrics: loglikelihood_rolling pairs aggregate weighted
// (word and byte perplexity, bits per byte), lambada's perplexity as
// exp(-mean); v0.4.12's name and sample_len are not metrics.
func TestPerplexityMetrics(t *testing.T) {
	dss := byTask(t, "perplexity")
	wk := comparisons(dss["wikitext"])
	ll, words, bytes := -250.5-130.25-512.0, 40.0+22+90, 180.0+101+402
	for k, v := range map[string]float64{"none word_perplexity": math.Exp(-ll / words), "none byte_perplexity": math.Exp(-ll / bytes), "none bits_per_byte": -ll / bytes / math.Ln2} {
		if c := wk[k]; !c.HasSamples || math.Abs(c.Samples-v) > 1e-9 || c.Differs() {
			t.Errorf("wikitext %s: %+v, want %v", k, c, v)
		}
	}
	lam := comparisons(dss["lambada_openai"])
	if c := lam["none perplexity"]; !c.HasSamples || math.Abs(c.Samples-math.Exp(5.5/3)) > 1e-9 || c.Differs() {
		t.Errorf("lambada perplexity %+v", c)
	}
	for _, ds := range dss {
		for _, m := range ds.Metrics {
			if m.Name == "sample_len" || m.Name == "name" {
				t.Errorf("%s: %q read as a metric", ds.Task, m.Name)
			}
		}
	}
}

// TestCorpusLevelNotRecomputed: bleu, chrf and ter rows are read, and
// each metric says why it is not recomputed, in summary and the header.
func TestCorpusLevelNotRecomputed(t *testing.T) {
	ds := byTask(t, "translation_bleu")["wmt16_de_en"]
	for _, m := range []string{"bleu", "chrf", "ter"} {
		c := comparisons(ds)["none "+m]
		if c.HasSamples || c.N != 2 || !strings.HasPrefix(c.Note, "corpus-level, not recomputed") || !strings.Contains(c.Note, "sacrebleu") {
			t.Errorf("%s: %+v", m, c)
		}
		if !strings.Contains(ds.Fact("metric "+m+",none"), "corpus-level") {
			t.Errorf("%s: no header fact", m)
		}
	}
	if e, w := model.CountIssues(allIssues(t, ds)); e+w != 0 {
		t.Errorf("%d errors, %d warnings", e, w)
	}
}

// TestGroupAggregates: nested mmlu groups weighted by size, wmdp by plain
// mean, a group row without metrics (leaderboard_bbh) not compared.
func TestGroupAggregates(t *testing.T) {
	dss, err := Open("../../testdata/lmeval/groups")
	if err != nil || len(dss) != 1 {
		t.Fatal(dss, err)
	}
	got := map[string]model.GroupComparison{}
	for _, g := range dss[0].Groups {
		got[g.Group] = g
	}
	for g, weighted := range map[string]bool{"mmlu": true, "mmlu_stem": true, "mmlu_other": true, "wmdp": false} {
		c := got[g]
		if !c.HasRecomputed || c.Recomputed != c.Reported || c.WeightBySize != weighted || c.Note != "" || !c.HasPooledStderr || math.Abs(c.PooledStderr-c.Stderr) > 1e-12 {
			t.Errorf("%s: %+v", g, c)
		}
	}
	if got["mmlu"].Subtasks != 4 || got["wmdp"].Subtasks != 3 {
		t.Errorf("subtasks: mmlu %d, wmdp %d", got["mmlu"].Subtasks, got["wmdp"].Subtasks)
	}
	if _, ok := got["leaderboard_bbh"]; ok {
		t.Error("leaderboard_bbh reports no metric: nothing to compare")
	}
}

// TestNoFileVanishes: in a folder, a samples file whose rows lack doc_id
// and one pretty-printed over several lines are datasets with their
// issues, not dropped; no task-missing.
func TestNoFileVanishes(t *testing.T) {
	dss := byTask(t, "folder_odd_files")
	if len(dss) != 3 {
		t.Fatalf("%d datasets: %v", len(dss), dss)
	}
	for task, want := range map[string]string{"arc_easy": "missing-field", "boolq": "pretty-printed", "piqa": ""} {
		ds := dss[task]
		if ds == nil || ds.Records.Len() != 3 {
			t.Fatalf("%s: %v", task, ds)
		}
		var codes []string
		for _, is := range allIssues(t, ds) {
			codes = append(codes, is.Code)
		}
		if want == "" && len(codes) > 0 || want != "" && !strings.Contains(strings.Join(codes, " "), want) {
			t.Errorf("%s: issues %v, want %q", task, codes, want)
		}
		if strings.Contains(strings.Join(codes, " "), "task-missing") {
			t.Errorf("%s: task-missing with every samples file there", task)
		}
		if c := comparisons(ds)["none acc"]; !c.HasSamples || c.Differs() {
			t.Errorf("%s: acc %+v", task, c)
		}
	}
	if filepath.Base(dss["arc_easy"].Path) != "samples_arc_easy_2025-07-07T07-07-07.000007.jsonl" {
		t.Error(dss["arc_easy"].Path)
	}
}

// TestGroupsBeforeV043: v0.4.1 results (no group_subtasks, no n-samples)
// get their group tree from the aliases' indentation, and every group is
// on the run's dataset even when no samples file is under it; v0.4.2
// (group_subtasks, no n-samples) the same. Without sample counts, a group
// whose plain mean is not the reported value is not recomputed (the
// harness weighed by size): never a false DIFFERS.
func TestGroupsBeforeV043(t *testing.T) {
	for _, dir := range []string{"v0.4.1_groups", "v0.4.2_groups"} {
		dss, err := Open("../../testdata/lmeval/" + dir)
		if err != nil || len(dss) != 1 {
			t.Fatal(dir, dss, err)
		}
		got := map[string]model.GroupComparison{}
		for _, g := range dss[0].Groups {
			got[g.Group] = g
		}
		if len(got) != 3 {
			t.Fatalf("%s: groups %v", dir, dss[0].Groups)
		}
		for g, subtasks := range map[string]int{"mmlu": 4, "mmlu_stem": 2, "mmlu_other": 2} {
			c := got[g]
			if c.Subtasks != subtasks || c.Differs() {
				t.Errorf("%s %s: %+v", dir, g, c)
			}
			fromAliases := strings.Contains(c.Note, "alias indentation")
			if fromAliases != (dir == "v0.4.1_groups") {
				t.Errorf("%s %s: note %q", dir, g, c.Note)
			}
		}
		if c := got["mmlu_other"]; !c.HasRecomputed || c.Recomputed != 0.75 {
			t.Errorf("%s mmlu_other: equal sizes, the plain mean is the weighted one: %+v", dir, c)
		}
		for _, g := range []string{"mmlu", "mmlu_stem"} {
			if c := got[g]; c.HasRecomputed || !strings.Contains(c.Note, "before v0.4.3 weighs each subtask by its sample count") {
				t.Errorf("%s %s: %+v", dir, g, c)
			}
		}
	}
}

// TestLowerIsBetterPassesNothing: a regression task's main metric, mae
// (higher_is_better false), scores each row but passes or fails none: a
// perfect prediction (mae 0) is no "fail", a miss (mae 0.5) no "pass".
func TestLowerIsBetterPassesNothing(t *testing.T) {
	ds := byTask(t, "regression_infinity")["korsts_reg"]
	for i := 0; i < ds.Records.Len(); i++ {
		s := ds.Records.Summary(i)
		if s.Status != model.StatusUnscored || !s.HasScore && i != 1 {
			t.Errorf("doc %d: status %v, score %v (%v)", i, s.Status, s.Score, s.HasScore)
		}
		rec, err := ds.Records.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rec.Filters {
			if f.Status != model.StatusUnscored {
				t.Errorf("doc %d filter %s: status %v", i, f.Filter, f.Status)
			}
		}
	}
}

// TestKobestMacroF1: kobest_boolq (v0.4.5, Korean, rows without "filter")
// logs f1 as [gold, pred] and aggregates it with its own macro_f1_score
// (sklearn f1_score average="macro"): recomputed and compared.
func TestKobestMacroF1(t *testing.T) {
	ds := byTask(t, "kobest_macro_f1")["kobest_boolq"]
	cs := comparisons(ds)
	for k, want := range map[string]float64{"none acc": 0.6, "none f1": (0.5 + 2.0/3) / 2} {
		c := cs[k]
		if !c.HasSamples || c.Differs() || c.N != 5 || math.Abs(c.Samples-want) > 1e-12 {
			t.Errorf("%s: %+v, want %v", k, c, want)
		}
	}
	if cs["none f1"].Aggregation != "macro_f1" {
		t.Errorf("f1 aggregation %q", cs["none f1"].Aggregation)
	}
	if e, w := model.CountIssues(allIssues(t, ds)); e+w != 0 {
		t.Errorf("%d errors, %d warnings", e, w)
	}
}

// TestPredictOnly: a --predict_only run logs the metric bypass, None on
// every row and 999 in the results: no metric-missing error, no row
// passes or fails by it, and the report says why it is not compared.
func TestPredictOnly(t *testing.T) {
	ds := byTask(t, "predict_only")["gsm8k"]
	if e, w := model.CountIssues(allIssues(t, ds)); e+w != 0 {
		t.Errorf("%d errors, %d warnings: %v", e, w, allIssues(t, ds))
	}
	for i := 0; i < ds.Records.Len(); i++ {
		if s := ds.Records.Summary(i); s.Status != model.StatusUnscored {
			t.Errorf("doc %d: status %v", i, s.Status)
		}
	}
	c := comparisons(ds)["none bypass"]
	if c.HasSamples || !c.HasReport || c.Reported != 999 || !strings.Contains(c.Note, "aggregation is bypass") {
		t.Errorf("bypass: %+v", c)
	}
}

// TestStatusBasis: a task with its own process_results (ifeval) says its
// ✓ ✗ are that code's verdict; a task scored against its target does not.
func TestStatusBasis(t *testing.T) {
	if b := byTask(t, "ifeval")["leaderboard_ifeval"].StatusBasis; b != "the task's own process_results, as logged" {
		t.Errorf("ifeval: %q", b)
	}
	if b := byTask(t, "two_filters")["gsm8k"].StatusBasis; b != "" {
		t.Errorf("gsm8k: %q", b)
	}
}

// TestDefaultPipelineNoFalseAlarm: without its results file, a task whose
// own filter is named flexible-extract (masakhaner's format_span) is
// re-applied with the gsm8k default for that name, which reproduces none
// of its answers: one note sums that up (its rows as items), no warning
// per row (issue 14; 2232 warnings on a real folder of 13 such files).
func TestDefaultPipelineNoFalseAlarm(t *testing.T) {
	ds := byTask(t, "no_config_own_filter")["masakhaner_luo_prompt_1"]
	// As check gathers them: the index's issues and the deep check's.
	issues := append([]model.Issue(nil), ds.Issues...)
	for i := 0; i < ds.Records.Len(); i++ {
		issues = append(issues, ds.Records.(*index).IndexIssues(i)...)
	}
	issues = append(issues, deep(t, ds).Issues...)
	var codes []string
	for _, is := range issues {
		codes = append(codes, is.Code)
	}
	if e, w := model.CountIssues(issues); e != 0 || w != 1 || model.CountNotes(issues) != 1 {
		t.Fatalf("issues %v", codes)
	}
	for _, is := range issues {
		if is.Code == "reextract-default-differs" && (len(is.Items) != 3 || !strings.Contains(is.Message, "does not reproduce 3 of its logged answers")) {
			t.Errorf("note %+v", is)
		}
	}
	rec, err := ds.Records.Record(2)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Warnings != 0 {
		t.Errorf("record 2: %d warnings, want its disagreement as a note: %v", rec.Warnings, rec.Issues)
	}
}

// TestNoRenamedFileVanishes: in a folder of renamed samples files
// ("_<task>.jsonl", found by content), one whose first row was cut and
// one with no rows at all are datasets with their issues, not left out
// (issue 14 item 3; both were dropped from a real output folder).
func TestNoRenamedFileVanishes(t *testing.T) {
	dss := byTask(t, "folder_renamed_odd")
	want := map[string]struct {
		records int
		code    string
	}{"_winogrande": {2, "bad-json"}, "_cb": {0, "no-samples"}, "_copa": {2, ""}}
	if len(dss) != len(want) {
		t.Fatalf("%d datasets: %v", len(dss), dss)
	}
	for task, w := range want {
		ds := dss[task]
		if ds == nil || ds.Records.Len() != w.records {
			t.Fatalf("%s: %v", task, ds)
		}
		var codes []string
		for _, is := range allIssues(t, ds) {
			if is.Severity != model.SeverityNote {
				codes = append(codes, is.Code)
			}
		}
		if w.code == "" && len(codes) > 0 || w.code != "" && !slices.Contains(codes, w.code) {
			t.Errorf("%s: issues %v, want %q", task, codes, w.code)
		}
	}
}

// TestSamplesInHeadLaterLines: a later line of a file's head counts as a
// samples row only as a first line would. A Prompt Lab testset whose
// step inputs name a "doc_id" is not a samples file (it was opened twice
// in ../shared/data/testset, once with 30 false lm-eval errors); a
// renamed samples file whose first row was cut still is.
func TestSamplesInHeadLaterLines(t *testing.T) {
	testset := `{"id": "a", "inputs": {"q": "x"}, "step_inputs": {"load": {"doc_id": 3}}}` + "\n" +
		`{"id": "b", "inputs": {"q": "y"}, "step_inputs": {"load": {"doc_id": 4}}}` + "\n" +
		`{"id": "c", "inputs": {"q": "z"}}` + "\n"
	if samplesInHead([]byte(testset)) {
		t.Error("a testset with a nested doc_id is taken for a samples file")
	}
	cut := `{"doc_id": 0, "doc": {"question": "Wh` + "\n" +
		`{"doc_id": 1, "doc": {"question": "Why?"}, "target": "1", "arguments": [], "resps": [["1"]], "filtered_resps": ["1"]}` + "\n"
	if !samplesInHead([]byte(cut)) {
		t.Error("a samples file whose first row is cut is not found")
	}
}
