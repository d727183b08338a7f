// Package inspect loads Inspect AI evaluation logs: the .eval zip that
// inspect_ai writes by default and its older .json format, read as its
// writer (inspect_ai/log/_recorders/eval.py and json.py) writes them. The
// list comes from the sample summaries; a sample's detail (messages,
// output, scores, events, attachments) is read from its member when the
// record is opened, as a stream, so a sample with 300,000 events opens
// without holding them.
//
// # Mapping
//
// One dataset per log (Kind inspect). One record per sample id, in the
// order the log lists them (scan.go: for an .eval, the order its samples
// finished; `s` sorts by id), listed by a background scan so that a log
// of 50,000 samples shows its first rows at once; its epochs are its
// attempts, each with every scorer's value, answer and explanation. The
// scores of the header's results (one per scorer, and per reducer or
// dict key when the task has several) are the dataset's Filters, so the
// list can switch between them: each record's Outcome under a scorer is
// its epochs reduced with that scorer's reducer (mean by default), as
// inspect_ai/_eval/task/results.py reduces them, recomputed from the
// summaries when the reducer is a standard one (mean, median, mode, max,
// at_least_k, pass_at_k) and read from reductions.json otherwise. The
// record's Score and Status are those of the first scorer: pass when the
// reduced value is 1 (C, true, yes), fail when it is in [0, 1), unscored
// for NaN (Score.unscored()) and for values outside [0, 1], which have no
// pass mark; error when every epoch of the sample errored.
//
// The header's metrics are the dataset's Metrics (Filter is the scorer;
// stderr becomes the Stderr of the scorer's accuracy or mean). Where the
// reducer and the metric are standard (accuracy, mean, stderr, std, var),
// they are recomputed from the summaries and a disagreement is an issue.
//
// The transcript shows each model event's new input (the messages after
// the last assistant message it was given), inline in older logs and
// resolved from the sample's message pool in newer ones (pool.go).
//
// A log still being written (only _journal/start.json and journal
// summaries) opens from its journal. Inspect writes it anew at each flush
// (a temporary file renamed over the log since 0.3.247, the log truncated
// and rewritten before), so it only grows: `--follow` sees it grow and
// reloads it as it does a growing JSONL, and the records of the dataset
// shown meanwhile are read from the new file, looked up by name.
//
// # Issue codes
//
// Archive: unsafe-path, symlink-entry, special-entry (never read);
// duplicate-member (warning: the last copy is read, as Inspect does);
// encrypted-entry, entry-too-large, zip-bomb (a member that expands more
// than zipsafe.MaxRatio times), bad-zip-entry (a member not read, or for a
// sample read only in part);
// bad-json (a member is not JSON of the expected shape); missing-header
// (neither header.json nor _journal/start.json).
//
// Log: log-running (warning: no header.json yet), log-error and
// log-cancelled (the run's status), count-mismatch (warning: the header's
// total_samples is not the number of summaries), metric-differs (warning:
// a standard metric recomputed from the summaries disagrees with the
// header), orphan-member (warning: a samples/ member no summary lists).
//
// Samples: missing-member (a summary whose samples/{id}_epoch_{n}.json is
// not in the zip: Inspect's viewer cannot open it), sample-error (the
// sample errored), sample-limit (warning: it hit a limit),
// reduction-mismatch (reductions.json disagrees with the epochs' scores
// reduced again), bad-sample (the member is not a whole sample; found
// when the record is opened; what was read is shown).
package inspect

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"evalview/loaders/internal/folder"
	"evalview/loaders/internal/jsonhead"
	"evalview/loaders/source"
	"evalview/model"
)

var zipMagic = []byte("PK\x03\x04")

// SniffFile scores a file: 2 for a zip whose first members are Inspect's
// (_journal/start.json, header.json) or a .eval zip; 3 for a .json whose
// first bytes are an EvalLog (isJSONLogHead),
// above the 2 lm-eval gives any JSON with "results" (an EvalLog has a
// "results" object too); 0 else.
func SniffFile(name string, head []byte) int {
	if bytes.HasPrefix(head, zipMagic) {
		for _, n := range localNames(head) {
			if n == startJSON || n == headerJSON || strings.HasPrefix(n, journalSummary) {
				return 2
			}
		}
		if strings.HasSuffix(strings.ToLower(name), ".eval") {
			return 2
		}
		return 0
	}
	if isJSONLogHead(head) {
		return 3
	}
	return 0
}

// isJSONLogHead reports an EvalLog's first bytes, by its own header
// fields in any order (Python's inspect writes "version" first; a log
// rewritten by jq -S or another writer may not): an object whose "eval"
// names the task and the model (or holds Inspect's run_id or task_id),
// beside one of version, status, plan, results or stats. A log written
// with its header only is one too: samples are not required.
func isJSONLogHead(head []byte) bool {
	if !bytes.Contains(head, []byte(`"eval"`)) {
		return false // the word first: most files are not, and a parse costs
	}
	v := jsonhead.Parse(head, 1)
	if !v.Is(jsonhead.Object) || v.Bad {
		return false
	}
	ev := v.Get("eval")
	return ev.Is(jsonhead.Object) && (ev.Has("task", "model") || ev.Count("run_id", "task_id") > 0) &&
		v.Count("version", "status", "plan", "results", "stats") > 0
}

// localNames returns the member names of the local file headers in head.
func localNames(head []byte) []string {
	var out []string
	for i := 0; ; {
		j := bytes.Index(head[i:], zipMagic)
		if j < 0 {
			return out
		}
		i += j
		if i+30 > len(head) {
			return out
		}
		n := int(head[i+26]) | int(head[i+27])<<8
		if i+30+n > len(head) {
			return out
		}
		out = append(out, string(head[i+30:i+30+n]))
		i += 4
	}
}

// SniffDir scores a folder: 3 when it holds an .eval or .json log
// (Inspect's log folder), above lm-eval's 2 for a folder with a JSON
// holding "results", which an EvalLog has.
func SniffDir(dir string, names []string) int {
	if len(logFiles(dir, names, 1)) > 0 {
		return 3
	}
	return 0
}

// logFiles returns the folder's log files, in name order, at most max of
// them (0: all).
func logFiles(dir string, names []string, max int) []string {
	var out []string
	for _, n := range names {
		if strings.HasSuffix(n, "/") || folder.IsNotes(n) {
			continue
		}
		low := strings.ToLower(n)
		if !strings.HasSuffix(low, ".eval") && !strings.HasSuffix(low, ".json") {
			continue
		}
		p := source.Join(dir, n)
		head, err := folder.ReadHead(p) // a FIFO in the folder must not block
		if err != nil || SniffFile(n, head) == 0 {
			continue
		}
		out = append(out, p)
		if max > 0 && len(out) >= max {
			break
		}
	}
	return out
}

// logTree returns the log files of dir and of its subfolders (Inspect
// keeps logs in dated folders), depth folders below the one opened, in
// path order; tools' folders are passed over.
func logTree(dir string, depth int) ([]string, error) {
	names, err := folder.Names(dir)
	if err != nil {
		return nil, err
	}
	out := logFiles(dir, names, 0)
	if depth >= folder.MaxDepth {
		return out, nil
	}
	for _, n := range names {
		if strings.HasSuffix(n, "/") && !folder.SkipFolder(n) {
			sub, _ := logTree(source.Join(dir, strings.TrimSuffix(n, "/")), depth+1)
			out = append(out, sub...)
		}
	}
	return out, nil
}

// Open opens an .eval log, a .json log, or a folder of logs and its
// subfolders (one dataset per log, in path order), each complete.
func Open(path string) ([]*model.Dataset, error) { return open(path, false) }

// OpenBackground is Open for the browser: a .json log's dataset comes
// back once its header is read and its first rows are listed, its index
// growing while a background scan reads the rest (Done turns true at the
// end; until then the browser calls the index's SyncDataset, which adds
// what needs every sample). An .eval opens as with Open: its list comes
// from summaries.json, read whole at once.
func OpenBackground(path string) ([]*model.Dataset, error) { return open(path, true) }

func open(path string, background bool) ([]*model.Dataset, error) {
	st, err := source.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		ds, err := openFile(path, background)
		if err != nil {
			return nil, err
		}
		return []*model.Dataset{ds}, nil
	}
	files, err := logTree(path, 0)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, errors.New("no Inspect logs (.eval or .json) in this folder")
	}
	sort.Strings(files)
	var out []*model.Dataset
	var errs []error
	for _, f := range files {
		ds, err := openFile(f, background)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f, err))
			continue
		}
		out = append(out, ds)
	}
	return out, errors.Join(errs...)
}

func openFile(path string, background bool) (*model.Dataset, error) {
	head, err := folder.ReadHead(path)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(head, zipMagic) {
		return openEval(path, background)
	}
	return openJSONLog(path, background)
}
