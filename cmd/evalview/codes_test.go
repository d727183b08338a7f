package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// Where the sources write an issue code: the first argument of the issue
// builders (model.Warnf, a loader's errorf...), a Code field, or a code
// variable set to a literal (a zip entry's special-entry).
var (
	codeCall    = regexp.MustCompile(`\b(?:Warnf|Errorf|Notef|warnf|errorf|notef)\("([a-z0-9]+(?:-[a-z0-9]+)*)"`)
	codeField   = regexp.MustCompile(`\b(?:Code: *|code(?:, what)? *:?= *)"([a-z0-9]+(?:-[a-z0-9]+)+)"`)
	codeLiteral = regexp.MustCompile(`"([a-z0-9]+(?:-[a-z0-9]+)*)"`)
)

// TestIssueCodesComplete: check --help lists every code the loaders and
// commands write (found in their sources), and no code they do not.
func TestIssueCodesComplete(t *testing.T) {
	written := map[string]string{} // code -> a file that writes it
	literals := map[string]bool{}  // every kebab-case literal of the sources
	for _, dir := range []string{"../../loaders", "../../model", "../../cmd"} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "query") {
				return filepath.SkipDir // query errors are not issues
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, re := range []*regexp.Regexp{codeCall, codeField} {
				for _, m := range re.FindAllStringSubmatch(string(src), -1) {
					written[m[1]] = p
				}
			}
			for _, m := range codeLiteral.FindAllStringSubmatch(string(src), -1) {
				literals[m[1]] = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	listed := map[string]bool{}
	for _, a := range issueCodes {
		for _, c := range a.codes {
			listed[c] = true
			if !literals[c] {
				t.Errorf("check --help lists %q (%s), which no source writes", c, a.area)
			}
		}
	}
	var missing []string
	for c, p := range written {
		if !listed[c] {
			missing = append(missing, c+" ("+p+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("check --help does not list these codes (add them to issueCodes in codes.go):\n  %s", strings.Join(missing, "\n  "))
	}
	if len(written) < 100 {
		t.Errorf("only %d codes found in the sources: the patterns no longer match the issue builders", len(written))
	}
	out, _, _ := runCmd(t, "check", "--help")
	for _, c := range []string{"reextract-mismatch", "rescore-mismatch", "orphan-score", "filter-inferred", "task-type-mismatch"} {
		if !strings.Contains(out, c) {
			t.Errorf("check --help lacks %q", c)
		}
	}
}
