// Package opencompass loads OpenCompass work folders, as its tasks write
// them (opencompass/tasks/openicl_infer.py, openicl_eval.py,
// subjective_eval.py and summarizers/default.py):
//
//	outputs/<config>/<YYYYMMDD_HHMMSS>/
//	  configs/<ts>.py
//	  predictions/<model>/<dataset>.json          the inferencer's output
//	  predictions/<model>/<dataset>_0.json, _1.json ...   split by the partitioner
//	  predictions/<model>/tmp_<dataset>.json[l]   an unfinished inference's checkpoint
//	  results/<model>/<dataset>.json              the evaluator's metrics and details
//	  results/<model>_judged-by--<judge>/<dataset>.json   a subjective (judge) evaluation
//	  summary/summary_<ts>.csv, .md, .txt          the summarizer's table
//	  logs/
//
// # Mapping
//
// One dataset per model and dataset (Kind opencompass), and per judge for
// a subjective evaluation. Records come from the predictions, keyed "0",
// "1", ... as the output handlers write them: the prompt (origin_prompt,
// a string or a list of {role, prompt} turns) as messages, the
// prediction (several when the model returned several sequences) as
// attempts, the gold answer as the reference. A perplexity (PPL)
// inferencer's record also has, per label, the prompt it scored and its
// PPL (and BPB), shown as options and a table; the label with the lowest
// PPL is the prediction.
//
// The results file's numbers are the dataset's reported metrics (what
// the summarizer reads: numbers, less bp, sys_len, ref_len and type).
// Its details, written by default since the --dump-eval-details switch
// defaulted on, give each record its extracted answer, its reference and
// whether it is correct (correct, is_correct or cascade_correct): the
// record's status and its "correct" value (0 or 1; the mean of the
// replicas when the dataset was repeated n times). Where the evaluator
// is known to count correct records (accuracy, and its "(n runs
// average)"), accuracy is recomputed from them as 100 times their mean.
// An LLM judge's details (GenericLLMEvaluator: the judge's prompt and
// response per record) give the judge's response as the attempt's judge
// note and, where the results carry get_final_results' counts
// (correct_count...), the grade as the judge's postprocessor reads it:
// the first "A" (correct) or "B" (incorrect) in the response.
//
// The summary's values (two decimals) are reported too; one that
// disagrees with its results file is a warning, and a summary row with
// no results file (a group average such as mmlu) is a dataset of its
// own, with its values and no records.
//
// # Issue codes
//
// bad-json (a file is not the JSON its writer writes), read-error (a
// file that is not a regular file, or past 512 MB; a summary past 32
// MB), line-too-long (a checkpoint line past 128 MB: not read),
// eval-error (the
// results file holds the evaluator's error), no-predictions (warning:
// results without predictions), no-results (warning: predictions not
// evaluated), unfinished (warning: only an inferencer's tmp_ checkpoint),
// details-count (warning: details and predictions differ in number),
// metric-differs (warning: a recomputed metric disagrees with the
// results file), summary-differs (warning: the summary and the results
// file disagree), summary-only (note: a summary row without a results
// file), duplicate-id (warning: a record written twice, in predictions
// or a checkpoint: the later is read, as OpenCompass reads it).
package opencompass

import (
	"bytes"
	"errors"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"evalview/loaders/internal/folder"
	"evalview/loaders/internal/outdir"
	"evalview/loaders/source"
	"evalview/model"
)

// SniffFile scores a file by its first bytes: 2 for an inferencer's
// predictions ({"0": {"origin_prompt": ...}}, or a PPL record with its
// "label: " keys), for its tmp_ checkpoint lines ({"idx": 0,
// "origin_prompt": ...}) and for a summary table (a CSV headed
// dataset,version,metric,mode); 0 otherwise. A results file has no keys
// of its own and is recognised by its place (SniffPath).
func SniffFile(name string, head []byte) int {
	t := bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf")
	switch {
	case isSummaryHead(name, t):
		return 2
	case len(t) == 0 || t[0] != '{':
		return 0
	case isPredictionsHead(t):
		return 2
	case isCheckpointHead(t):
		return 2
	}
	return 0
}

// SniffPath is SniffFile, and for a .json file in results/<model>/ of a
// work folder whose first bytes are an object, 2: the evaluator's
// results (numbers by metric name, details, or an error).
func SniffPath(path string, head []byte) int {
	if s := SniffFile(filepath.Base(path), head); s > 0 {
		return s
	}
	if isResultsPath(path) && isResultsHead(head) {
		return 2
	}
	return 0
}

// SniffDir scores a folder: 2 for a work folder (results/ or summary/
// beside predictions/ or configs/, and no EvalScope reviews/ or
// reports/), for a folder of work folders (named by their time stamps)
// and for a predictions/ or results/ folder of one; 0 otherwise.
func SniffDir(dir string, names []string) int {
	if isWorkFolder(names) {
		return 2
	}
	if len(outdir.StampFolders(dir, names, isWorkFolder)) > 0 {
		return 2
	}
	base := filepath.Base(dir)
	if (base == "predictions" || base == "results") && hasDir(names, "") {
		parent, _ := outdir.Entries(source.Dir(dir))
		if isWorkFolder(parent) {
			return 2
		}
	}
	return 0
}

// IsWorkFolder tells work folder dir by its entries (names, folders
// ending in "/") and by a file of OpenCompass's own: predictions in a
// model folder of predictions/ (or an unfinished inference's
// checkpoint), or a summary in summary/. A search of a tree opens such a
// folder whole; a folder of anyone's with a results/ beside a logs/ (an
// lm-eval output folder) is no work folder.
func IsWorkFolder(dir string, names []string) bool {
	if !isWorkFolder(names) {
		return false
	}
	own := func(name string, head []byte) bool { return SniffFile(name, head) > 0 }
	return slices.Contains(names, "predictions/") && outdir.Holds(source.Join(dir, "predictions"), 1, own) ||
		slices.Contains(names, "summary/") && outdir.Holds(source.Join(dir, "summary"), 0, own)
}

// isWorkFolder tells a work folder by its entries.
func isWorkFolder(names []string) bool {
	has := func(n string) bool { return hasDir(names, n) }
	if has("reviews") || has("reports") {
		return false // EvalScope's
	}
	return (has("results") || has("summary")) && (has("predictions") || has("configs") || has("logs"))
}

// hasDir reports whether names (as folder.Names gives them) hold folder
// n, or any folder when n is "".
func hasDir(names []string, n string) bool {
	for _, x := range names {
		if n == "" && strings.HasSuffix(x, "/") || x == n+"/" {
			return true
		}
	}
	return false
}

// isSummaryHead tells a summarizer's table: its CSV by its header, its
// .md and .txt by their name and the same columns.
func isSummaryHead(name string, t []byte) bool {
	if bytes.HasPrefix(t, []byte("dataset,version,metric,mode")) {
		return true
	}
	if !strings.HasPrefix(name, "summary_") {
		return false
	}
	return bytes.Contains(t, []byte("| dataset | version | metric | mode |")) ||
		bytes.Contains(t, []byte("dataset,version,metric,mode"))
}

// isPredictionsHead tells an output handler's JSON: an object keyed "0"
// whose record has origin_prompt, or a PPL record's "label: " keys or
// its "in-context examples".
func isPredictionsHead(t []byte) bool {
	rest := bytes.TrimLeft(t[1:], " \t\r\n")
	if !bytes.HasPrefix(rest, []byte(`"0"`)) {
		return false
	}
	rest = bytes.TrimLeft(rest[3:], " \t\r\n")
	if !bytes.HasPrefix(rest, []byte(":")) {
		return false
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if !bytes.HasPrefix(rest, []byte("{")) {
		return false
	}
	return bytes.Contains(rest, []byte(`"origin_prompt"`)) || bytes.Contains(rest, []byte(`"label: `)) ||
		bytes.Contains(rest, []byte(`"in-context examples"`))
}

// isCheckpointHead tells a tmp_<dataset>.jsonl line of the output
// handlers' write_to_jsonl: {"idx": N, "origin_prompt": ...}.
func isCheckpointHead(t []byte) bool {
	line := t
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		line = t[:i]
	}
	return bytes.HasPrefix(bytes.TrimLeft(line[1:], " "), []byte(`"idx"`)) &&
		(bytes.Contains(line, []byte(`"origin_prompt"`)) || bytes.Contains(line, []byte(`"prediction"`)))
}

// isResultsPath tells a .json file two folders below a results/ folder
// (results/<model>/<dataset>.json).
func isResultsPath(path string) bool {
	if !strings.EqualFold(filepath.Ext(path), ".json") {
		return false
	}
	return filepath.Base(source.Dir(source.Dir(path))) == "results"
}

// isResultsHead tells an evaluator's results: an object whose first
// member is a number, "details", "error" or a judge's record ("0").
func isResultsHead(head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	rest := bytes.TrimLeft(t[1:], " \t\r\n")
	if len(rest) == 0 || rest[0] == '}' {
		return true
	}
	if rest[0] != '"' {
		return false
	}
	end := bytes.IndexByte(rest[1:], '"')
	if end < 0 {
		return false
	}
	key := string(rest[1 : 1+end])
	val := bytes.TrimLeft(rest[2+end:], " \t\r\n")
	if len(val) == 0 || val[0] != ':' {
		return false
	}
	val = bytes.TrimLeft(val[1:], " \t\r\n")
	if len(val) == 0 {
		return false
	}
	switch {
	case key == "details" || key == "error" || key == "0":
		return true
	case val[0] == '-' || val[0] >= '0' && val[0] <= '9' || bytes.HasPrefix(val, []byte("NaN")):
		return true
	}
	return false
}

// Open opens a work folder, a folder of work folders (each a run), a
// predictions/ or results/ folder of one, or one file of one: a
// predictions or results file opens its model and dataset, a summary
// opens its values.
func Open(path string) ([]*model.Dataset, error) {
	st, err := source.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		dss, err := outdir.OpenFolder(path, isWorkFolder, func(run string) ([]*model.Dataset, error) { return openWork(run, nil) })
		if errors.Is(err, outdir.ErrNotRun) {
			err = errors.New("not an OpenCompass work folder (no results/ or summary/ beside predictions/ or configs/)")
		}
		return dss, err
	}
	head, err := folder.ReadHead(path)
	if err != nil {
		return nil, err
	}
	if isSummaryHead(filepath.Base(path), bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf")) {
		return openSummaryOnly(path)
	}
	// predictions/<model>/<file> or results/<model>/<file>: the work
	// folder is two up.
	modelDir := source.Dir(path)
	root := source.Dir(source.Dir(modelDir))
	if sub := filepath.Base(source.Dir(modelDir)); sub == "predictions" || sub == "results" {
		return openWork(root, &want{file: path})
	}
	// A predictions file alone, away from its work folder.
	return openLoose(path)
}

// want narrows a work folder to the unit a file belongs to (a file
// opened alone).
type want struct {
	file string
}

// splitJudge splits a subjective results folder's name,
// "<model>_judged-by--<judge>", into the model and the judge.
func splitJudge(name string) (string, string) {
	if i := strings.Index(name, "_judged-by--"); i >= 0 {
		return name[:i], name[i+len("_judged-by--"):]
	}
	return name, ""
}

// splitSuffix matches a split predictions file's name, <dataset>_<k>.
var splitSuffix = regexp.MustCompile(`^(.+)_(\d+)$`)
