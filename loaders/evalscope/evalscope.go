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
// no-reviews (warning: predictions not reviewed), no-report (warning),
// metric-differs (warning: a recomputed score disagrees with the
// report), review-error (warning: a review whose score is not usable,
// its status not success), subset-unknown (note: no report or task
// config tells the dataset from the subset in a file's name).
package evalscope

import (
	"bytes"
	"errors"
	"path/filepath"
	"regexp"
	"strings"

	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// stampName matches an output folder's time stamp (%Y%m%d_%H%M%S).
var stampName = regexp.MustCompile(`^\d{8}_\d{6}$`)

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
	if isOutputFolder(names) || len(stampFolders(dir, names)) > 0 {
		return 2
	}
	switch filepath.Base(dir) {
	case "predictions", "reviews", "reports":
		if parent, err := entryNames(source.Dir(dir)); err == nil && isOutputFolder(parent) {
			return 2
		}
	}
	return 0
}

// IsOutputFolder tells an output folder by its entries (names, folders
// ending in "/"): a search of a tree opens such a folder whole.
func IsOutputFolder(names []string) bool { return isOutputFolder(names) }

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

// stampFolders are the output folders among dir's entries.
func stampFolders(dir string, names []string) []string {
	var out []string
	for _, n := range names {
		s, ok := strings.CutSuffix(n, "/")
		if !ok || !stampName.MatchString(s) {
			continue
		}
		p := source.Join(dir, s)
		if sub, err := entryNames(p); err == nil && isOutputFolder(sub) {
			out = append(out, p)
		}
	}
	return out
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
		names, err := entryNames(path)
		if err != nil {
			return nil, err
		}
		switch {
		case isOutputFolder(names):
			return openOutput(path, "")
		case len(stampFolders(path, names)) > 0:
			var out []*model.Dataset
			var errs []error
			for _, o := range stampFolders(path, names) {
				ds, err := openOutput(o, "")
				out = append(out, ds...)
				if err != nil {
					errs = append(errs, err)
				}
			}
			return out, errors.Join(errs...)
		}
		root := source.Dir(path)
		if parent, _ := entryNames(root); isOutputFolder(parent) {
			return openOutput(root, "")
		}
		return nil, errors.New("not an EvalScope output folder (no reviews/ or reports/ beside predictions/)")
	}
	modelDir := source.Dir(path)
	switch filepath.Base(source.Dir(modelDir)) {
	case "predictions", "reviews", "reports":
		return openOutput(source.Dir(source.Dir(modelDir)), path)
	}
	return openLoose(path)
}

// entryNames lists a folder's entries, folders ending in "/", sorted,
// hidden ones left out.
func entryNames(dir string) ([]string, error) {
	ents, err := source.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(ents))
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, ".") {
			continue
		}
		if e.IsDir() {
			n += "/"
		}
		out = append(out, n)
	}
	return out, nil
}

// runOf is an output folder's time stamp as a run: "20250301_101500" is
// "2025-03-01T10:15:00", which model.RunTime shortens.
func runOf(stamp string) string {
	if !stampName.MatchString(stamp) {
		return stamp
	}
	return stamp[0:4] + "-" + stamp[4:6] + "-" + stamp[6:8] + "T" + stamp[9:11] + ":" + stamp[11:13] + ":" + stamp[13:15]
}

// firstLine is s's first non-blank line, clipped for the list.
func firstLine(s string) string {
	whole := s
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return jsonl.Own(jsonl.Clip(strings.TrimSpace(s), 200), whole)
}
