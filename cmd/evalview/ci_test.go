package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckStrictFailsOnWarnings(t *testing.T) {
	trimmed := filepath.Join(fixtures, "trimmed") // 3 warnings (one the difference summary marks), no error
	if _, _, code := runCmd(t, "check", trimmed); code != 0 {
		t.Fatalf("check without --strict: exit %d, want 0", code)
	}
	out, _, code := runCmd(t, "check", "--strict", trimmed)
	if code != 1 || !strings.Contains(out, "0 errors, 3 warnings") {
		t.Errorf("check --strict on warnings: exit %d\n%s", code, out)
	}
	if _, _, code := runCmd(t, "check", "--strict", filepath.Join(fixtures, "two_filters")); code != 0 {
		t.Errorf("check --strict on a clean folder: exit %d", code)
	}
}

func TestCheckJSONSummary(t *testing.T) {
	out, _, code := runCmd(t, "check", "--fast", "--json-summary", filepath.Join(fixtures, "broken"))
	var got checkTotals
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if code != 1 || got.Exit != 1 || got.Errors != 4 || got.Warnings != 3 || got.Datasets != 1 || got.Records != 4 || got.Codes["bad-json"] != 1 {
		t.Errorf("exit %d, totals %+v", code, got)
	}
	// --json stays an array of issues.
	arr, _, _ := runCmd(t, "check", "--fast", "--json", filepath.Join(fixtures, "broken"))
	if !strings.HasPrefix(strings.TrimSpace(arr), "[") {
		t.Errorf("check --json is no longer an array:\n%s", arr)
	}
	if _, errOut, code := runCmd(t, "check", "--json", "--json-summary", filepath.Join(fixtures, "broken")); code != 2 || !strings.Contains(errOut, "give one") {
		t.Errorf("both flags: exit %d, %q", code, errOut)
	}
	out, _, code = runCmd(t, "check", "--strict", "--json-summary", filepath.Join(fixtures, "trimmed"))
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 1 || got.Exit != 1 || got.Warnings != 3 || got.Codes["metric-differs"] != 1 {
		t.Errorf("strict totals: exit %d, %+v %v", code, got, err)
	}
}

func TestSummaryFailOnDiffers(t *testing.T) {
	trimmed := filepath.Join(fixtures, "trimmed") // strict-match recomputes to 1, reported 0.5
	if _, _, code := runCmd(t, "summary", trimmed); code != 0 {
		t.Fatalf("summary without the flag: exit %d", code)
	}
	out, errOut, code := runCmd(t, "summary", "--fail-on-differs", "--json", trimmed)
	if code != 1 || !strings.Contains(errOut, "strict-match exact_match") {
		t.Errorf("--fail-on-differs: exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, `"differs": true`) {
		t.Errorf("the report is still printed in full:\n%s", out)
	}
	if _, _, code := runCmd(t, "summary", "--fail-on-differs", filepath.Join(fixtures, "two_filters")); code != 0 {
		t.Errorf("--fail-on-differs where every metric matches: exit %d", code)
	}
}

// TestSummaryOldGroupsNoFalseDiffers: results of v0.4.1 and v0.4.2
// weigh groups by sample counts they do not record: their groups are
// listed, the ones a plain mean cannot give are said not recomputed, and
// --fail-on-differs passes (issue 14). A results file alone says why
// nothing of it is recomputed.
func TestSummaryOldGroupsNoFalseDiffers(t *testing.T) {
	for _, dir := range []string{"v0.4.1_groups", "v0.4.2_groups"} {
		out, errOut, code := runCmd(t, "summary", "--fail-on-differs", filepath.Join(fixtures, dir))
		if code != 0 || errOut != "" {
			t.Errorf("%s: exit %d, stderr %q", dir, code, errOut)
		}
		for _, want := range []string{"mmlu_other", "mmlu_stem acc,none: not recomputed: the harness before v0.4.3 weighs each subtask by its sample count"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in\n%s", dir, want, out)
			}
		}
	}
	out, _, _ := runCmd(t, "summary", filepath.Join(fixtures, "v0.4.2_groups"))
	if !strings.Contains(out, "samples:   none: the reported metrics are shown as reported, with nothing to recompute them from") {
		t.Errorf("a results file alone does not say why nothing is recomputed:\n%s", out)
	}
}

// TestExportNonFinite: export keeps a row's Infinity: JSON as the string
// "Infinity" (valid JSON), CSV as Python's str() spells it, inf.
func TestExportNonFinite(t *testing.T) {
	dir := filepath.Join(fixtures, "regression_infinity")
	out, _, code := runCmd(t, "export", dir)
	if code != 0 || !strings.Contains(out, `"mae":"Infinity"`) {
		t.Errorf("jsonl: exit %d\n%s", code, out)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !json.Valid([]byte(l)) {
			t.Errorf("not JSON: %s", l)
		}
	}
	out, _, _ = runCmd(t, "export", "--format", "csv", dir)
	if !strings.Contains(out, ",unscored,inf,3.2,") || strings.Contains(out, "Inf") {
		t.Errorf("csv:\n%s", out)
	}
}
