package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckReportsDifferences: an Inspect log written by R's vitals
// reports accuracy as a percent (68.97) while its samples give 0.6897;
// summary marked it as differing and check passed it without a word
// (issue 29). check says it, with its size and the scale it looks like,
// as a warning: exit 0, 1 with --strict, and summary counts it too.
func TestCheckReportsDifferences(t *testing.T) {
	const log = "../../testdata/identity/vitals_percent.json"
	out, _, code := runCmd(t, "check", log)
	want := log + ": warning: accuracy,model_graded_qa: reported 68.9655, the 29 records give 0.689655 (mean): off by 68.2759; the reported value is 100 × the recomputed one: written as a percent?"
	if code != 0 || !strings.Contains(out, want+"\n") || !strings.HasSuffix(out, "0 errors, 1 warning in 1 dataset (29 records)\n") {
		t.Errorf("exit %d:\n%s\nwant the line %s", code, out, want)
	}
	if _, _, code := runCmd(t, "check", "--strict", log); code != 1 {
		t.Errorf("--strict: exit %d, want 1", code)
	}
	out, _, _ = runCmd(t, "summary", "--json", log)
	var sum struct{ Datasets []struct{ Warnings int } }
	if err := json.Unmarshal([]byte(out), &sum); err != nil || len(sum.Datasets) != 1 || sum.Datasets[0].Warnings != 1 {
		t.Errorf("summary counts %+v, %v", sum, err)
	}
}

func TestGap(t *testing.T) {
	for _, c := range []struct {
		reported, recomputed float64
		want                 string
	}{
		{68.97, 0.689655, "off by 68.2803; the reported value is 100 × the recomputed one: written as a percent?"},
		{0.5, 1, "off by 0.5"},
		{0.75, 75, "off by 74.25; the recomputed value is 100 × the reported one: the records hold percents?"},
		{0, 0.01, "off by 0.01"},
	} {
		if got := gap(c.reported, c.recomputed); got != c.want {
			t.Errorf("gap(%v, %v) = %q, want %q", c.reported, c.recomputed, got, c.want)
		}
	}
}

// TestCheckFolderLine: a folder opened ends with its line, before the
// total; --list-skipped lists what it left out, --json gives them as the
// note's items, --json-summary counts them.
func TestCheckFolderLine(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"run/samples_gsm8k_2025-08-07T11-42-40.066002.jsonl": mustRead(t, filepath.Join(fixtures, "two_filters", "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl")),
		"run/results_2025-08-07T11-42-40.066002.json":        mustRead(t, filepath.Join(fixtures, "two_filters", "results_2025-08-07T11-42-40.066002.json")),
		"run/notes.txt":   "how I ran it\n",
		".git/config":     "[core]\n",
		"stray/data.json": `{"seed": 1}`,
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	line := dir + ": note: 2 artifacts opened (1 dataset); 2 files left out (1 no format recognised, 1 not a data file), 1 folder not read (1 a tool's folder): evalview check --list-skipped lists them"
	out, _, code := runCmd(t, "check", dir)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) < 2 || lines[len(lines)-2] != line || lines[len(lines)-1] != "0 errors, 0 warnings in 1 dataset (4 records)" {
		t.Errorf("exit %d:\n%s\nwant before the total:\n%s", code, out, line)
	}
	out, _, _ = runCmd(t, "check", "--list-skipped", dir)
	for _, want := range []string{
		"\n  " + filepath.Join(dir, ".git") + "/: a tool's folder\n",
		"\n  " + filepath.Join(dir, "run", "notes.txt") + ": not a data file\n",
		"\n  " + filepath.Join(dir, "stray", "data.json") + ": no format recognised: no format came close: its fields are seed\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--list-skipped lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = runCmd(t, "check", "--json", dir)
	var issues []jsonIssue
	if err := json.Unmarshal([]byte(out), &issues); err != nil {
		t.Fatal(err)
	}
	if n := len(issues); n == 0 || issues[n-1].Code != "folder-read" || issues[n-1].Severity != "note" || len(issues[n-1].Items) != 3 {
		t.Errorf("--json: %+v", issues)
	}
	out, _, _ = runCmd(t, "check", "--json-summary", dir)
	var tot checkTotals
	if err := json.Unmarshal([]byte(out), &tot); err != nil || tot.Artifacts == nil || *tot.Artifacts != 2 ||
		tot.LeftOut["not a data file"] != 1 || tot.LeftOut["a tool's folder"] != 1 || tot.Notes != 0 {
		t.Errorf("--json-summary: %s %v", out, err)
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSummaryDotDotModel: lm-eval names a model folder after the model's
// path, "/" replaced by "__", so an adapter given as ../adapters/x is a
// folder "..__adapters__x": a name starting with a dot, skipped as hidden
// before (an overview of 5 models showed 2, without a word). It is read,
// and its model is the path it was named after.
func TestSummaryDotDotModel(t *testing.T) {
	dir := t.TempDir()
	samples := "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"
	for _, m := range []string{"..__adapters__x", "org__base"} {
		if err := os.MkdirAll(filepath.Join(dir, m), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, m, samples), []byte(mustRead(t, filepath.Join(fixtures, "two_filters", samples))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, _, code := runCmd(t, "summary", "--format", "json", dir)
	var got struct {
		Overview struct {
			Columns []struct{ Model string }
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	var models []string
	for _, c := range got.Overview.Columns {
		models = append(models, c.Model)
	}
	if strings.Join(models, " ") != "../adapters/x org/base" {
		t.Errorf("columns of models %q, want ../adapters/x and org/base", models)
	}
}
