package main

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"

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
	holdBatchBudget(paths)
}

// holdBatchBudget applies the memory budget for inputs paths, as
// tuneBatchGC does, leaving GOGC as it is: export and check --fast, which
// make no deep pass, keep the collector's default pace, but not a heap
// past the budget (export of 10 million plain records peaked at 275 MB,
// twice what its index held, against a budget of 190 MB).
func holdBatchBudget(paths []string) {
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

// browserLiveFactor is how far the browser's heap may grow past what the
// last collection found live, once that is more than its budget allows.
const browserLiveFactor = 1.5

// tuneBrowserGC bounds the browser's heap by the memory budget of its
// inputs (150 MB plus 5% of them), unless the user set GOGC or
// GOMEMLIMIT. The browser keeps every dataset it shows: at 600 files (1.9
// GB) the indexes hold about 200 MB, more than the budget, and with the
// default GOGC the heap grew to twice that (a peak of 560 MB). A fixed
// limit under what is live would make the collector run without end, so
// after each collection the limit becomes the budget, or 1.5x what is
// live when that is more (the peak at 600 files fell to about 360 MB, for
// about a fifth more CPU while indexing; a single 1 GB file, whose index
// stays under the budget, is not slowed). The sizes are summed on a
// goroutine of their own: a folder of 5,000 files takes milliseconds to
// stat, which the first screen does not wait for.
func tuneBrowserGC(paths []string) {
	_, gogc := os.LookupEnv("GOGC")
	_, limit := os.LookupEnv("GOMEMLIMIT")
	if gogc || limit {
		return
	}
	go func() {
		n, _ := inputBytes(paths)
		holdBrowserHeap(int64(heapShare * (budgetBase + budgetPerInput*float64(n))))
	}()
}

// holdBrowserHeap sets the browser's heap limit to floor, or 1.5x what
// the last collection found live when that is more, and keeps it so after
// each collection; stop ends that (tests). The sizes are known while the
// files are indexed, when what is live may already be past the floor: a
// limit under it made the collector run back to back until the first
// collection's hook raised it.
func holdBrowserHeap(floor int64) (stop func()) {
	debug.SetMemoryLimit(browserLimit(floor, liveHeap()))
	return afterEachGC(func(live uint64) { debug.SetMemoryLimit(browserLimit(floor, live)) })
}

// liveHeap is the heap the last collection found live (0 before any).
func liveHeap() uint64 {
	sample := []metrics.Sample{{Name: liveMetric}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}

// liveMetric is the runtime metric of the heap the last collection found
// live.
const liveMetric = "/gc/heap/live:bytes"

// browserLimit is the browser's heap limit once a collection found live
// bytes live: the budget's share floor, or browserLiveFactor x live.
func browserLimit(floor int64, live uint64) int64 {
	return max(floor, int64(browserLiveFactor*float64(live)))
}

// afterEachGC calls fn with the heap found live by each collection, from
// then on until stop is called (a finalizer on an object that each
// collection frees, armed again each time; finalizers run on one
// goroutine of the runtime's own). The call comes when the collection's
// sweep reaches the object, which on a busy process may be a while after
// the collection.
func afterEachGC(fn func(live uint64)) (stop func()) {
	var stopped atomic.Bool
	sample := []metrics.Sample{{Name: liveMetric}}
	var arm func()
	arm = func() {
		sentinel := new([16]byte)
		runtime.SetFinalizer(sentinel, func(*[16]byte) {
			if stopped.Load() {
				return
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				fn(sample[0].Value.Uint64())
			}
			arm()
		})
	}
	arm()
	return func() { stopped.Store(true) }
}
