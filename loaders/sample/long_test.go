package sample

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLineTooLong: a line past maxLine is not read: an error names it and
// its size, and the records around it load.
func TestLineTooLong(t *testing.T) {
	defer func(n int) { maxLine = n }(maxLine)
	maxLine = 200
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "sample", "judged.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(src)), "\n") {
		if len(l) <= maxLine {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		t.Skip("no line of the fixture is short enough")
	}
	long := `{"id": "long", "messages": [{"role": "user", "content": "` + strings.Repeat("y", 300) + `"}]}`
	p := filepath.Join(t.TempDir(), "long.jsonl")
	os.WriteFile(p, []byte(long+"\n"+strings.Join(lines, "\n")+"\n"), 0o644)
	dss, err := Open(p)
	if err != nil || len(dss) != 1 {
		t.Fatalf("Open: %d datasets, %v", len(dss), err)
	}
	ds := dss[0]
	if ds.Records.Len() != len(lines) {
		t.Errorf("%d records, want %d", ds.Records.Len(), len(lines))
	}
	var found bool
	for _, is := range ds.Issues {
		if is.Code == "line-too-long" && is.Line == 1 && strings.Contains(is.Message, "the line is 361 bytes; evalview reads a Sample record of at most 200 bytes") {
			found = true
		}
	}
	if !found {
		t.Errorf("no line-too-long issue for line 1: %v", ds.Issues)
	}
}
