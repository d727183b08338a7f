package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"evalview/internal/hostile"
	"evalview/internal/testos"
)

// TestPathologicalFilterPattern: a results file whose filter pattern has
// nested quantifiers, on responses it backtracks catastrophically on,
// made check, summary and export run for minutes on three docs (a
// timeout per search, 30 s, times every repeat). The pattern's time is
// now bounded as a whole: the commands finish, and check reports the
// filter as not re-applied, naming the pattern.
func TestPathologicalFilterPattern(t *testing.T) {
	const pattern = `(a|aa)+$`
	dir := t.TempDir()
	src := filepath.Join(fixtures, "two_filters")
	res, err := os.ReadFile(filepath.Join(src, "results_2025-08-07T11-42-40.066002.json"))
	if err != nil {
		t.Fatal(err)
	}
	var results map[string]any
	json.Unmarshal(res, &results)
	fl := results["configs"].(map[string]any)["gsm8k"].(map[string]any)["filter_list"].([]any)
	fl[0].(map[string]any)["filter"].([]any)[0].(map[string]any)["regex_pattern"] = pattern
	res, _ = json.Marshal(results)
	os.WriteFile(filepath.Join(dir, "results_2025-08-07T11-42-40.066002.json"), res, 0o644)
	samples, err := os.ReadFile(filepath.Join(src, "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(samples)), "\n") {
		var row map[string]any
		json.Unmarshal([]byte(line), &row)
		row["resps"] = []any{[]any{strings.Repeat("a", 40) + "!"}}
		b, _ := json.Marshal(row)
		out = append(out, string(b))
	}
	os.WriteFile(filepath.Join(dir, "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"), []byte(strings.Join(out, "\n")+"\n"), 0o644)

	stdout, stderr, code := runCmd(t, "check", dir)
	if code == 2 { // 1: the rows rewritten here no longer match their doc_hash

		t.Errorf("check: exit %d\n%s%s", code, stdout, stderr)
	}
	want := `filter "strict-match" not re-applied: the pattern exceeded its time budget (pattern "` + pattern + `"`
	if !strings.Contains(stdout, want) {
		t.Errorf("check does not report the pattern's budget:\n%s", stdout)
	}
	for _, args := range [][]string{{"summary", "--json"}, {"export"}} {
		if _, stderr, code := runCmd(t, append(args, dir)...); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
}

// budgetRun runs evalview ARGS in a child process with the memory settings
// a user gets (none set: tuneBatchGC's), and returns its peak resident
// memory in MB, its exit code and its standard error.
func budgetRun(t *testing.T, args ...string) (mb float64, code int, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "GOGC=") && !strings.HasPrefix(e, "GOMEMLIMIT=") {
			env = append(env, e)
		}
	}
	cmd.Env = append(env, runAsEvalview+"="+strings.Join(args, "\x1f"))
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("evalview %v: %v", args, err)
	}
	mb, ok := testos.PeakRSS(cmd.ProcessState)
	if !ok {
		t.Skip("no rusage here")
	}
	return mb, code, errb.String()
}

// TestSmallInputsWithinBudget: small files that declare far more than
// they hold (a parquet schema 100,000 levels deep in 800 KB, a dictionary
// of 2^31 entries, a page of 2^30 values, a footer list of 2^31 columns,
// lists 250 levels deep, a million rows of nulls in 125 bytes; an Inspect
// header declaring 500 MB) ended every
// command with Go's fatal "out of memory", or took gigabytes. Each
// command now finishes within the memory budget (150 MB plus 5% of the
// input) with an exit code it documents, and says what was too large.
func TestSmallInputsWithinBudget(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ru_maxrss is in KB on Linux only")
	}
	dir := t.TempDir()
	files := map[string][]byte{
		"deep-schema":      hostile.ParquetDeepSchema(100_000),
		"dictionary-2^31":  hostile.ParquetDictionary(1<<31 - 1),
		"deep-lists":       hostile.ParquetDeepLists(250, 1000),
		"deep-lists-rows":  hostile.ParquetDeepLists(60, 10_000),
		"page-2^30":        hostile.ParquetLies()["page-2^30-values"],
		"schema-list-2^31": hostile.ParquetLies()["schema-list-2^31"],
		"null-rows-2^20":   hostile.ParquetLies()["null-rows-2^20"],
	}
	want := map[string]string{
		"deep-schema":      "the footer declares more than 100,000 list entries",
		"dictionary-2^31":  "dictionary page at offset 4 declares 2,147,483,647 entries",
		"deep-lists":       `column "doc" nests 251 levels deep; evalview reads at most 64`,
		"deep-lists-rows":  "row 0: the row holds 10,000 values in lists up to 61 levels deep",
		"page-2^30":        "declares 1,073,741,824 values; evalview reads at most 16,777,216 values",
		"schema-list-2^31": "the footer declares a list of 2,147,483,647 entries",
		"null-rows-2^20":   "the file declares 1,048,576 rows in 125 bytes",
	}
	var paths []string
	for name, data := range files {
		p := filepath.Join(dir, name, "details_"+name+"|0_2025-01-01T00-00-00.000000.parquet")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	eval, err := os.ReadFile(filepath.Join(hostile.Root(), "testdata", "inspect", "capitals_deflate.eval"))
	if err != nil {
		t.Fatal(err)
	}
	header, err := hostile.InspectHeader(eval, "header.json", 500<<20)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "header-500MB", "log.eval")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, header, 0o644)
	paths = append(paths, p)
	want["header-500MB"] = "header.json: error: the member declares 500 MB uncompressed; evalview reads at most 32 MB of it"
	for _, p := range paths {
		name := filepath.Base(filepath.Dir(p))
		st, _ := os.Stat(p)
		budget := float64(budgetBase)/(1<<20) + budgetPerInput*float64(st.Size())/(1<<20)
		for _, cmd := range []string{"check", "summary", "export"} {
			mb, code, stderr := budgetRun(t, cmd, p)
			if strings.Contains(stderr, "fatal error") || strings.Contains(stderr, "panic") || code > 2 {
				t.Errorf("%s %s: exit %d\n%s", cmd, name, code, stderr[:min(len(stderr), 2000)])
			}
			if mb > budget {
				t.Errorf("%s %s: peak %.0f MB, over the budget of %.0f MB", cmd, name, mb, budget)
			}
		}
		out, stderr, _ := runCmd(t, "check", p)
		if !strings.Contains(out+stderr, want[name]) {
			t.Errorf("check %s does not say %q:\n%s%s", name, want[name], out, stderr)
		}
	}
}

// TestPlainWithinBudget: plain JSON Lines within the budget at a scale go
// test can afford (evalbench -plain and -plain-line measure 10 million
// records and a 2 GB line): 150,000 short records, past what their
// summaries may keep in memory, the same as a JSON document, and a 32 MB
// line, which is never held whole.
func TestPlainWithinBudget(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ru_maxrss is in KB on Linux only")
	}
	if testing.Short() {
		t.Skip("writes and reads 45 MB")
	}
	// Written a piece at a time: a child's peak memory as the kernel
	// reports it starts at this process's, inherited at exec.
	dir := t.TempDir()
	write := func(name string, fn func(w *bufio.Writer)) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(f)
		fn(w)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return p
	}
	records := write("records.jsonl", func(w *bufio.Writer) {
		for i := range 150_000 {
			fmt.Fprintf(w, "{\"id\": %d, \"text\": \"what is %d plus %d today?\", \"lang\": \"en\", \"v\": %d}\n", i, i, i*7%1000, i%5)
		}
	})
	line := write("line.jsonl", func(w *bufio.Writer) {
		w.WriteString(`{"id": "huge", "prompt": "a short prompt", "text": "`)
		piece := strings.Repeat("lorem ipsum dolor sit amet ", 4096)
		for range 32 << 20 / len(piece) {
			w.WriteString(piece)
		}
		w.WriteString("\", \"lang\": \"en\"}\n")
	})
	// The same records as a pretty-printed JSON document (issue 29): past
	// what is read whole, indexed by its records' offsets.
	doc := write("records.json", func(w *bufio.Writer) {
		w.WriteString("[")
		for i := range 150_000 {
			if i > 0 {
				w.WriteString(",")
			}
			fmt.Fprintf(w, "\n  {\n    \"id\": %d,\n    \"text\": \"what is %d plus %d today?\",\n    \"lang\": \"en\",\n    \"v\": %d\n  }", i, i, i*7%1000, i%5)
		}
		w.WriteString("\n]\n")
	})
	for _, p := range []string{records, line, doc} {
		st, _ := os.Stat(p)
		budget := float64(budgetBase)/(1<<20) + budgetPerInput*float64(st.Size())/(1<<20)
		for _, cmd := range []string{"check", "summary", "export"} {
			mb, code, stderr := budgetRun(t, cmd, p)
			if code != 0 {
				t.Errorf("%s %s: exit %d\n%s", cmd, filepath.Base(p), code, stderr[:min(len(stderr), 2000)])
			}
			if mb > budget {
				t.Errorf("%s %s: peak %.0f MB, over the budget of %.0f MB", cmd, filepath.Base(p), mb, budget)
			}
		}
	}
	if out, _, _ := runCmd(t, "check", doc); !strings.Contains(out, "0 errors, 0 warnings, 1 note in 1 dataset (150000 records)") {
		t.Errorf("the document is not read as 150,000 records:\n%.2000s", out)
	}
	out, _, _ := runCmd(t, "export", "--format", "csv", line)
	if !strings.Contains(out, "huge") || !strings.Contains(out, "a short prompt") {
		t.Errorf("the long line's record is not exported whole: %.300s", out)
	}
}
