package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const fixtures = "../../testdata/lmeval"

func runCmd(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestCheckExitCodes(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
		last string
	}{
		{"clean", []string{"check", filepath.Join(fixtures, "two_filters")}, 0, "0 errors, 0 warnings in 1 dataset (4 records)"},
		{"warnings only", []string{"check", filepath.Join(fixtures, "trimmed")}, 0, "0 errors, 3 warnings in 1 dataset (2 records)"},
		{"errors", []string{"check", "--fast", filepath.Join(fixtures, "broken")}, 1, "4 errors, 3 warnings in 1 dataset (4 records)"},
		{"missing path", []string{"check", filepath.Join(fixtures, "nope.jsonl")}, 2, "1 error, 0 warnings in 0 datasets (0 records)"},
		{"missing path among good ones", []string{"check", filepath.Join(fixtures, "two_filters"), "/does/not/exist"}, 2, "1 error, 0 warnings in 1 dataset (4 records)"},
		{"bad --as", []string{"check", "--as", "csv", filepath.Join(fixtures, "two_filters")}, 2, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _, code := runCmd(t, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\n%s", code, c.code, out)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if got := lines[len(lines)-1]; c.last != "" && got != c.last {
				t.Errorf("last line %q, want %q", got, c.last)
			}
		})
	}
}

func TestCheckLineFormat(t *testing.T) {
	out, _, _ := runCmd(t, "check", "--fast", filepath.Join(fixtures, "broken"))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	re := regexp.MustCompile(`^\S+\.jsonl:\d+: (error|warning): (\[\d+\] )?\S.*$`)
	// The folder's line comes before the total, its file the folder.
	if folderLine := filepath.Join(fixtures, "broken") + ": note: 1 artifact opened; nothing left out"; lines[len(lines)-2] != folderLine {
		t.Errorf("line before the total %q, want %q", lines[len(lines)-2], folderLine)
	}
	for _, l := range lines[:len(lines)-2] {
		if !re.MatchString(l) {
			t.Errorf("line does not follow FILE[:LINE]: SEVERITY: [RECORD] MESSAGE: %q", l)
		}
	}
	if !strings.Contains(out, ".jsonl:3: error: line is not a JSON object") {
		t.Errorf("bad line 3 not reported:\n%s", out)
	}
	// Sorted by line within the file.
	if i, j := strings.Index(out, ":2: error"), strings.Index(out, ":6: warning"); i < 0 || j < 0 || i > j {
		t.Errorf("issues not in line order:\n%s", out)
	}
}

func TestCheckJSON(t *testing.T) {
	out, _, code := runCmd(t, "check", "--fast", "--json", filepath.Join(fixtures, "broken"))
	if code != 1 {
		t.Errorf("exit %d", code)
	}
	var issues []map[string]any
	if err := json.Unmarshal([]byte(out), &issues); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out)
	}
	if len(issues) != 8 { // 5, the fixture's bom and crlf warnings, and the folder's note
		t.Fatalf("%d issues, want 8", len(issues))
	}
	for _, k := range []string{"file", "line", "record", "severity", "code", "message"} {
		if _, ok := issues[0][k]; !ok {
			t.Errorf("issue lacks %q: %v", k, issues[0])
		}
	}
	found := false
	for _, is := range issues {
		if is["code"] == "hash-mismatch" && is["record"] == "2" && is["line"] == 4.0 && is["severity"] == "error" {
			found = true
		}
	}
	if !found {
		t.Errorf("hash-mismatch on record 2 line 4 missing: %s", out)
	}
	// An empty result is an empty array, not null.
	out, _, _ = runCmd(t, "check", "--json", filepath.Join(fixtures, "two_filters", "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"))
	if strings.TrimSpace(out) != "[]" {
		t.Errorf("clean --json = %q", out)
	}
	// A clean folder has its line alone: a note of what it held.
	out, _, _ = runCmd(t, "check", "--json", filepath.Join(fixtures, "two_filters"))
	if err := json.Unmarshal([]byte(out), &issues); err != nil || len(issues) != 1 || issues[0]["code"] != "folder-read" ||
		issues[0]["severity"] != "note" || issues[0]["message"] != "2 artifacts opened (1 dataset); nothing left out" {
		t.Errorf("clean folder --json = %q", out)
	}
}

func TestSummaryJSONShape(t *testing.T) {
	out, _, code := runCmd(t, "summary", "--json", filepath.Join(fixtures, "two_filters"), filepath.Join(fixtures, "trimmed"))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Datasets []struct {
			Kind, Path, Task          string
			Records, Errors, Warnings int
			Metrics                   map[string]map[string]struct {
				Samples, Reported *float64
				Differs           bool
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Datasets) != 2 {
		t.Fatalf("%d datasets", len(got.Datasets))
	}
	d := got.Datasets[0]
	if d.Kind != "lm-eval" || d.Task != "gsm8k" || d.Records != 4 || d.Errors != 0 || d.Warnings != 0 || !strings.HasSuffix(d.Path, ".jsonl") {
		t.Errorf("dataset 0 = %+v", d)
	}
	m := d.Metrics["flexible-extract"]["exact_match"]
	if m.Samples == nil || *m.Samples != 0.75 || m.Reported == nil || *m.Reported != 0.75 || m.Differs {
		t.Errorf("flexible-extract = %+v", m)
	}
	// The trimmed file reproduces neither metric: strict-match differs
	// (two right docs of four), flexible-extract has no rows at all.
	tr := got.Datasets[1]
	if s := tr.Metrics["strict-match"]["exact_match"]; !s.Differs || *s.Samples != 1 || *s.Reported != 0.5 {
		t.Errorf("trimmed strict-match = %+v", s)
	}
	if f := tr.Metrics["flexible-extract"]["exact_match"]; f.Samples != nil || f.Reported == nil {
		t.Errorf("trimmed flexible-extract = %+v", f)
	}
	if tr.Warnings != 3 { // check's: the strict-match difference is one
		t.Errorf("trimmed warnings = %d", tr.Warnings)
	}
}

func TestSummaryText(t *testing.T) {
	out, _, _ := runCmd(t, "summary", filepath.Join(fixtures, "trimmed"))
	for _, want := range []string{"gsm8k  (lm-eval)", "2 records, 0 errors, 3 warnings", "strict-match", "DIFFERS", "0.5000 ± 0.2887"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Error("summary output holds escape codes")
	}
}

func TestExport(t *testing.T) {
	out, _, code := runCmd(t, "export", filepath.Join(fixtures, "two_filters"))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines", len(lines))
	}
	var row struct {
		ID, Task, Status, Target string
		Score                    *float64
		Filters                  map[string]struct {
			Answer, Status string
			Metrics        map[string]float64
		}
	}
	if err := json.Unmarshal([]byte(lines[1]), &row); err != nil {
		t.Fatal(err)
	}
	if row.ID != "1" || row.Task != "gsm8k" || row.Status != "fail" || row.Score == nil || *row.Score != 0 || !strings.HasSuffix(row.Target, "#### 3") {
		t.Errorf("row = %+v", row)
	}
	if f := row.Filters["flexible-extract"]; f.Answer != "3" || f.Status != "pass" || f.Metrics["exact_match"] != 1 {
		t.Errorf("flexible-extract = %+v", f)
	}

	out, _, _ = runCmd(t, "export", "--format", "csv", filepath.Join(fixtures, "two_filters"))
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 5 {
		t.Fatalf("%d csv rows", len(recs))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	if recs[2][col["flexible-extract:answer"]] != "3" || recs[2][col["strict-match:answer"]] != "[invalid]" || recs[2][col["strict-match:exact_match"]] != "0" {
		t.Errorf("csv row = %v (header %v)", recs[2], recs[0])
	}
	if _, _, code := runCmd(t, "export", "--format", "xml", filepath.Join(fixtures, "two_filters")); code != 2 {
		t.Errorf("bad --format exit %d", code)
	}
}

func TestHelpAndVersion(t *testing.T) {
	out, _, code := runCmd(t, "--version")
	if code != 0 || !strings.Contains(out, version) {
		t.Errorf("--version: %d %q", code, out)
	}
	for _, cmd := range []string{"", "check", "summary", "export"} {
		args := []string{"--help"}
		if cmd != "" {
			args = []string{cmd, "--help"}
		}
		out, _, code := runCmd(t, args...)
		if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "evalview") {
			t.Errorf("%s --help lacks examples: %q", cmd, out)
		}
	}
}

func TestDemoArtifactsLoadClean(t *testing.T) {
	paths, cleanup, err := writeDemo()
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	out, _, code := runCmd(t, append([]string{"check"}, paths...)...)
	if code != 0 {
		t.Errorf("demo data has errors:\n%s", out)
	}
	out, _, _ = runCmd(t, append([]string{"summary", "--json"}, paths...)...)
	var got struct{ Datasets []struct{ Task string } }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var tasks []string
	for _, d := range got.Datasets {
		tasks = append(tasks, d.Task)
	}
	if j := strings.Join(tasks, ","); !strings.Contains(j, "arc_easy") || !strings.Contains(j, "gsm8k") {
		t.Errorf("demo tasks = %s", j)
	}
}

func TestRootTakesPaths(t *testing.T) {
	// A bad --as is reported by the root's own RunE, which proves a path
	// argument is not mistaken for an unknown subcommand.
	_, errOut, code := runCmd(t, "--as", "bogus", filepath.Join(fixtures, "two_filters"))
	if code != 2 || !strings.Contains(errOut, `unknown kind "bogus"`) || strings.Contains(errOut, "unknown command") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	_, errOut, code = runCmd(t, "/no/such/path")
	if code != 2 || !strings.Contains(errOut, "/no/such/path") || strings.Contains(errOut, "unknown command") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestSummaryRunFigures(t *testing.T) {
	out, _, code := runCmd(t, "summary", "--json", "../../testdata/run/valid")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Datasets []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Datasets) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	d := got.Datasets[0]
	for _, k := range []string{"records", "attempts", "scored_attempts", "mean_weighted_score", "above_threshold", "category_means", "errors", "warnings"} {
		if _, ok := d[k]; !ok {
			t.Errorf("run entry lacks %q: %v", k, d)
		}
	}
	if d["kind"] != "run" || d["records"] != 3.0 || d["attempts"] != 6.0 || d["above_threshold"] != 1.0 {
		t.Errorf("run entry = %v", d)
	}
	if _, ok := d["metrics"].(map[string]any)[""]; ok {
		t.Error(`metrics keyed by an empty filter name`)
	}
	// A lower threshold counts more samples as high-scoring.
	out, _, _ = runCmd(t, "summary", "--json", "--threshold", "1", "../../testdata/run/valid")
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if n := got.Datasets[0]["above_threshold"].(float64); n <= 1 {
		t.Errorf("above_threshold at 1 = %v", n)
	}
}

// bruteForce recomputes, straight from the generated fixture's JSONL and
// independently of the loaders, each filter's agreement table (from the
// logged exact_match values) and pass@k (from every repeat's answer under
// the filter's regex, scored as gsm8k's exact_match).
func bruteForce(t *testing.T, path string) (map[string][4]int, map[string]map[string]float64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		DocID  int             `json:"doc_id"`
		Filter string          `json:"filter"`
		Target string          `json:"target"`
		Resps  [][]string      `json:"resps"`
		EM     float64         `json:"exact_match"`
		Doc    json.RawMessage `json:"doc"`
	}
	right := map[string]map[int]bool{}
	var docs []row
	seen := map[int]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r row
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if right[r.Filter] == nil {
			right[r.Filter] = map[int]bool{}
		}
		right[r.Filter][r.DocID] = r.EM == 1
		if !seen[r.DocID] {
			seen[r.DocID] = true
			docs = append(docs, r)
		}
	}
	agr := map[string][4]int{}
	for a := range right {
		for b := range right {
			if a == b {
				continue
			}
			var c [4]int
			for id, ra := range right[a] {
				rb := right[b][id]
				switch {
				case ra && rb:
					c[0]++
				case ra:
					c[1]++
				case rb:
					c[2]++
				default:
					c[3]++
				}
			}
			agr[a+"|"+b] = c
		}
	}
	norm := func(s string) string {
		for _, p := range []string{",", `\$`, "(?s).*#### ", `\.$`} {
			s = regexp.MustCompile(p).ReplaceAllString(s, "")
		}
		return strings.ToLower(s)
	}
	answerIs := regexp.MustCompile(`The answer is (\-?[0-9\.\,]*[0-9]+)`)
	strict := regexp.MustCompile(`#### (\-?[0-9\.\,]+)`)
	extract := func(re *regexp.Regexp, s string) string {
		if m := re.FindStringSubmatch(s); m != nil {
			return strings.TrimSpace(m[1])
		}
		return "[invalid]"
	}
	binom := func(n, k int) float64 {
		if k < 0 || k > n {
			return 0
		}
		v := 1.0
		for i := 1; i <= k; i++ {
			v = v * float64(n-k+i) / float64(i)
		}
		return v
	}
	res := map[string]map[string]float64{}
	for filter, re := range map[string]*regexp.Regexp{"score-first": answerIs, "maj@8": answerIs, "strict-match": strict} {
		res[filter] = map[string]float64{}
		for _, k := range []int{1, 2, 4, 8} {
			sum := 0.0
			for _, d := range docs {
				n, c := len(d.Resps[0]), 0
				for _, r := range d.Resps[0] {
					if norm(extract(re, r)) == norm(d.Target) {
						c++
					}
				}
				sum += 1 - binom(n-c, k)/binom(n, k)
			}
			res[filter][strconv.Itoa(k)] = sum / float64(len(docs))
		}
	}
	return agr, res
}

func TestSummaryAgreementAndPassAtK(t *testing.T) {
	dir := filepath.Join(fixtures, "generated_3filters_8repeats")
	files, _ := filepath.Glob(filepath.Join(dir, "samples_*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("fixture files: %v", files)
	}
	wantAgr, wantPK := bruteForce(t, files[0])
	out, _, code := runCmd(t, "summary", "--json", dir)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Datasets []struct {
			Agreement map[string]map[string]int     `json:"agreement"`
			PassAtK   map[string]map[string]float64 `json:"pass_at_k"`
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	d := got.Datasets[0]
	if len(d.Agreement) != 6 || len(wantAgr) != 6 {
		t.Fatalf("agreement pairs: got %d, want 6: %v", len(d.Agreement), d.Agreement)
	}
	for k, w := range wantAgr {
		g := d.Agreement[k]
		if len(g) != 4 || g["both"] != w[0] || g["only_a"] != w[1] || g["only_b"] != w[2] || g["neither"] != w[3] {
			t.Errorf("agreement %s = %v, want both/only_a/only_b/neither %v", k, g, w)
		}
	}
	if len(d.PassAtK) != 3 {
		t.Fatalf("pass_at_k = %v", d.PassAtK)
	}
	for f, byK := range wantPK {
		if len(d.PassAtK[f]) != len(byK) {
			t.Errorf("pass_at_k[%s] = %v, want %v", f, d.PassAtK[f], byK)
		}
		for k, w := range byK {
			if g, ok := d.PassAtK[f][k]; !ok || math.Abs(g-w) > 1e-9 {
				t.Errorf("pass@%s of %s = %v, want %v", k, f, g, w)
			}
		}
	}
	text, _, _ := runCmd(t, "summary", dir)
	mj := wantAgr["maj@8|score-first"]
	for _, want := range []string{"filter agreement",
		fmt.Sprintf(`maj@8\s+score-first\s+%d\s+%d\s+%d\s+%d`, mj[0], mj[1], mj[2], mj[3]),
		fmt.Sprintf(`strict-match: @1 %.4f  @2 %.4f  @4 %.4f  @8 %.4f`, wantPK["strict-match"]["1"], wantPK["strict-match"]["2"], wantPK["strict-match"]["4"], wantPK["strict-match"]["8"])} {
		if !regexp.MustCompile(want).MatchString(text) {
			t.Errorf("summary text lacks %q:\n%s", want, text)
		}
	}
	// Two filters, one repeat: agreement only; one filter: neither.
	for _, c := range []struct {
		dir       string
		agreement bool
	}{{"two_filters", true}, {"trimmed", false}} {
		out, _, _ = runCmd(t, "summary", "--json", filepath.Join(fixtures, c.dir))
		if strings.Contains(out, `"agreement"`) != c.agreement || strings.Contains(out, `"pass_at_k"`) {
			t.Errorf("%s: agreement %v and no pass_at_k expected:\n%s", c.dir, c.agreement, out)
		}
	}
}

func TestCheckDeep(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		code  int
		last  string
		codes []string
	}{
		{"clean generated", []string{"check", filepath.Join(fixtures, "generated_3filters_8repeats")}, 0,
			"0 errors, 0 warnings in 1 dataset (12 records)", nil},
		{"no config: defaults", []string{"check", filepath.Join(fixtures, "broken")}, 1,
			"4 errors, 4 warnings in 1 dataset (4 records)", []string{"filter-config-default"}},
		{"no config: --fast skips it", []string{"check", "--fast", filepath.Join(fixtures, "broken")}, 1,
			"4 errors, 3 warnings in 1 dataset (4 records)", nil},
		{"mismatch", []string{"check", filepath.Join(fixtures, "reextract_mismatch")}, 0,
			"0 errors, 2 warnings in 1 dataset (4 records)", []string{"reextract-mismatch", "reextract-mismatch"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _, code := runCmd(t, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\n%s", code, c.code, out)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if got := lines[len(lines)-1]; got != c.last {
				t.Errorf("last line %q, want %q\n%s", got, c.last, out)
			}
			js, _, _ := runCmd(t, append([]string{"check", "--json"}, c.args[1:]...)...)
			var issues []jsonIssue
			if err := json.Unmarshal([]byte(js), &issues); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, is := range issues {
				if strings.HasPrefix(is.Code, "reextract") || strings.HasPrefix(is.Code, "filter-") {
					got = append(got, is.Code)
				}
			}
			if strings.Join(got, ",") != strings.Join(c.codes, ",") {
				t.Errorf("deep codes %v, want %v", got, c.codes)
			}
		})
	}
}

// A release build's stamps show in --version: the version, the commit
// (shortened) and the build date.
func TestVersionStamps(t *testing.T) {
	v, c, d := version, commit, date
	t.Cleanup(func() { version, commit, date = v, c, d })
	version, commit, date = "1.4.0", "0123456789abcdef0123", "2026-12-01T10:00:00Z"
	if got, want := versionString(), "1.4.0 (commit 0123456789ab, built 2026-12-01T10:00:00Z)"; got != want {
		t.Errorf("versionString() = %q, want %q", got, want)
	}
}
