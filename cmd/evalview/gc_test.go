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
	if got, comp := inputBytes([]string{filepath.Join(dir, "a.jsonl"), sub}); got != 10000 || comp {
		t.Fatalf("inputBytes = %d, %v; want 10000, not compressed", got, comp)
	}
	// Symbolic links to a file and to a folder count what they point to.
	links := t.TempDir()
	os.Symlink(filepath.Join(dir, "a.jsonl"), filepath.Join(links, "a.jsonl"))
	os.Symlink(sub, filepath.Join(links, "run"))
	if got, _ := inputBytes([]string{filepath.Join(links, "a.jsonl"), filepath.Join(links, "run")}); got != 10000 {
		t.Errorf("through links inputBytes = %d, want 10000", got)
	}
	// Compressed inputs, by name or by content, are flagged.
	gz := filepath.Join(t.TempDir(), "samples.jsonl")
	os.WriteFile(gz, []byte{0x1f, 0x8b, 8, 0, 0, 0}, 0o644)
	if _, comp := inputBytes([]string{gz}); !comp {
		t.Error("gzip content named .jsonl is not flagged compressed")
	}
	named := filepath.Join(sub, "x.jsonl.zst")
	os.WriteFile(named, nil, 0o644)
	if _, comp := inputBytes([]string{sub}); !comp {
		t.Error("a .zst file in a folder is not flagged compressed")
	}
	os.Remove(named)
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
	tuneBatchGC([]string{gz})
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("for a compressed input the limit became %d", got)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	tuneBatchGC([]string{dir})
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set the limit became %d", got)
	}
}
