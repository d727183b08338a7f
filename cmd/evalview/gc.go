package main

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"

	"evalview/loaders/jsonl"
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
// memory budget for inputs paths unless the user set GOMEMLIMIT or an
// input is compressed: the index of a .jsonl.gz grows with what it holds
// uncompressed, which its size does not tell.
func tuneBatchGC(paths []string) {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(batchGCPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	if n, compressed := inputBytes(paths); !compressed {
		budget := budgetBase + budgetPerInput*float64(n)
		debug.SetMemoryLimit(int64(heapShare * budget))
	}
}

// maxSizedFiles bounds the files inputBytes looks at in folders.
const maxSizedFiles = 100_000

// inputBytes is the size of the files at paths and in the folders among
// them (the first maxSizedFiles), following symbolic links to files and
// named folders; compressed tells whether any is gzip or zstd.
func inputBytes(paths []string) (n int64, compressed bool) {
	files := 0
	add := func(path string, size int64) {
		n += size
		files++
		compressed = compressed || jsonl.IsCompressedName(path)
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		switch {
		case err != nil:
		case st.Mode().IsRegular():
			add(p, st.Size())
			compressed = compressed || compressedContent(p) // by another name
		case st.IsDir():
			root, err := filepath.EvalSymlinks(p)
			if err != nil {
				continue
			}
			_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return nil
				}
				if files >= maxSizedFiles {
					return filepath.SkipAll
				}
				if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
					add(path, info.Size())
				}
				return nil
			})
		}
	}
	return n, compressed
}

// compressedContent reports whether the file at path starts as gzip or
// zstd data.
func compressedContent(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4)
	n, _ := io.ReadFull(f, head)
	return jsonl.CompressionOf(head[:n]) != jsonl.Plain
}
