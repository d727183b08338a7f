package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// The overview fixture: three models of gsm8k (two filters) and mmlu_a,
// mmlu_b in group mmlu, written so that each value can be checked by
// hand from the docs each model got right (testdata/lmeval/overview):
//
//	base-7b   gsm8k strict +--- (0.25)  mmlu_a ++-- (0.5)  mmlu_b +++- (0.75, reported 0.70)  mmlu 0.60 reported
//	tuned-7b  gsm8k strict ++-- (0.5)   mmlu_a +++- (0.75) mmlu_b ++-- (0.5)                   mmlu 0.625 reported
//	big-70b   gsm8k strict ++++ (1.0)   mmlu_a ++++ (1.0)  no mmlu_b, no results file (model named by its folder)
var overviewFixture = filepath.Join(fixtures, "overview")

// TestSummaryMarkdown: `summary --format markdown` against the table
// worked out by hand from the fixture's docs.
func TestSummaryMarkdown(t *testing.T) {
	out, errs, code := runCmd(t, "summary", "--format", "markdown", overviewFixture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := `| task | metric | base-7b | tuned-7b | big-70b |
|---|---|---:|---:|---:|
| gsm8k | exact_match,strict-match | 0.2500 | 0.5000 (+0.2500) | 1.0000 (+0.7500) |
| mmlu (group) | acc,none | 0.6000 | 0.6250 (+0.0250) | – |
| ↳ mmlu_a | acc,none | 0.5000 | 0.7500 (+0.2500) | 1.0000 (+0.5000) |
| ↳ mmlu_b | acc,none | 0.7000≠ | **0.5000 (−0.2000)** | – |

- base-7b: org/base-7b @ 2025-06-01 10:00, 3 tasks (baseline: deltas are against it)
- tuned-7b: org/tuned-7b @ 2025-06-02 10:00, 3 tasks
- big-70b: other/big-70b @ 2025-06-03 10:00; model named after its folder (other__big-70b): no results file names it, 2 tasks

- bold: worse than the baseline
- ≠: the samples recompute another value than the one reported (summary --json has both)
- –: no value (not run by that model, or nothing scored)
`
	if out != want {
		t.Errorf("markdown:\n%s\nwant:\n%s", out, want)
	}
}

// TestSummaryTable: the plain table, against a baseline named by its
// model: deltas against tuned-7b, columns aligned.
func TestSummaryTable(t *testing.T) {
	out, errs, code := runCmd(t, "summary", "--format", "table", "--baseline", "tuned", overviewFixture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(out, "\n")
	want := []string{
		"task      metric                              base-7b  tuned-7b           big-70b",
		"gsm8k     exact_match,strict-match   0.2500 (−0.2500)    0.5000  1.0000 (+0.5000)",
		"mmlu      acc,none                   0.6000 (−0.0250)    0.6250                 –",
		"  mmlu_a  acc,none                   0.5000 (−0.2500)    0.7500  1.0000 (+0.2500)",
		"  mmlu_b  acc,none                  0.7000≠ (+0.2000)    0.5000                 –",
	}
	for i, w := range want {
		if i >= len(lines) || lines[i] != w {
			t.Errorf("line %d:\n%q\nwant\n%q", i+1, lines[min(i, len(lines)-1)], w)
		}
	}
	if !strings.Contains(out, "tuned-7b: org/tuned-7b @ 2025-06-02 10:00, 3 tasks (baseline: deltas are against it)") {
		t.Errorf("legend:\n%s", out)
	}
	// The marks one a line, none ending alone as "." (a terminal wrapped
	// the marks joined on one long line).
	if !strings.HasSuffix(out, "\n≠: the samples recompute another value than the one reported (summary --json has both)\n–: no value (not run by that model, or nothing scored)\n") {
		t.Errorf("legend's marks:\n%s", out)
	}
	for _, l := range lines {
		if strings.TrimSpace(l) == "." || len([]rune(l)) > 160 {
			t.Errorf("legend line %q", l)
		}
	}
}

// TestSummaryFormatJSON: --format json is --json's datasets and the
// overview.
func TestSummaryFormatJSON(t *testing.T) {
	out, errs, code := runCmd(t, "summary", "--format", "json", overviewFixture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Datasets []struct {
			Task string `json:"task"`
		} `json:"datasets"`
		Overview struct {
			Baseline int `json:"baseline"`
			Columns  []struct {
				Label, Model, Run, Note string
				Tasks                   int
			} `json:"columns"`
			Rows []struct {
				Task, Parent, Metric string
				Group                bool
				Cells                []struct {
					Value, Recomputed, Delta any
					Reported, Differs        bool
					Change, Path, Note       string
				} `json:"cells"`
			} `json:"rows"`
		} `json:"overview"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(got.Datasets) != 8 || len(got.Overview.Columns) != 3 || len(got.Overview.Rows) != 4 {
		t.Fatalf("%d datasets, %d columns, %d rows", len(got.Datasets), len(got.Overview.Columns), len(got.Overview.Rows))
	}
	if c := got.Overview.Columns[2]; c.Model != "other/big-70b" || c.Run != "2025-06-03T10-00-00.000001" || c.Tasks != 2 || !strings.Contains(c.Note, "folder") {
		t.Errorf("big-70b column %+v", c)
	}
	b := got.Overview.Rows[3]
	if b.Task != "mmlu_b" || b.Parent != "mmlu" || b.Metric != "acc,none" {
		t.Errorf("row %+v", b)
	}
	base, tuned, big := b.Cells[0], b.Cells[1], b.Cells[2]
	if base.Value != 0.7 || base.Recomputed != 0.75 || !base.Differs || !base.Reported || base.Delta != nil {
		t.Errorf("base mmlu_b %+v", base)
	}
	if d, ok := tuned.Delta.(float64); !ok || d > -0.1999 || d < -0.2001 || tuned.Change != "worse" || !strings.HasSuffix(tuned.Path, "samples_mmlu_b_2025-06-02T10-00-00.000001.jsonl") {
		t.Errorf("tuned mmlu_b %+v", tuned)
	}
	if big.Value != nil || big.Note != "not run by this model" {
		t.Errorf("big mmlu_b %+v", big)
	}
	if g := got.Overview.Rows[1]; !g.Group || g.Cells[1].Value != 0.625 || g.Cells[1].Change != "better" {
		t.Errorf("group row %+v", g)
	}
}

func TestSummaryFormatErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"summary", "--format", "csv", overviewFixture}, `--format "csv": want one of table, markdown, json`},
		{[]string{"summary", "--json", "--format", "table", overviewFixture}, "--json and --format table: choose one"},
		{[]string{"summary", "--format", "table", "--baseline", "nope", overviewFixture}, `no column matches; the columns are 1 org/base-7b @ 2025-06-01 10:00`},
		{[]string{"summary", "--format", "table", "--baseline", "4", overviewFixture}, "--baseline 4: there are 3 columns"},
		{[]string{"summary", "--format", "markdown", "--baseline", "7b", overviewFixture}, "both org/base-7b @ 2025-06-01 10:00 and org/tuned-7b @ 2025-06-02 10:00 match"},
	} {
		_, errs, code := runCmd(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.says) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errs, c.says)
		}
	}
}

// TestSummaryMarkdownUnscored: a Sample file shows its records' mean
// score, which evalview computes; a testset, whose cases hold no score,
// counts them ("5 unscored") instead of the "–" of a task not run, and
// the legend says what that means.
func TestSummaryMarkdownUnscored(t *testing.T) {
	out, errs, code := runCmd(t, "summary", "--format", "markdown",
		filepath.Join("..", "..", "testdata", "sample", "judged.jsonl"), filepath.Join("..", "..", "testdata", "testset", "spec", "guide_examples.jsonl"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"| guide_examples.jsonl |  | 5 unscored |", "| judged | score | 0.5000 |",
		"N unscored: a dataset of N records none of which is scored (a testset's cases)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}
