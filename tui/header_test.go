package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders/lmeval"
	"evalview/model"
)

// TestHeaderCountsUnscored: a dataset with nothing scored says how many
// records are unscored instead of "✓0 ✗0"; scored ones keep the glyphs.
func TestHeaderCountsUnscored(t *testing.T) {
	unscored := scoredRunFixture("run-u", []float64{-1, -1})
	for _, c := range []struct {
		ds         *model.Dataset
		want, lack string
	}{
		{unscored, "·4 unscored", "✓0"},
		{scoredRunFixture("run-s", []float64{9, 4, -1}), "✓1 ✗1 ·2", "unscored"},
	} {
		m := newTestModel(t, []*model.Dataset{c.ds}, 100, 30)
		first := strings.SplitN(screen(m), "\n", 2)[0]
		if !strings.Contains(first, c.want) || strings.Contains(first, c.lack) {
			t.Errorf("%s header %q: want %q, not %q", c.ds.Title, first, c.want, c.lack)
		}
	}
}

// TestHeaderCountsScoresWithoutStatus: records that carry a score but no
// pass or fail (results-only subtasks) are not called unscored.
func TestHeaderCountsScoresWithoutStatus(t *testing.T) {
	ds := scoredRunFixture("run-x", []float64{-1, -1})
	ds.Records = model.NewMemIndex([]*model.Record{
		{Summary: model.Summary{ID: "a", Title: "a", Status: model.StatusUnscored, Score: 0.24, HasScore: true}},
		{Summary: model.Summary{ID: "b", Title: "b", Status: model.StatusUnscored}},
	})
	m := newTestModel(t, []*model.Dataset{ds}, 100, 30)
	first := strings.SplitN(screen(m), "\n", 2)[0]
	if !strings.Contains(first, "·1 unscored") || strings.Contains(first, "✓0") {
		t.Errorf("header %q, want only the record without a score counted unscored", first)
	}
}

// TestResultsOnlyHeader: a results file without samples shows its
// metrics in the header; a file of several tasks without a group over
// them says the metrics are per task.
func TestResultsOnlyHeader(t *testing.T) {
	multi := &model.Dataset{Kind: model.KindLMEval, Title: "agieval (results only)",
		Presentation: lmeval.ResultsPresentation(),
		Records:      model.NewMemIndex([]*model.Record{{Summary: model.Summary{ID: "a", Score: 0.2, HasScore: true}}, {Summary: model.Summary{ID: "b", Score: 0.3, HasScore: true}}})}
	m := newTestModel(t, []*model.Dataset{multi}, 100, 30)
	if s := screen(m); !strings.Contains(s, "metrics reported per task") || strings.Contains(s, "no metrics reported") ||
		!strings.Contains(s, " id task") || strings.Contains(s, "question") {
		t.Errorf("multi-task results-only header:\n%s", s)
	}

	dir := filepath.Join("..", "..", "shared", "data", "lm_eval", "results_only")
	for _, c := range []struct{ file, want, column string }{
		{"arc.json", "none acc 0.55 ±0.01 │ none acc_norm 0.61", " acc "},
		{"truthfulqa.json", "none rouge2_max 30.11", " score"},
	} {
		path := filepath.Join(dir, c.file)
		if _, err := os.Stat(path); err != nil {
			t.Skip("../shared data absent")
		}
		dss, err := lmeval.Open(path)
		if err != nil || len(dss) != 1 {
			t.Fatalf("open %s: %d datasets, %v", path, len(dss), err)
		}
		m := newTestModel(t, dss, 100, 30)
		s := screen(m)
		if !strings.Contains(s, c.want) || strings.Contains(s, "no metrics reported") || !strings.Contains(s, c.column) {
			t.Errorf("%s: header lacks %q or the list heading %q:\n%s", c.file, c.want, c.column, s)
		}
	}
}

// issuesAtEnd is an index that adds its dataset's issues when it
// completes, at the length it had (an lm-eval scan's count mismatches).
type issuesAtEnd struct {
	model.Index
	done bool
}

func (x *issuesAtEnd) Done() bool { return x.done }

func (x *issuesAtEnd) SyncDataset(ds *model.Dataset) bool {
	if !x.done {
		return false
	}
	ds.Issues = append(ds.Issues, model.Warnf("count-mismatch", ds.Path, 0, "", "results file reports 1319 samples, file has 6"))
	x.done = false // once
	return true
}

// TestHeaderCountsIssuesAddedAtTheEnd: the header counts the dataset
// issues an index adds when it completes, with no row or filter more.
func TestHeaderCountsIssuesAddedAtTheEnd(t *testing.T) {
	ds := lmevalFixture()
	ds.Issues = nil
	x := &issuesAtEnd{Index: ds.Records}
	ds.Records = x
	m := newTestModel(t, []*model.Dataset{ds}, 100, 30)
	before := strings.Split(screen(m), "\n")[0]
	x.done = true
	send(m, indexTickMsg{})
	after := strings.Split(screen(m), "\n")[0]
	if !strings.Contains(before, "⚠1") || !strings.Contains(after, "⚠2") {
		t.Errorf("title line %q (before %q), want the new warning counted (⚠1, then ⚠2)", after, before)
	}
}

// TestHeaderKeepsCountsWhenNarrow: a run's long title gives way to the
// ✓/✗ counts, the error count and the issue counts at 80 and 60 columns
// (with the dataset switcher), instead of pushing them off the line.
func TestHeaderKeepsCountsWhenNarrow(t *testing.T) {
	run := runValidFixture()
	run.Issues = []model.Issue{{Severity: model.SeverityError, Code: "orphan-score", Message: "x"}}
	for _, c := range []struct {
		dss  []*model.Dataset
		w, h int
	}{
		{[]*model.Dataset{run}, 80, 24},
		{[]*model.Dataset{run, runFixture()}, 80, 24},
		{[]*model.Dataset{run, runFixture()}, 60, 15},
	} {
		m := newTestModel(t, c.dss, c.w, c.h)
		first := strings.SplitN(screen(m), "\n", 2)[0]
		for _, want := range []string{"✓4 ✗3 !1", "‼1", "rwkv7-2-9b"} {
			if !strings.Contains(first, want) {
				t.Errorf("%dx%d, %d datasets: title line %q lacks %q", c.w, c.h, len(c.dss), first, want)
			}
		}
	}
}

// TestNotesAreNotWarnings: a note (how a file was read: filter-inferred,
// no-format) has its own glyph in the header, the tab bar and the Issues
// tab, and is never counted or drawn as a warning.
func TestNotesAreNotWarnings(t *testing.T) {
	ds := scoredRunFixture("run-n", []float64{9, 4})
	ds.Issues = []model.Issue{model.Notef("no-format", "x.jsonl", 0, "", "no format recognised this file")}
	m := newTestModel(t, []*model.Dataset{ds}, 100, 30)
	first := strings.SplitN(screen(m), "\n", 2)[0]
	if !strings.Contains(first, "ℹ1") || strings.Contains(first, "⚠") {
		t.Errorf("header %q: want ℹ1 and no ⚠", first)
	}
	press(m, "tab", "]", "]", "]") // to the Issues tab
	s := screen(m)
	for _, want := range []string{"Issues (1 note)]", "Dataset issues (1 note)", "ℹ note  no-format"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "⚠") {
		t.Errorf("a note drawn as a warning:\n%s", s)
	}
}

// TestHeaderCountsDeepFindings: once the deep check has run, the header
// counts what check counts: the re-extraction's warnings on records, and
// its warning about the dataset (filters re-applied with the harness's
// defaults), as check's total does (4 errors, 4 warnings on broken; 2
// warnings on reextract_mismatch).
func TestHeaderCountsDeepFindings(t *testing.T) {
	for _, c := range []struct{ dir, want string }{
		{"../testdata/lmeval/broken", "‼4 ⚠4"},
		{"../testdata/lmeval/reextract_mismatch", "✓2 ✗2  ⚠2"},
	} {
		dss, err := lmeval.Open(c.dir)
		if err != nil {
			t.Fatal(err)
		}
		m := newTestModel(t, dss, 120, 30)
		if m.deep.report(dss[0]) == nil {
			t.Fatalf("%s: the deep pass did not run", c.dir)
		}
		if first := strings.SplitN(screen(m), "\n", 2)[0]; !strings.Contains(first, c.want) {
			t.Errorf("%s: header %q, want %q", c.dir, first, c.want)
		}
	}
}

// TestHeaderNamesModelAndRunAt80: with a long task and model name (a real
// vllm run's "/workspace/..." model), the header's first facts line still
// names the model and the run at 80 columns, the long values cut in the
// middle; before, the run went into "+N more".
func TestHeaderNamesModelAndRunAt80(t *testing.T) {
	ds := lmevalFixture()
	ds.Task, ds.Title = "mmlu_pro_plus_chemistry", "mmlu_pro_plus_chemistry"
	ds.Facts = []model.Fact{{Key: "task", Value: ds.Task}, {Key: "model", Value: "/workspace/gemma-3-12b-it-base"},
		{Key: "backend", Value: "vllm"}, {Key: "harness", Value: "0.4.9.1"}}
	ds.Origin = model.Origin{Task: ds.Task, Model: "/workspace/gemma-3-12b-it-base", Run: "2025-10-14T15-11-56.507865"}
	m := newTestModel(t, []*model.Dataset{ds}, 80, 24)
	line := strings.Split(screen(m), "\n")[1]
	for _, want := range []string{"task: ", "model: /work", "it-base", "run: 2025-10-14 15:11", "+2 more"} {
		if !strings.Contains(line, want) {
			t.Errorf("the facts line lacks %q: %q", want, line)
		}
	}
}
