package lmeval

import (
	"errors"
	"path/filepath"
	"regexp"
	"strings"

	"evalview/loaders/source"
	"evalview/model"
)

// A results file that cannot be read is a dataset of its own, with the
// error saying where the file breaks, and never takes its folder down
// with it: the samples files of its run still open, their header saying
// that the run's results file is unreadable rather than absent.

// resultsNameRE is the name the harness gives a results file
// (results_<date>T<time>.json). A file so named is a results file even
// when its first bytes do not look like one (a copy cut at its start):
// skipping it would lose it without a word.
var resultsNameRE = regexp.MustCompile(`^results_` + stampRE.String() + `\.json$`)

// brokenResults is a results file that could not be read.
type brokenResults struct {
	path  string
	stamp string
	err   error
}

// brokenDataset shows an unreadable results file: no records, one error.
func brokenDataset(b brokenResults) *model.Dataset {
	name := filepath.Base(b.path)
	return &model.Dataset{
		Kind: model.KindLMEval, Path: b.path, Task: name,
		Title: strings.TrimSuffix(name, ".json") + " (unreadable)",
		Facts: []model.Fact{
			{Key: "results file", Value: b.path},
			{Key: "samples", Value: "none read: the results file could not be read"},
		},
		Issues:       []model.Issue{resultsIssue(b.path, b.err)},
		Records:      model.NewMemIndex(nil),
		Presentation: ResultsPresentation(),
	}
}

// lineError is an error on a line of a file (a results file's JSON
// syntax error).
type lineError struct {
	line int
	err  error
}

func (e lineError) Error() string { return e.err.Error() }
func (e lineError) Unwrap() error { return e.err }

// resultsIssue is the error of an unreadable results file, with the line
// a JSON syntax error is on.
func resultsIssue(path string, err error) model.Issue {
	line := 0
	var le lineError
	if errors.As(err, &le) {
		line = le.line
	}
	return model.Errorf("bad-results", path, line, "", "%v: its metrics, configs and sample counts are unknown", err)
}

// brokenFor finds the unreadable results file of a samples file's run
// (same folder and timestamp, or the folder's only results file), or
// returns nil.
func brokenFor(samplesPath string, broken []brokenResults) *brokenResults {
	dir := source.Dir(samplesPath)
	stamp := stampOf(filepath.Base(samplesPath))
	var sameDir []*brokenResults
	for i := range broken {
		b := &broken[i]
		if source.Dir(b.path) != dir {
			continue
		}
		if stamp != "" && b.stamp == stamp {
			return b
		}
		sameDir = append(sameDir, b)
	}
	if len(sameDir) == 1 && sameDir[0].stamp == "" {
		return sameDir[0]
	}
	return nil
}

// noResultsWhy says why the rows of a samples file whose run's results
// file is unreadable keep their "none" filter.
func noResultsWhy(b *brokenResults) string {
	return "the run's results file " + filepath.Base(b.path) + " cannot be read: rows without a \"filter\" key are filed under \"none\""
}
