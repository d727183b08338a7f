package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"evalview/internal/testos"
)

// runAsEvalview, set in the environment of this test binary re-executed,
// runs evalview with those arguments instead of the tests: the commands'
// peak memory is then a process's own.
const runAsEvalview = "EVALVIEW_TEST_RUN_ARGS"

func TestMain(m *testing.M) {
	if args := os.Getenv(runAsEvalview); args != "" {
		os.Exit(run(strings.Split(args, "\x1f"), io.Discard, io.Discard))
	}
	os.Exit(m.Run())
}

// peakMB runs evalview ARGS in a child process and returns its peak
// resident memory in MB.
func peakMB(t *testing.T, args ...string) float64 {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	// A tight collector, so that the peak is what the process holds, not
	// garbage it has not collected yet.
	cmd.Env = append(os.Environ(), runAsEvalview+"="+strings.Join(args, "\x1f"), "GOGC=25", "GOMEMLIMIT=off")
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		t.Fatalf("evalview %v: %v", args, err)
	}
	mb, ok := testos.PeakRSS(cmd.ProcessState)
	if !ok {
		t.Skip("no rusage here")
	}
	return mb
}

// The commands hold one dataset at a time, not a folder's: on a folder of
// 3,000 small samples files their peak memory is about that of 300 (it
// was 22 MB more, every dataset held: a folder of 100,000 took 1.2 GB and,
// under check's memory limit, minutes of collection).
func TestManyFilesMemoryBounded(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ru_maxrss is in KB on Linux only")
	}
	if testing.Short() {
		t.Skip("runs each command twice on thousands of files")
	}
	row, err := os.ReadFile(filepath.Join(fixtures, "two_filters", "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	row = row[:strings.IndexByte(string(row), '\n')+1]
	folder := func(n int) string {
		dir := t.TempDir()
		for i := range n {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("samples_task%06d_2025-08-07T11-42-40.066002.jsonl", i)), row, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	small, big := folder(300), folder(3000)
	for _, cmd := range []string{"check", "summary", "export"} {
		a, b := peakMB(t, cmd, small), peakMB(t, cmd, big)
		if b-a > 10 {
			t.Errorf("%s: peak %.0f MB on 3,000 files, %.0f MB on 300: it grows with the files held", cmd, b, a)
		}
	}
}
