package lmeval

import (
	"os"
	"slices"
	"testing"
	"time"
)

// BenchmarkWakeWhileIndexing indexes the samples file named by
// EVALVIEW_BENCH_SAMPLES in the background, as the browser does, while
// another goroutine sleeps a millisecond at a time, as the browser's
// event loop waits for a key: it reports how late that goroutine ran
// after its timer fired (the median, the 99th percentile and the
// worst), which is how long a key pressed during the index waits for a
// processor.
func BenchmarkWakeWhileIndexing(b *testing.B) {
	path := os.Getenv("EVALVIEW_BENCH_SAMPLES")
	if path == "" {
		b.Skip("set EVALVIEW_BENCH_SAMPLES to a samples file")
	}
	var lates []time.Duration
	for i := 0; i < b.N; i++ {
		ds, err := OpenBackground(path)
		if err != nil {
			b.Fatal(err)
		}
		for !ds[0].Records.Done() {
			t0 := time.Now()
			time.Sleep(time.Millisecond)
			lates = append(lates, time.Since(t0)-time.Millisecond)
		}
	}
	slices.Sort(lates)
	at := func(q float64) float64 {
		return float64(lates[min(len(lates)-1, int(q*float64(len(lates))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
	b.ReportMetric(at(1), "max-ms")
}
