package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// agreePaths are the inputs check and summary must count alike: every
// fixture folder, and the real artifacts when ../shared is there.
func agreePaths(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, glob := range []string{"../../testdata/*/*", "../../../shared/data/*/*"} {
		ps, _ := filepath.Glob(glob)
		for _, p := range ps {
			if strings.HasSuffix(p, ".md") || strings.Contains(p, "/demo/") && strings.HasSuffix(p, "images") {
				continue
			}
			out = append(out, p)
		}
	}
	return out
}

// check and summary count the same issues on the same input: summary
// counted without the deep check's findings (4 errors and 3 warnings on
// testdata/lmeval/broken against check's 4 and 4).
func TestCheckAndSummaryAgree(t *testing.T) {
	for _, p := range agreePaths(t) {
		t.Run(p, func(t *testing.T) {
			out, _, code := runCmd(t, "check", "--json", p)
			if code == 2 {
				t.Skip("not an artifact")
			}
			var issues []jsonIssue
			if err := json.Unmarshal([]byte(out), &issues); err != nil {
				t.Fatalf("check --json: %v", err)
			}
			ce, cw, cn := 0, 0, 0
			for _, is := range issues {
				if is.Code == "folder-read" {
					continue // the folder's line, no dataset's issue
				}
				switch is.Severity {
				case "error":
					ce++
				case "note":
					cn++
				default:
					cw++
				}
			}
			out, _, _ = runCmd(t, "summary", "--json", p)
			var sum struct {
				Datasets []struct{ Errors, Warnings, Notes int }
			}
			if err := json.Unmarshal([]byte(out), &sum); err != nil {
				t.Fatalf("summary --json: %v", err)
			}
			se, sw, sn := 0, 0, 0
			for _, d := range sum.Datasets {
				se += d.Errors
				sw += d.Warnings
				sn += d.Notes
			}
			if se != ce || sw != cw || sn != cn {
				t.Errorf("check: %d errors, %d warnings, %d notes; summary: %d errors, %d warnings, %d notes", ce, cw, cn, se, sw, sn)
			}
		})
	}
}

// The documentation's example outputs (README.md and docs/*.md) are
// what the commands print: every block line "$ evalview ARGS" is run
// from the repository's root and its output must be the lines that
// follow it, up to the next "$ " or the block's end.
func TestReadmeExamples(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var readme []byte
	for _, p := range append([]string{"../../README.md"}, pages...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		readme = append(append(readme, b...), '\n')
	}
	type example struct {
		args []string
		want string
	}
	var examples []example
	inBlock := false
	var cur *example
	flush := func() {
		if cur != nil {
			examples = append(examples, *cur)
			cur = nil
		}
	}
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, "```") {
			flush()
			inBlock = !inBlock
			continue
		}
		if !inBlock {
			continue
		}
		if cmd, ok := strings.CutPrefix(line, "$ evalview "); ok {
			flush()
			cur = &example{args: strings.Fields(cmd)}
			continue
		}
		if strings.HasPrefix(line, "$ ") {
			flush()
			continue
		}
		if cur != nil {
			cur.want += line + "\n"
		}
	}
	if len(examples) == 0 {
		t.Fatal("no examples found in README.md and docs/")
	}
	t.Chdir("../..")
	for _, ex := range examples {
		t.Run(strings.Join(ex.args, " "), func(t *testing.T) {
			// Byte for byte: tables padded their last column, lines the
			// README shows without their trailing spaces.
			got, _, _ := runCmd(t, ex.args...)
			if got != ex.want {
				t.Errorf("README shows:\n%s\nthe command prints:\n%s", ex.want, got)
			}
		})
	}
}

// export's statuses are summary's: at a run's own threshold and at
// --threshold (testdata/run/scores_only passes at 8: four samples; at 9
// only sample 4, 9.68), and --where reads them at the same threshold.
func TestExportStatusesAgreeWithSummary(t *testing.T) {
	p := "../../testdata/run/scores_only"
	for _, c := range []struct {
		args []string
		pass int
	}{{nil, 4}, {[]string{"--threshold", "9"}, 1}, {[]string{"--threshold", "0"}, 6}} {
		out, errOut, code := runCmd(t, append([]string{"export", p}, c.args...)...)
		if code != 0 {
			t.Fatalf("export %v: exit %d: %s", c.args, code, errOut)
		}
		got := map[string]int{}
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var row struct{ Status string }
			if err := json.Unmarshal([]byte(l), &row); err != nil {
				t.Fatal(err)
			}
			got[row.Status]++
		}
		out, _, _ = runCmd(t, append([]string{"summary", "--json", p}, c.args...)...)
		var sum struct {
			Datasets []struct{ Statuses map[string]int }
		}
		if err := json.Unmarshal([]byte(out), &sum); err != nil || len(sum.Datasets) != 1 {
			t.Fatalf("summary --json %v: %v", c.args, err)
		}
		want := sum.Datasets[0].Statuses
		if got["pass"] != c.pass || want["pass"] != c.pass || got["fail"] != want["fail"] || got["error"] != want["error"] {
			t.Errorf("%v: export %v, summary %v; want %d pass in both", c.args, got, want, c.pass)
		}
		out, _, _ = runCmd(t, append([]string{"export", "--where", "status=pass", p}, c.args...)...)
		if n := strings.Count(out, "\n"); n != c.pass {
			t.Errorf("%v: --where status=pass gives %d rows, want %d", c.args, n, c.pass)
		}
	}
	if _, errOut, code := runCmd(t, "export", "--threshold", "-1", p); code != 2 || !strings.Contains(errOut, "want a score from 0 to 10") {
		t.Errorf("--threshold -1: exit %d, %q", code, errOut)
	}
}

// The overview's figure of a run (the browser's T, summary --format)
// says what summary's scores_map figures say: scores_map.json's
// global_mean, beside the same mean computed its writer's way, not ≠
// where summary --json finds no difference.
func TestOverviewRunAgreesWithSummary(t *testing.T) {
	out, errOut, code := runCmd(t, "summary", "--format", "json", "../../testdata/run/scores_only")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var sum struct {
		Datasets []struct {
			Metrics map[string]map[string]struct {
				Samples, Reported float64
				Differs           bool
			}
		}
		Overview struct {
			Rows []struct {
				Metric string
				Cells  []struct {
					Value, Recomputed float64
					Differs           bool
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	gm := sum.Datasets[0].Metrics["run"]["global_mean"]
	if len(sum.Overview.Rows) != 1 || len(sum.Overview.Rows[0].Cells) != 1 {
		t.Fatalf("overview %+v", sum.Overview)
	}
	row := sum.Overview.Rows[0]
	c := row.Cells[0]
	if row.Metric != "weighted_score" || c.Value != gm.Reported || c.Recomputed != gm.Samples || c.Differs != gm.Differs {
		t.Errorf("overview %s %+v; summary's global_mean %+v", row.Metric, c, gm)
	}
	out, _, _ = runCmd(t, "summary", "--format", "table", "../../testdata/run/scores_only")
	if strings.Contains(out, "≠") {
		t.Errorf("summary --format table marks a difference summary does not see:\n%s", out)
	}
}

// A run that has no score yet (a manifest and a generation summary, as
// a run still pending) has no figure in the overview: it showed its
// generation summary's total_categories as the run's metric.
func TestOverviewRunWithoutScores(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "2026-04-07_101500_pending")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"manifest.json", "generation_summary.json"} {
		b, err := os.ReadFile(filepath.Join("../../testdata/run/valid", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, _ := runCmd(t, "summary", "--format", "table", "--show-empty", dir)
	if !strings.Contains(out, "–") || strings.Contains(out, "total_") || strings.Contains(out, "_attempts") {
		t.Errorf("overview of a run without scores:\n%s%s", out, errOut)
	}
	// Without --show-empty the run's empty row and column are left out,
	// and said.
	out, errOut, _ = runCmd(t, "summary", "--format", "table", dir)
	if out != "no task has a value; not shown: 1 row and 1 column with no value (--show-empty shows them)\n" {
		t.Errorf("overview of a run without scores, empties hidden:\n%s%s", out, errOut)
	}
}

// A scores_map.json that the score files do not reproduce (its
// global_mean edited) is a difference for summary, its overview and
// --fail-on-differs alike, and the count's verb agrees with it.
func TestStaleScoresMap(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	src := "../../testdata/run/scores_only"
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if rel == "scores_map.json" {
			b = []byte(strings.Replace(string(b), `"global_mean": 8.43`, `"global_mean": 7.5`, 1))
			if !strings.Contains(string(b), `"global_mean": 7.5`) {
				t.Fatal("scores_map.json has no global_mean 8.43 to edit")
			}
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	out, _, code := runCmd(t, "summary", "--fail-on-differs", dir)
	if code != 1 || !strings.Contains(out, "  1 figure differs: scores_map.json does not match") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	out, _, _ = runCmd(t, "summary", "--format", "table", dir)
	if !strings.Contains(out, "7.5000≠") {
		t.Errorf("overview:\n%s", out)
	}
}
