// Package evalscope loads EvalScope output folders, as its evaluators
// write them (evalscope/api/evaluator/cache.py since 1.0, and
// evalscope/evaluator/evaluator.py before):
//
//	outputs/<YYYYMMDD_HHMMSS>/
//	  configs/task_config*.yaml
//	  logs/
//	  predictions/<model>/<dataset>_<subset>.jsonl   the model's answers
//	  reviews/<model>/<dataset>_<subset>.jsonl       the answers scored
//	  reports/<model>/<dataset>.json                 the scores aggregated
//
// # Mapping
//
// One dataset per model and dataset (Kind evalscope); one record per
// sample of each subset, its id the sample's index (with its subset when
// there are several), the subset a label. Since 1.0 (ModelResult,
// ReviewResult) a prediction line holds the messages and the model's
// output (model_output.choices[].message), and a review line the target
// and sample_score.score: value (the per-sample scores by name),
// extracted_prediction, prediction, explanation. Before 1.0 a line is the
// model's chat completion (choices[].message.content) with raw_input (the
// dataset's record) and, in a review, each choice's review: gold, pred
// and result. The model's answer is the attempt, the target the
// reference; the per-sample score is the review's value for the report's
// first metric (score.main_score_name, else its first value), and the
// record's status is pass or fail only where that score is binary (a
// boolean, or 0 and 1 across the dataset).
//
// The report's metrics are the dataset's reported metrics: each metric's
// score, and each subset's when there are several ("mean_acc/<subset>").
// Where the aggregation is known (a "mean_<name>" metric of 1.x, a
// schema-2 metric whose aggregation is mean, the mean that a 0.x report's
// average accuracy is), they are recomputed from the reviews as EvalScope
// does: the mean per subset rounded to four decimals, then the subsets
// of each category averaged weighted by their sample counts, and the
// categories so too, each rounded again.
//
// # Issue codes
//
// bad-json (a line or file is not the JSON its writer writes),
// read-error (a file that is not a regular file, a report past 32 MB, a
// read that failed), line-too-long (a line past 128 MB: not read),
// no-reviews (warning: predictions not reviewed), no-report (warning),
// metric-differs (warning: a recomputed score disagrees with the
// report), review-error (warning: a review whose score is not usable,
// its status not success), subset-unknown (note: no report or task
// config tells the dataset from the subset in a file's name),
// duplicate-id (warning: a sample index given twice in a file: the later
// line is read, as EvalScope reads it).
package evalscope

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"evalview/loaders/internal/outdir"
	"evalview/loaders/source"
	"evalview/model"
)

// SniffFile scores a file by its first bytes: 2 for a prediction line
// (1.x: "index" and "model_output"; 0.x: "answer_id" and "raw_input"),
// a review line (1.x: "sample_score"; 0.x: "review_id" or "reviewed")
// and a report ("dataset_name" and "model_name" beside "metrics" or
// "category"); 0 otherwise.
func SniffFile(name string, head []byte) int {
	t := bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf")
	if len(t) == 0 || t[0] != '{' {
		return 0
	}
	line := t
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		line = t[:i]
	}
	has := func(b []byte, k string) bool { return bytes.Contains(b, []byte(`"`+k+`"`)) }
	switch {
	case has(line, "index") && (has(line, "model_output") || has(line, "sample_score")):
		return 2
	case has(line, "answer_id") && has(line, "raw_input") && has(line, "choices"):
		return 2
	case has(t, "dataset_name") && has(t, "model_name") && (has(t, "metrics") || has(t, "category")) && isReportHead(t):
		return 2
	}
	return 0
}

// isReportHead tells a report from a JSON Lines line that happens to
// hold its keys: a report is one indented object.
func isReportHead(t []byte) bool {
	first := t
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		first = t[:i]
	}
	return len(bytes.TrimSpace(first)) == 1 || strings.HasSuffix(string(bytes.TrimSpace(t)), "}") && bytes.Count(t, []byte("\n")) <= 1
}

// SniffDir scores a folder: 2 for an output folder (reviews/ or
// reports/, with predictions/, configs/ or logs/ beside), for a folder of
// output folders named by their time stamps, and for the predictions/,
// reviews/ or reports/ folder of one; 0 otherwise.
func SniffDir(dir string, names []string) int {
	if isOutputFolder(names) || len(outdir.StampFolders(dir, names, isOutputFolder)) > 0 {
		return 2
	}
	switch filepath.Base(dir) {
	case "predictions", "reviews", "reports":
		if parent, err := outdir.Entries(source.Dir(dir)); err == nil && isOutputFolder(parent) {
			return 2
		}
	}
	return 0
}

// IsOutputFolder tells output folder dir by its entries (names, folders
// ending in "/") and by a file of EvalScope's own in a model folder of
// its predictions/, reviews/ or reports/: a search of a tree opens such
// a folder whole, and a folder of anyone's with a reports/ beside a
// logs/ is no output folder.
func IsOutputFolder(dir string, names []string) bool {
	if !isOutputFolder(names) {
		return false
	}
	own := func(name string, head []byte) bool { return SniffFile(name, head) > 0 }
	for _, sub := range []string{"reviews", "predictions", "reports"} {
		if slices.Contains(names, sub+"/") && outdir.Holds(source.Join(dir, sub), 1, own) {
			return true
		}
	}
	return false
}

// isOutputFolder tells an output folder by its entries.
func isOutputFolder(names []string) bool {
	has := func(n string) bool {
		for _, x := range names {
			if x == n+"/" {
				return true
			}
		}
		return false
	}
	return (has("reviews") || has("reports")) && (has("predictions") || has("configs") || has("logs") || has("reviews"))
}

// Open opens an output folder, a folder of them (each a run), its
// predictions/, reviews/ or reports/ folder, or one file of one: a
// prediction, review or report file opens its model's dataset.
func Open(path string) ([]*model.Dataset, error) {
	st, err := source.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		dss, err := outdir.OpenFolder(path, isOutputFolder, func(run string) ([]*model.Dataset, error) { return openOutput(run, "") })
		if errors.Is(err, outdir.ErrNotRun) {
			err = errors.New("not an EvalScope output folder (no reviews/ or reports/ beside predictions/)")
		}
		return dss, err
	}
	modelDir := source.Dir(path)
	switch filepath.Base(source.Dir(modelDir)) {
	case "predictions", "reviews", "reports":
		return openOutput(source.Dir(source.Dir(modelDir)), path)
	}
	return openLoose(path)
}
