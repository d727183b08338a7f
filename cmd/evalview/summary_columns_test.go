package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// The sweeps (testdata/lmeval/sweeps/SOURCES.md): real folders where one
// model ran many times.
var sweeps = filepath.Join(fixtures, "sweeps")

// TestSummaryCheckpointSweep: a checkpoint sweep is a column per
// checkpoint, labelled by it and ordered as numbers, in the table and
// in JSON, which names each column's model, settings and runs.
func TestSummaryCheckpointSweep(t *testing.T) {
	dir := filepath.Join(sweeps, "pythia-160m")
	out, errs, code := runCmd(t, "summary", "--format", "table", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	head := strings.Fields(strings.SplitN(out, "\n", 2)[0])
	want := []string{"task", "metric", "0-shot", "step0", "0-shot", "step1", "0-shot", "step16", "0-shot", "step128", "0-shot", "step1000",
		"0-shot", "step3000", "0-shot", "step13000", "0-shot", "step143000", "5-shot", "step3000", "5-shot", "step143000"}
	if strings.Join(head, " ") != strings.Join(want, " ") {
		t.Errorf("heading %q", head)
	}
	if !strings.Contains(out, "0-shot step1000: EleutherAI/pythia-v1.1-160m num_fewshot=0 revision=step1000, 5 tasks") {
		t.Errorf("legend:\n%s", out)
	}
	out, errs, code = runCmd(t, "summary", "--format", "json", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Overview struct {
			Columns []struct {
				Label   string `json:"label"`
				Model   string `json:"model"`
				Config  []struct{ Key, Value string }
				Differs []string `json:"differs"`
				RunList []struct {
					Run   string   `json:"run"`
					Paths []string `json:"paths"`
				} `json:"run_list"`
			} `json:"columns"`
		} `json:"overview"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	cols := doc.Overview.Columns
	if len(cols) != 10 {
		t.Fatalf("%d columns", len(cols))
	}
	c := cols[4]
	if c.Label != "0-shot step1000" || c.Model != "EleutherAI/pythia-v1.1-160m" || strings.Join(c.Differs, ",") != "num_fewshot,revision" ||
		len(c.Config) != 2 || c.Config[0].Key != "revision" || c.Config[0].Value != "step1000" ||
		len(c.RunList) != 1 || len(c.RunList[0].Paths) != 1 || !strings.HasSuffix(c.RunList[0].Paths[0], "160m_step1000.json") {
		t.Errorf("column %+v", c)
	}
}

// TestSummaryReruns: a model that ran one task many times with the same
// settings is one column whose cell is the latest run's, marked; JSON
// lists the cell's runs with their values; --by-run gives a column per
// run as before.
func TestSummaryReruns(t *testing.T) {
	dir := filepath.Join(sweeps, "rwkv7-reruns")
	out, errs, code := runCmd(t, "summary", "--format", "json", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Overview struct {
			Columns []struct {
				Label string `json:"label"`
				Runs  int    `json:"runs"`
			} `json:"columns"`
			Rows []struct {
				Task  string `json:"task"`
				Cells []struct {
					Value any `json:"value"`
					Runs  []struct {
						Run   string  `json:"run"`
						Value float64 `json:"value"`
						Path  string  `json:"path"`
					} `json:"runs"`
				} `json:"cells"`
			} `json:"rows"`
		} `json:"overview"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if c := doc.Overview.Columns; len(c) != 4 || c[0].Label != "add_bos_token unset dtype unset" || c[0].Runs != 4 {
		t.Fatalf("columns %+v", c)
	}
	for _, r := range doc.Overview.Rows {
		if r.Task != "lambada_openai" {
			continue
		}
		runs := r.Cells[0].Runs
		if len(runs) != 4 || runs[1].Value != 20.08827618270199 || runs[3].Run != "2025-02-25T01-54-44.650980" || r.Cells[0].Value != runs[3].Value {
			t.Errorf("lambada_openai's runs: %+v, value %v", runs, r.Cells[0].Value)
		}
	}
	out, _, _ = runCmd(t, "summary", "--format", "table", dir)
	if !strings.Contains(out, "4.2630↻") || !strings.Contains(out, "↻: the task ran more than once in that column") {
		t.Errorf("table:\n%s", out)
	}
	out, _, _ = runCmd(t, "summary", "--format", "table", "--by-run", dir)
	if head := strings.SplitN(out, "\n", 2)[0]; !strings.Contains(head, "02-24 20:34") || strings.Contains(out, "↻") {
		t.Errorf("--by-run:\n%s", out)
	}
}

// TestExportStatusOfScores: rows whose main metric is a score (truthful-
// qa_gen's sentence BLEU, 0 to 100) are exported with their score and
// status "unscored", and --where status=fail selects none of them; they
// were "pass" from 0.5 up.
func TestExportStatusOfScores(t *testing.T) {
	dir := filepath.Join(fixtures, "sentence_scores")
	out, errs, code := runCmd(t, "export", "--format", "jsonl", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d rows", len(lines))
	}
	for _, l := range lines {
		var row struct {
			Status string  `json:"status"`
			Score  float64 `json:"score"`
		}
		if err := json.Unmarshal([]byte(l), &row); err != nil {
			t.Fatal(err)
		}
		if row.Status != "unscored" {
			t.Errorf("status %q (score %v)", row.Status, row.Score)
		}
	}
	out, _, _ = runCmd(t, "export", "--format", "jsonl", "--where", "status=fail", dir)
	if strings.TrimSpace(out) != "" {
		t.Errorf("status=fail selects:\n%s", out)
	}
}
