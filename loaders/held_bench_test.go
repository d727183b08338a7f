package loaders

import (
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"testing"
	"time"
)

// BenchmarkHeldFolder opens the folder named by EVALVIEW_BENCH_FOLDER as
// the browser does (indexes in the background, every dataset kept) and
// reports what the indexes hold once complete, and the most a collection
// found live while they grew: the overview's memory (issue 17) is this
// times the collector's headroom. scripts/bench
// -overview writes such folders (10 models x 60 tasks).
func BenchmarkHeldFolder(b *testing.B) {
	dir := os.Getenv("EVALVIEW_BENCH_FOLDER")
	if dir == "" {
		b.Skip("set EVALVIEW_BENCH_FOLDER to an lm-eval output folder")
	}
	for i := 0; i < b.N; i++ {
		ds, err := Open([]string{dir}, Options{Background: true})
		if err != nil {
			b.Fatal(err)
		}
		records := 0
		var peak uint64
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for _, d := range ds {
			for !d.Records.Done() {
				time.Sleep(time.Millisecond)
				metrics.Read(live)
				peak = max(peak, live[0].Value.Uint64())
			}
			records += d.Records.Len()
		}
		if i < b.N-1 {
			continue
		}
		b.StopTimer()
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(len(ds)), "datasets")
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heapMB")
		b.ReportMetric(float64(ms.HeapAlloc)/float64(max(records, 1)), "heapB/rec")
		b.ReportMetric(float64(records), "records")
		// The most that a collection found live while the indexes grew:
		// the browser's heap limit follows it (cmd/evalview/gc.go).
		b.ReportMetric(float64(peak)/(1<<20), "peakLiveMB")
		if out := os.Getenv("EVALVIEW_BENCH_HEAPPROFILE"); out != "" {
			writeHeapProfile(b, out)
		}
		runtime.KeepAlive(ds)
	}
}

// writeHeapProfile writes what is live now (as of the last collection)
// to path, for `go tool pprof -sample_index=inuse_space`; the -memprofile
// flag cannot, as it writes once the benchmark has dropped what it held.
func writeHeapProfile(b *testing.B, path string) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		b.Fatal(err)
	}
}
