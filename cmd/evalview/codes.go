package main

import (
	"strings"
)

// issueCodes are the codes `check` reports, by where they come from: the
// one list `check --help` prints. TestIssueCodesComplete holds it equal to
// the codes the loaders and commands write, so a new code cannot be left
// out of the help, nor a removed one stay in it.
var issueCodes = []struct {
	area  string
	codes []string
}{
	{"reading any file", []string{
		"bad-json", "bom", "crlf", "document-records", "duplicate-id", "duplicate-key", "empty-file", "folder-read",
		"lfs-pointer", "line-too-long", "metric-differs", "missing-field", "no-format", "not-object", "number-out-of-range", "open-failed", "read-error",
		"read-failed", "unread-file", "wrong-type",
	}},
	{"lm-eval", []string{
		"ambiguous-results", "bad-results", "count-mismatch", "deep-check-failed", "doc-rows-differ", "duplicate-row",
		"filter-config-default", "filter-inferred", "filter-missing", "filter-over-budget", "filter-unsupported", "hash-mismatch",
		"metric-differs", "metric-missing", "no-samples", "pretty-printed", "reextract-default-differs", "reextract-mismatch",
		"rescore-mismatch", "task-missing", "too-many-filters",
	}},
	{"run", []string{
		"bad-scores-map", "bad-zip", "bad-zip-entry", "duplicate-attempt", "duplicate-path",
		"duplicate-sample-index", "duplicate-score-file", "empty-field", "encrypted-entry",
		"english-language-code", "entry-too-large", "language-mismatch", "missing-generation-summary",
		"missing-manifest", "multiple-runs", "nested-run", "no-samples", "no-scores", "not-a-file", "not-integer",
		"number-as-string", "orphan-score", "repeat-count-mismatch", "run-id-mismatch", "run-too-large",
		"score-mismatch", "special-entry", "status-mismatch", "symlink-entry", "task-type-mismatch",
		"unknown-attempt", "unsafe-path", "utf8-bom", "zip-too-large",
	}},
	{"sample", []string{
		"bad-arguments", "bad-option", "bad-reference", "bad-type", "deprecated-field", "double-encoded",
		"duplicate-option-id", "few-shot-runtime-field", "label-mismatch", "legacy-mapped", "missing-media",
		"missing-url", "nested-few-shot", "unknown-role", "unknown-segment-type", "unknown-tool-call",
	}},
	{"testset", []string{
		"bad-config-value", "bad-id", "bad-utf8", "batch-without-aggregation", "duplicate-tag", "empty-batch",
		"empty-id", "empty-tag", "expectation-not-object", "expectation-without-step-inputs", "id-charset",
		"id-not-string", "missing-id", "multiline-record", "no-records", "unknown-config-key", "v1-key-in-v2",
	}},
	{"inspect", []string{
		"bad-results", "bad-sample", "count-mismatch", "duplicate-member", "field-too-long", "log-cancelled", "log-error", "log-running",
		"metric-differs", "missing-header", "missing-member", "orphan-member", "reduction-mismatch", "sample-error",
		"sample-limit", "zip-bomb",
	}},
	{"lighteval", []string{"bad-parquet", "bad-results", "metric-differs", "metric-nan", "no-details", "no-results", "task-not-in-results"}},
	{"helm", []string{"bad-json", "metric-differs", "missing-file", "no-result", "request-failed", "stats-without-instance"}},
	{"promptfoo", []string{"bad-csv", "bad-json", "bad-result", "duplicate-result", "metric-differs", "no-results", "unmatched-result"}},
	{"opencompass", []string{"bad-json", "details-count", "eval-error", "metric-differs", "no-predictions", "no-results", "summary-differs", "summary-only", "unfinished"}},
	{"evalscope", []string{"bad-json", "metric-differs", "no-report", "no-reviews", "review-error", "subset-unknown"}},
	{"notes file", []string{"notes-bad-line", "notes-unreadable", "notes-unusable"}},
}

// codesHelp lists the codes for `check --help`, one area a paragraph,
// wrapped at width.
func codesHelp(width int) string {
	var b strings.Builder
	for _, a := range issueCodes {
		line := "  " + a.area + ":"
		for _, c := range a.codes {
			if len(line)+1+len(c) > width {
				b.WriteString(line + "\n")
				line = "   "
			}
			line += " " + c
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
