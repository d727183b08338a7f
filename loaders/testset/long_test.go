package testset

import (
	"strings"
	"testing"
)

// TestLineTooLong: a line past maxLine is not read (a testset is held
// whole): an error names it and its size, and the cases around it load.
func TestLineTooLong(t *testing.T) {
	defer func(n int) { maxLine = n }(maxLine)
	maxLine = 64
	data := `{"id": "a", "input": "x"}` + "\n" + `{"id": "b", "input": "` + strings.Repeat("y", 100) + `"}` + "\n" + `{"id": "c", "input": "z"}` + "\n"
	ds := load("long.jsonl", strings.NewReader(data))
	if ds.Records.Len() != 2 {
		t.Errorf("%d records, want 2", ds.Records.Len())
	}
	var found bool
	for _, is := range ds.Issues {
		if is.Code == "line-too-long" && is.Line == 2 && strings.Contains(is.Message, "the line is 124 bytes; evalview reads a test case of at most 64 bytes") {
			found = true
		}
	}
	if !found {
		t.Errorf("no line-too-long issue for line 2: %v", ds.Issues)
	}
}
