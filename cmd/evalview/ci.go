package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"evalview/model"
)

// What CI asks of check and summary beyond their reports: check --strict
// fails on warnings, check --json-summary prints the totals as one JSON
// object (check --json stays an array of issues), summary
// --fail-on-differs fails when a recomputed metric differs from the one
// the results file reports.

// checkTotals is `check --json-summary`: the one-line total of check as a
// JSON object; the field names are a contract.
type checkTotals struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Notes    int `json:"notes"`
	Datasets int `json:"datasets"`
	Records  int `json:"records"`
	// OpenFailed counts the paths that could not be opened at all.
	OpenFailed int `json:"open_failed"`
	// Codes counts the issues by code, notes included.
	Codes map[string]int `json:"codes"`
	// Exit is the exit code check returns, so that a script reading the
	// object need not run check twice.
	Exit int `json:"exit"`
	// Artifacts counts the artifacts the folders opened held, and
	// LeftOut their files and folders left out, by reason (absent when
	// no folder was opened).
	Artifacts *int           `json:"artifacts,omitempty"`
	LeftOut   map[string]int `json:"left_out,omitempty"`
}

// writeCheckTotals prints issues' totals as one indented JSON object.
func writeCheckTotals(w io.Writer, issues []model.Issue, datasets, records, openFailed, exit int, found []model.Discovery) error {
	t := checkTotals{Datasets: datasets, Records: records, OpenFailed: openFailed, Codes: map[string]int{}, Exit: exit}
	if len(found) > 0 {
		n := 0
		t.LeftOut = map[string]int{}
		for _, d := range found {
			n += d.Artifacts
			for _, rc := range d.Reasons() {
				t.LeftOut[rc.Reason] += rc.Files + rc.Folders
			}
		}
		t.Artifacts = &n
	}
	t.Errors, t.Warnings = model.CountIssues(issues)
	t.Notes = model.CountNotes(issues)
	for _, is := range issues {
		t.Codes[is.Code]++
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(t)
}

// checkExit is check's exit code: 2 when a path could not be opened, 1
// on errors (on warnings too when strict), else 0.
func checkExit(issues []model.Issue, openFailed int, strict bool) int {
	_, warnings := model.CountIssues(issues)
	switch {
	case openFailed > 0:
		return exitOpenFails
	case hasErrors(issues), strict && warnings > 0:
		return exitErrors
	}
	return 0
}

// differing names r's metrics whose recomputed value differs from the
// reported one ("gsm8k strict-match exact_match"), groups included.
func differing(r model.DatasetReport) []string {
	var out []string
	for filter, ms := range r.Metrics {
		for metric, p := range ms {
			if p.Differs {
				out = append(out, fmt.Sprintf("%s %s %s", r.Title, filter, metric))
			}
		}
	}
	for group, fs := range r.Groups {
		for filter, ms := range fs {
			for metric, p := range ms {
				if p.Differs {
					out = append(out, fmt.Sprintf("%s (group) %s %s", group, filter, metric))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}
