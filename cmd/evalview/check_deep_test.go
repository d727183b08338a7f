package main

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"evalview/loaders"
	"evalview/model"
)

// TestCheckSinglePassSameIssues: check's single pass (index issues plus
// the deep check) reports exactly what loading every record and then
// running the deep check reports, on every lm-eval fixture and real
// folder.
func TestCheckSinglePassSameIssues(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join(fixtures, "*"))
	if root, err := filepath.Abs("../../../shared/data/lm_eval"); err == nil {
		if more, _ := filepath.Glob(filepath.Join(root, "*")); len(more) > 0 {
			dirs = append(dirs, more...)
		}
	}
	single := 0
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		a, _ := loaders.Open([]string{dir}, loaders.Options{})
		b, _ := loaders.Open([]string{dir}, loaders.Options{})
		for i := range a {
			if _, ok := a[i].Records.(indexedIssues); ok && a[i].Deep != nil {
				single++
			}
			got := datasetIssues(context.Background(), a[i], true)
			want, err := b[i].AllIssues()
			if err != nil {
				want = append(want, model.Errorf("read-failed", b[i].Path, 0, "", "%v", err))
			}
			want = mergeDeep(context.Background(), want, b[i])
			model.SortIssues(got)
			model.SortIssues(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: single pass %v\nloading every record %v", a[i].Path, got, want)
			}
		}
	}
	if single < 10 {
		t.Fatalf("only %d datasets took the single pass", single)
	}
}

// TestCheckFastSkipsReextraction: --fast reads the index only, so the
// re-extraction's mismatches are not reported.
func TestCheckFastSkipsReextraction(t *testing.T) {
	out, _, code := runCmd(t, "check", "--fast", filepath.Join(fixtures, "reextract_mismatch"))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || lines[len(lines)-1] != "0 errors, 0 warnings in 1 dataset (4 records)" {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
