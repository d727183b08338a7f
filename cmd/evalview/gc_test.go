package main

import (
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestBatchMemoryLimit: check and summary cap the heap at a share of 150 MB
// plus 5% of their inputs, files and folders alike, unless GOMEMLIMIT says
// otherwise.
func TestBatchMemoryLimit(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "run")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(dir, "a.jsonl"), make([]byte, 3000), 0o644)
	os.WriteFile(filepath.Join(sub, "b.json"), make([]byte, 5000), 0o644)
	os.WriteFile(filepath.Join(sub, "c.json"), make([]byte, 2000), 0o644)
	if got := inputBytes([]string{filepath.Join(dir, "a.jsonl"), sub}); got != 10000 {
		t.Fatalf("inputBytes = %d, want 10000", got)
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1)) // restored after
	t.Setenv("GOGC", "100")                              // set: tuneBatchGC leaves the collector alone
	t.Setenv("GOMEMLIMIT", "")
	os.Unsetenv("GOMEMLIMIT")
	tuneBatchGC([]string{dir})
	want := int64(heapShare * (budgetBase + budgetPerInput*10000))
	if got := debug.SetMemoryLimit(-1); got != want {
		t.Errorf("memory limit %d, want %d", got, want)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	t.Setenv("GOMEMLIMIT", "1GiB")
	tuneBatchGC([]string{dir})
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set the limit became %d", got)
	}
}
