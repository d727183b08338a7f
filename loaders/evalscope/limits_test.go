package evalscope

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const small = "testdata/outputs/20250301_090000"

// copyFixture copies the small output folder to a new folder.
func copyFixture(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "20250301_090000")
	if err := os.CopyFS(dst, os.DirFS(small)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// issues are the issues of every dataset and record opened from dir.
func issues(t *testing.T, dir string) string {
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
	return b.String()
}

// TestLimits: what EvalScope's files declare is checked before it is
// read: a report past maxReport is refused with its size, a line past
// maxLine is not read (its samples' other lines are), each said.
func TestLimits(t *testing.T) {
	defer func(l int, r int64) { maxLine, maxReport = l, r }(maxLine, maxReport)
	maxLine, maxReport = 700, 500
	got := issues(t, copyFixture(t))
	for _, want := range []string{
		"read-error", "reports/Qwen2.5-0.5B-Instruct/gsm8k.json: error: the file is 798 bytes; evalview reads it whole, and only up to 500 bytes",
		"line-too-long", "reviews/Qwen2.5-0.5B-Instruct/gsm8k_main.jsonl:1: error: the line is 931 bytes",
		"evalview reads an EvalScope line of at most 700 bytes (not read)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	dss, err := Open(copyFixture(t))
	if err != nil || len(dss) != 1 || dss[0].Records.Len() == 0 {
		t.Fatalf("the other lines: %v", err)
	}
}

// TestRepeatedIndex: a sample index given twice is read from its later
// line, as EvalScope's cache reads the file, and said: the earlier line
// was dropped without a word (a line without an index, numbered by its
// place, may take an index a later line gives).
func TestRepeatedIndex(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gsm8k_main.jsonl")
	body := `{"index": 0, "model_output": {"choices": [{"message": {"content": "first"}}]}, "messages": []}` + "\n" +
		`{"model_output": {"choices": [{"message": {"content": "no index"}}]}, "messages": []}` + "\n" +
		`{"index": 1, "model_output": {"choices": [{"message": {"content": "second"}}]}, "messages": []}` + "\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	got := issues(t, p)
	if !strings.Contains(got, "duplicate-id") || !strings.Contains(got, ":3: warning: [1] index 1 again (line 2): this line is read, the earlier one not") {
		t.Errorf("issues:\n%s", got)
	}
}
