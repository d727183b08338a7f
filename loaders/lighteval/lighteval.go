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
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"evalview/loaders/internal/folder"
	"evalview/loaders/internal/jsonhead"
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

// isResultsHead reports a results file's first bytes: an object with
// lighteval's own "config_general" object (EvaluationTracker writes it
// first) at its top.
func isResultsHead(head []byte) bool {
	if !bytes.Contains(head, []byte(`"config_general"`)) {
		return false // the word first: most files are not, and a parse costs
	}
	v := jsonhead.Parse(head, 0)
	return v.Is(jsonhead.Object) && v.Get("config_general").Is(jsonhead.Object)
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
	return files(dir, depth, max, func(n string) bool {
		return strings.HasPrefix(n, "details_") && strings.HasSuffix(n, ".parquet")
	})
}

// files finds the files under dir whose name match takes, depth levels
// down, at most max (0: all), in path order. Tools' folders are passed
// over.
func files(dir string, depth, max int, match func(name string) bool) []string {
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
			p := source.Join(d, strings.TrimSuffix(n, "/"))
			if strings.HasSuffix(n, "/") {
				if depth > 0 && !folder.SkipFolder(n) {
					walk(p, depth-1)
				}
				continue
			}
			if match(n) {
				out = append(out, p)
			}
		}
	}
	walk(dir, depth)
	return out
}

// resultsFiles finds the results files (results_*.json with lighteval's
// own keys) under dir, depth levels down.
func resultsFiles(dir string, depth int) []string {
	var out []string
	for _, p := range files(dir, depth, 0, func(n string) bool {
		return strings.HasPrefix(n, "results") && strings.HasSuffix(strings.ToLower(n), ".json")
	}) {
		if head, err := folder.ReadHead(p); err == nil && isResultsHead(head) {
			out = append(out, p)
		}
	}
	return out
}

// Open opens a details file, a folder of details and results (a run
// whose results have no details shows its reported metrics), or a
// results file with the details of its run, found where lighteval
// writes them (see detailsOf).
func Open(path string) ([]*model.Dataset, error) {
	st, err := source.Stat(path)
	if err != nil {
		return nil, err
	}
	switch {
	case st.IsDir():
		details, results := detailsFiles(path, 5, 0), resultsFiles(path, 5)
		if len(details) == 0 && len(results) == 0 {
			return nil, errors.New("no lighteval details (details_*.parquet) or results files in this folder")
		}
		return OpenFound(details, results), nil
	case strings.HasSuffix(strings.ToLower(path), ".json"):
		if _, err := readResults(path); err != nil {
			return nil, err
		}
		return OpenFound(detailsOf(path), []string{path}), nil
	}
	ds, err := openDetails(path)
	if err != nil {
		return nil, err
	}
	return []*model.Dataset{ds}, nil
}

// OpenFound opens the details and results files (resultPaths) a search found: one
// dataset per details file (with its run's results, found as
// findResults finds them), then, for each results file, one per task
// that no details file of its run gave, with its reported metrics and a
// warning that its rows are absent. A file that cannot be read is a
// dataset holding the error.
func OpenFound(details, resultPaths []string) []*model.Dataset {
	details = slices.Clone(details)
	sort.Strings(details)
	read := map[string]*results{}
	resultsOf := func(p string) (*results, error) {
		if r, ok := read[p]; ok {
			return r, nil
		}
		r, err := readResults(p)
		if err == nil {
			read[p] = r
		}
		return r, err
	}
	covered := map[string]map[string]bool{} // results file -> its tasks shown with details
	var out []*model.Dataset
	for _, d := range details {
		ds, err := openDetails(d)
		if err != nil {
			task, _ := taskAndDate(d)
			ds = &model.Dataset{Kind: model.KindLighteval, Path: d, Task: task, Title: task,
				Records: model.NewMemIndex(nil), Filters: []string{""},
				Issues: []model.Issue{model.Errorf("bad-parquet", d, 0, "", "cannot read the details file: %v", err)}}
		}
		out = append(out, ds)
		task, date := taskAndDate(d)
		rp := findResults(d, date)
		if rp == "" {
			continue
		}
		if r, err := resultsOf(rp); err == nil {
			if k, ok := r.taskKey(task); ok {
				if covered[rp] == nil {
					covered[rp] = map[string]bool{}
				}
				covered[rp][k] = true
			}
		}
	}
	resultPaths = slices.Clone(resultPaths)
	sort.Strings(resultPaths)
	for _, rp := range resultPaths {
		r, err := resultsOf(rp)
		if err != nil {
			base := filepath.Base(rp)
			out = append(out, &model.Dataset{Kind: model.KindLighteval, Path: rp, Task: base, Title: base,
				Records: model.NewMemIndex(nil), Filters: []string{""},
				Issues: []model.Issue{model.Errorf("bad-results", rp, 0, "", "%v", err)}})
			continue
		}
		out = append(out, resultsOnly(r, covered[rp])...)
	}
	return out
}

// detailsOf finds the details files of a results file's run, where
// lighteval writes them: in <date>/ beside it (the Hub's layout, as
// push_to_hub uploads a run), and in the output folder's
// details/<model>/<date>/ for results/<model>/results_<date>.json (the
// local layout; the model name keeps its slashes, so that
// openrouter/openai/gpt-5 is three folders in both).
func detailsOf(resultsPath string) []string {
	date := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(resultsPath), "results_"), ".json")
	if date == "" || date == filepath.Base(resultsPath) {
		return nil
	}
	dir := source.Dir(resultsPath)
	dirs := []string{source.Join(dir, date)}
	for a := dir; ; a = source.Dir(a) {
		if filepath.Base(a) == "results" {
			if rel, err := filepath.Rel(a, dir); err == nil {
				dirs = append(dirs, source.Join(source.Dir(a), "details", filepath.ToSlash(rel), date))
			}
			break
		}
		if p := source.Dir(a); p == a || p == "" {
			break
		}
	}
	var out []string
	for _, d := range dirs {
		for _, p := range detailsFiles(d, 0, 0) {
			if _, dd := taskAndDate(p); dd == date || dd == "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// taskAndDate splits a details file name.
func taskAndDate(path string) (task, date string) {
	base := filepath.Base(path)
	if m := detailsName.FindStringSubmatch(base); m != nil {
		return m[1], m[2]
	}
	return strings.TrimSuffix(strings.TrimPrefix(base, "details_"), filepath.Ext(base)), ""
}

// resultsOnly gives a results file's tasks not in shown one dataset
// each, with their reported metrics and no records.
func resultsOnly(res *results, shown map[string]bool) []*model.Dataset {
	path := res.path
	date := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "results_"), ".json")
	var out []*model.Dataset
	for _, task := range res.taskOrder {
		if shown[task] {
			continue
		}
		ds := &model.Dataset{Kind: model.KindLighteval, Path: path, Task: task, Title: task + " (results only)",
			Records: model.NewMemIndex(nil), Filters: []string{""}}
		ds.Facts = res.facts()
		ds.Origin.Run, ds.Origin.Config = date, res.config()
		ds.Metrics = res.metrics(task)
		ds.Origin.Run = date
		ds.Issues = append(ds.Issues, model.Warnf("no-details", path, 0, "", "no details parquet of %s found for task %s: only the reported metrics are shown, the rows are absent", date, task))
		out = append(out, ds)
	}
	return out
}
