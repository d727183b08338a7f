package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
)

// batchGCPercent is the collector's GOGC for `check` and `summary`. Both
// index the whole file and then re-apply every filter pipeline to every
// repeat (the deep check), which allocates steadily while the index, the
// live heap, stays small: with the default 100 the collector ran a fifth
// of the pass. 200 halves its cycles; the memory limit below keeps the
// peak within the budget all the same.
const batchGCPercent = 200

// Memory budget: 150 MB plus 5% of the input, the browser's target (issue
// 7), applied to the batch commands through the runtime's soft memory
// limit, so that GOGC 200 never lets the process outgrow it on a big file
// (at 4 GB its peak was 379 MB against a budget of 355 MB). The limit
// counts the Go heap only; a fifth of the budget is left for the rest of
// what the process holds (spans not yet returned, stacks, the binary).
const (
	budgetBase     = 150 << 20
	budgetPerInput = 0.05
	heapShare      = 0.8
)

// tuneBatchGC applies batchGCPercent unless the user set GOGC, and the
// memory budget for inputs paths unless the user set GOMEMLIMIT.
func tuneBatchGC(paths []string) {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(batchGCPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		budget := budgetBase + budgetPerInput*float64(inputBytes(paths))
		debug.SetMemoryLimit(int64(heapShare * budget))
	}
}

// maxSizedFiles bounds the files inputBytes looks at in folders.
const maxSizedFiles = 100_000

// inputBytes is the size of the regular files at paths and in the folders
// among them (the first maxSizedFiles).
func inputBytes(paths []string) int64 {
	var n int64
	files := 0
	for _, p := range paths {
		_ = filepath.WalkDir(p, func(_ string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
				n += info.Size()
			}
			if files++; files >= maxSizedFiles {
				return filepath.SkipAll
			}
			return nil
		})
	}
	return n
}
