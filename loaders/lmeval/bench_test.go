package lmeval

import (
	"os"
	"runtime"
	"testing"

	"evalview/model"
)

// BenchmarkOpen indexes the samples file named by EVALVIEW_BENCH_SAMPLES
// (for example one written by cmd/evalgen) and reports its throughput.
func BenchmarkOpen(b *testing.B) {
	path := os.Getenv("EVALVIEW_BENCH_SAMPLES")
	if path == "" {
		b.Skip("set EVALVIEW_BENCH_SAMPLES to a samples file")
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	var ds []*model.Dataset
	for i := 0; i < b.N; i++ {
		ds, err = Open(path)
		if err != nil || len(ds) == 0 {
			b.Fatal(err)
		}
	}
	// What the last index holds once its buffers are gone: the memory
	// target is about offsets and summaries.
	b.StopTimer()
	runtime.GC()
	runtime.GC() // the second empties sync.Pool's victim cache (read blocks)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	records := 0
	for _, d := range ds {
		records += d.Records.Len()
	}
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heapMB")
	b.ReportMetric(float64(ms.HeapAlloc)/float64(max(records, 1)), "heapB/rec")
	runtime.KeepAlive(ds)
}

// BenchmarkRecordLongLine reads back the longest record of the samples
// file named by EVALVIEW_BENCH_LONG (cmd/evalgen -long-line 200MB).
func BenchmarkRecordLongLine(b *testing.B) {
	path := os.Getenv("EVALVIEW_BENCH_LONG")
	if path == "" {
		b.Skip("set EVALVIEW_BENCH_LONG to a samples file with a long line")
	}
	ds, err := Open(path)
	if err != nil || len(ds) == 0 {
		b.Fatal(err)
	}
	x := ds[0].Records.(*index)
	longest, size := 0, 0
	for i := range x.s.count() {
		locs := x.s.rowsOf(i)
		n := 0
		for _, l := range locs {
			n += int(l.size)
		}
		if n > size {
			longest, size = i, n
		}
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := x.Record(longest); err != nil {
			b.Fatal(err)
		}
	}
}
