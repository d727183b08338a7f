// Package promptfoo loads promptfoo's eval exports: `promptfoo eval -o
// out.json` in every shape it has written (src/util/output.ts
// writeOutput; the summary types of src/types): results version 3 (since
// October 2024: results carrying their promptIdx and testIdx, the
// prompts with their metrics), version 2 (June 2023 to October 2024:
// results listed as they finished, and a table of tests by prompts whose
// cells hold pass, score and the grading), version 1 and the unversioned
// summary of spring 2023 (table cells as text), each wrapped as
// {evalId, results, config, shareableUrl, metadata} or written as the
// summary itself (the node package's evaluate() result); `-o
// out.jsonl`, one result a line; and `-o out.csv` as promptfoo writes it
// since 2025 (csv.go: the matrix with each cell's status, score, named
// scores and grader's reason, scores rounded, no metrics). YAML, HTML and
// XML exports are renderings of the same data, not read here.
//
// # Mapping
//
// One dataset per column of promptfoo's matrix: one prompt on one
// provider (Kind promptfoo). One record per test case in that column:
// its id the test's index, its title the test's description (else its
// vars), its prompt the rendered prompt (chat messages when the prompt is
// a JSON list of messages), its fields the test's vars, and one attempt:
// the provider's output, with the writer's pass or fail (an error when
// the failure reason is an error), the score, the grader's reason, the
// named scores, latency, cost and token usage. Each assertion's verdict
// (componentResults: pass, score, reason) is a row of the Assertions tab.
//
// Origin: the model is the provider (its label, else its id), the
// configuration the prompt's label, the run the eval's timestamp; the
// records are the dataset's tasks (Dataset.Tasks), each with its score,
// so that the overview lays a file out as promptfoo's own matrix does:
// tests as rows, a column per provider and prompt.
//
// The dataset's metrics are the column's as promptfoo reports them (a
// prompt's metrics: score, the pass, fail and error counts, assertion
// counts, latency, cost, token usage and named scores, all sums), and the
// eval's stats (successes, failures, errors, token usage: over every
// column), each recomputed from the results the way promptfoo sums them;
// a difference is a metric-differs warning.
//
// # Issue codes
//
// bad-json (the file or a line is not JSON), line-too-long (a line of
// -o out.jsonl past 128 MB: not read), bad-result (a result
// without its indexes, or not an EvaluateResult: left out),
// duplicate-result (warning: two results for one test and column),
// unmatched-result (warning: results that match no cell of a version 2
// table), metric-differs (warning).
package promptfoo

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"

	"evalview/loaders/internal/folder"
	"evalview/loaders/source"
	"evalview/model"
)

// SniffFile scores a file: 3 for a JSON object with "results" and keys
// only promptfoo writes (a prompt's testPassCount, a result's promptIdx,
// gradingResult or namedScores, the export's shareableUrl or evalId; or
// a 2023 result: prompt, vars and success), above the 2 lm-eval gives any
// JSON with "results"; 3 for JSON Lines whose first line is a result
// with its promptIdx and testIdx; 3 for a .csv whose header is the one
// promptfoo's CSV writer writes (a prompt's columns followed by Status,
// Score, Named Scores, ..., Grader Reason, Comment).
func SniffFile(name string, head []byte) int {
	t := bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf")
	if strings.HasSuffix(strings.ToLower(name), ".csv") {
		if isCSVHead(t) {
			return 3
		}
		return 0
	}
	if len(t) == 0 || t[0] != '{' {
		return 0
	}
	has := func(k string) bool { return bytes.Contains(head, []byte(`"`+k+`"`)) }
	if strings.HasSuffix(strings.ToLower(name), ".jsonl") {
		line := t
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		if bytes.Contains(line, []byte(`"promptIdx"`)) && bytes.Contains(line, []byte(`"testIdx"`)) &&
			bytes.Contains(line, []byte(`"provider"`)) && (bytes.Contains(line, []byte(`"success"`)) || bytes.Contains(line, []byte(`"gradingResult"`))) {
			return 3
		}
		return 0
	}
	if !has("results") {
		return 0
	}
	switch {
	case has("testPassCount"), has("promptIdx") && has("testIdx"), has("gradingResult"), has("namedScores"),
		has("shareableUrl") && has("config"), has("evalId") && has("prompts"):
		return 3
	case has("prompt") && has("vars") && (has("success") || has("response")) && (has("display") || has("label")) && has("raw"):
		return 3
	}
	return 0
}

// SniffDir scores a folder by the heads of its first .json and .jsonl
// files (promptfoo writes files, not folders): 3 when every one is an
// export (the folder is promptfoo's whole: above the 2 lm-eval gives a
// folder with any JSON holding "results"), 1 when some are, 0 else.
func SniffDir(dir string, names []string) int {
	found := exports(dir, names, 0)
	if len(found) == 0 {
		return 0
	}
	n := 0
	for _, nm := range names {
		l := strings.ToLower(nm)
		if !strings.HasSuffix(nm, "/") && !strings.HasPrefix(nm, ".") && (strings.HasSuffix(l, ".json") || strings.HasSuffix(l, ".jsonl")) {
			n++
		}
	}
	if len(found) == n {
		return 3
	}
	return 1
}

// maxSniffed is how many files of a folder SniffDir reads the head of.
const maxSniffed = 20

// exports lists the exports among a folder's .json and .jsonl files, at
// most max (0: all); only the first maxSniffed files are looked at.
func exports(dir string, names []string, max int) []string {
	var out []string
	read := 0
	for _, n := range names {
		l := strings.ToLower(n)
		if strings.HasSuffix(n, "/") || strings.HasPrefix(n, ".") || !strings.HasSuffix(l, ".json") && !strings.HasSuffix(l, ".jsonl") {
			continue
		}
		if read >= maxSniffed {
			break
		}
		read++
		p := source.Join(dir, n)
		head, err := folder.ReadHead(p)
		if err != nil || SniffFile(n, head) < 3 {
			continue
		}
		out = append(out, p)
		if max > 0 && len(out) >= max {
			break
		}
	}
	return out
}

// exportsAll lists every export of a folder, however many files it has.
func exportsAll(dir string, names []string) []string {
	var out []string
	for start := 0; start < len(names); start += maxSniffed {
		out = append(out, exports(dir, names[start:min(start+maxSniffed, len(names))], 0)...)
	}
	return out
}

// Open opens an export, one dataset per prompt and provider; or a folder:
// every export in it.
func Open(p string) ([]*model.Dataset, error) {
	st, err := source.Stat(p)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		names, err := folder.Names(p)
		if err != nil {
			return nil, err
		}
		files := exportsAll(p, names)
		if len(files) == 0 {
			return nil, errors.New("no promptfoo export (-o out.json, out.jsonl) in this folder")
		}
		var out []*model.Dataset
		var errs []error
		for _, f := range files {
			ds, err := Open(f)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", f, err))
			}
			out = append(out, ds...)
		}
		return out, errors.Join(errs...)
	}
	var e *eval
	switch l := strings.ToLower(p); {
	case strings.HasSuffix(l, ".jsonl"):
		e, err = readJSONL(p)
	case strings.HasSuffix(l, ".csv"):
		e, err = readCSV(p)
	default:
		e, err = readJSON(p)
	}
	if err != nil {
		return nil, err
	}
	return e.datasets(), nil
}

func base(p string) string { return path.Base(strings.ReplaceAll(p, "\\", "/")) }
