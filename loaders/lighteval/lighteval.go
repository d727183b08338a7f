// Package lighteval loads lighteval's details: the per-task parquet files
// its EvaluationTracker saves (details/{model}/{date}/details_{task}_{date}.parquet,
// and the same files pushed to the Hub as {org}/details_{model}), with the
// run's results_{date}.json when it is found. All three schemas lighteval
// has written are read: struct columns doc, model_response and metric
// (since June 2025), flat typed columns example, predictions, gold,
// metrics... (February to June 2025), and the same flat columns written as
// Python text (before). The list reads only the columns it shows; a row is
// read whole when its record is opened.
//
// # Mapping
//
// One dataset per details file (Kind lighteval); one record per row, ID
// its row number (details keep the order of the task's docs). Title: the
// doc's query; Target: the gold choice(s); attempts: each generation
// (ModelResponse.text, post-processed text beside it), or for
// loglikelihood tasks the choices with their logprobs. The row's metric
// values are its Outcome's metrics under one unnamed view (Filters is
// [""], which summary prints as "none"), so `summary` puts their means
// beside the values results_{date}.json reports. Score and Status follow
// the first metric the results file reports for the task (else the first
// column): pass at 1, fail in [0, 1), unscored for NaN and values outside
// [0, 1].
//
// # Issue codes
//
// bad-parquet (the file or a row cannot be read), no-results (warning:
// no results file beside the details), task-not-in-results (warning),
// bad-results (the results file is not lighteval's JSON), metric-nan
// (warning: a row's metric is NaN), metric-differs (warning: a mean
// recomputed from the rows disagrees with the results file, for metrics
// whose aggregation is the mean).
package lighteval

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"evalview/loaders/internal/folder"
	"evalview/loaders/source"
	"evalview/model"
)

var parquetMagic = []byte("PAR1")

// detailsName matches details_{task}_{date}.parquet; the task may hold
// "|" and "_", the date is datetime.isoformat() with ":" as "-".
var detailsName = regexp.MustCompile(`^details_(.+)_(\d{4}-\d{2}-\d{2}T[0-9.\-]+)\.parquet$`)

// SniffFile scores a file: 3 for a parquet named details_*.parquet and
// for a results file with lighteval's own keys (config_general,
// summary_general), above the 2 lm-eval gives any JSON with "results";
// 1 for another parquet file.
func SniffFile(name string, head []byte) int {
	if bytes.HasPrefix(head, parquetMagic) {
		if detailsName.MatchString(name) || strings.HasPrefix(name, "details_") {
			return 3
		}
		return 1
	}
	if isResultsHead(head) {
		return 3
	}
	return 0
}

func isResultsHead(head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf")
	return len(t) > 0 && t[0] == '{' && bytes.Contains(head, []byte(`"config_general"`))
}

// SniffDir scores a folder: 3 when details files are in it, 2 when it is
// an output folder (a details/ subfolder holding them), 1 when they are
// deeper, so that a folder of several formats is opened entry by entry.
func SniffDir(dir string, names []string) int {
	switch {
	case len(detailsFiles(dir, 0, 1)) > 0:
		return 3
	case len(detailsFiles(source.Join(dir, "details"), 3, 1)) > 0:
		return 2
	case len(detailsFiles(dir, 5, 1)) > 0:
		return 1
	}
	return 0
}

// detailsFiles finds details_*.parquet files under dir, depth levels
// down, at most max (0: all), in path order.
func detailsFiles(dir string, depth, max int) []string {
	var out []string
	var walk func(d string, depth int)
	walk = func(d string, depth int) {
		names, err := folder.Names(d)
		if err != nil {
			return
		}
		for _, n := range names {
			if max > 0 && len(out) >= max {
				return
			}
			if strings.HasPrefix(n, ".") {
				continue
			}
			p := source.Join(d, strings.TrimSuffix(n, "/"))
			if strings.HasSuffix(n, "/") {
				if depth > 0 {
					walk(p, depth-1)
				}
				continue
			}
			if strings.HasPrefix(n, "details_") && strings.HasSuffix(n, ".parquet") {
				out = append(out, p)
			}
		}
	}
	walk(dir, depth)
	return out
}

// Open opens a details file, a folder of details, or a results file alone
// (its tasks' reported metrics, with no records).
func Open(path string) ([]*model.Dataset, error) {
	st, err := source.Stat(path)
	if err != nil {
		return nil, err
	}
	var files []string
	switch {
	case st.IsDir():
		files = detailsFiles(path, 5, 0)
		if len(files) == 0 {
			return nil, errors.New("no lighteval details (details_*.parquet) in this folder")
		}
	case strings.HasSuffix(strings.ToLower(path), ".json"):
		return openResultsOnly(path)
	default:
		files = []string{path}
	}
	sort.Strings(files)
	var out []*model.Dataset
	var errs []error
	for _, f := range files {
		ds, err := openDetails(f)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f, err))
			continue
		}
		out = append(out, ds)
	}
	return out, errors.Join(errs...)
}

// taskAndDate splits a details file name.
func taskAndDate(path string) (task, date string) {
	base := filepath.Base(path)
	if m := detailsName.FindStringSubmatch(base); m != nil {
		return m[1], m[2]
	}
	return strings.TrimSuffix(strings.TrimPrefix(base, "details_"), filepath.Ext(base)), ""
}

// openResultsOnly opens a results file alone: one dataset per task with
// its reported metrics and no records.
func openResultsOnly(path string) ([]*model.Dataset, error) {
	res, err := readResults(path)
	if err != nil {
		return nil, err
	}
	date := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "results_"), ".json")
	var out []*model.Dataset
	for _, task := range res.taskOrder {
		ds := &model.Dataset{Kind: model.KindLighteval, Path: path, Task: task, Title: task + " (results only)",
			Records: model.NewMemIndex(nil), Filters: []string{""}}
		ds.Facts = res.facts()
		ds.Origin.Run, ds.Origin.Config = date, res.config()
		ds.Metrics = res.metrics(task)
		ds.Issues = append(ds.Issues, model.Warnf("no-details", path, 0, "", "no details parquet of %s found for task %s: only the reported metrics are shown", date, task))
		out = append(out, ds)
	}
	return out, nil
}
