package opencompass

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const work = "testdata/outputs/default/20250301_101500"

// copyWork copies the work folder to a new folder.
func copyWork(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(work))
	err := filepath.Walk(work, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(work, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// said is what opening dir says: its error and every dataset's issues.
func said(t *testing.T, dir string) (string, int) {
	t.Helper()
	dss, err := Open(dir)
	var b strings.Builder
	if err != nil {
		b.WriteString("error " + err.Error() + "\n")
	}
	for _, ds := range dss {
		for _, is := range ds.Issues {
			b.WriteString(is.Code + " " + is.String() + "\n")
		}
	}
	return b.String(), len(dss)
}

// TestLimits: a predictions or results file past maxRecords and a
// summary past maxSummary are refused with their sizes before they are
// read, a checkpoint line past maxLine is not read; each is said, and the
// rest of the work folder opens.
func TestLimits(t *testing.T) {
	defer func(r, s int64, l int) { maxRecords, maxSummary, maxLine = r, s, l }(maxRecords, maxSummary, maxLine)
	maxRecords, maxSummary, maxLine = 3000, 200, 100
	got, n := said(t, copyWork(t))
	for _, want := range []string{
		"read-error /", "predictions/qwen2.5-1.5b-instruct-hf/ceval-computer_network.json: error: the file is 4098 bytes; evalview reads it whole, and only up to 3000 bytes",
		"results/qwen2.5-1.5b-instruct-hf/ceval-computer_network.json: error: the file is 3409 bytes; evalview reads it whole, and only up to 3000 bytes",
		"summary/summary_20250301_101500.csv: error: the file is 279 bytes; evalview reads it whole, and only up to 200 bytes",
		"line-too-long", "tmp_triviaqa.jsonl:1: error: the line is",
		"evalview reads a checkpoint line of at most 100 bytes (not read)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if n < 5 {
		t.Errorf("%d datasets: the rest of the folder should open", n)
	}
}

// TestSummaryErrorSaid: a work folder whose summary alone is there and
// cannot be read says why, rather than that it holds no summary.
func TestSummaryErrorSaid(t *testing.T) {
	defer func(s int64) { maxSummary = s }(maxSummary)
	maxSummary = 10
	dir := copyWork(t)
	for _, sub := range []string{"predictions", "results"} {
		if err := os.RemoveAll(filepath.Join(dir, sub)); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Open(dir)
	if err == nil || !strings.Contains(err.Error(), "summary_20250301_101500.csv: the file is 279 bytes; evalview reads it whole, and only up to 10 bytes") {
		t.Errorf("error %v", err)
	}
}

// TestRepeatedRecord: a record written twice (a checkpoint's idx, a
// predictions key) is read from its later writing, as OpenCompass reads
// it, and said: the earlier was dropped without a word.
func TestRepeatedRecord(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "tmp_gsm8k.jsonl")
	if err := os.WriteFile(ck, []byte(`{"idx": 0, "origin_prompt": "a", "prediction": "x"}`+"\n"+`{"idx": 0, "origin_prompt": "a", "prediction": "y"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	preds := filepath.Join(dir, "gsm8k.json")
	if err := os.WriteFile(preds, []byte(`{"0": {"origin_prompt": "a", "prediction": "x"}, "0": {"origin_prompt": "a", "prediction": "y"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{
		ck:    ":2: warning: [0] idx 0 again (line 1): this line is read, the earlier one not",
		preds: `: warning: [0] record "0" is written twice: the later is read, the earlier not`,
	} {
		got, _ := said(t, p)
		if !strings.Contains(got, "duplicate-id") || !strings.Contains(got, want) {
			t.Errorf("%s:\n%s", filepath.Base(p), got)
		}
	}
}
