package lmeval

import (
	"context"
	"os"
	"testing"
	"time"

	"evalview/internal/testos"
)

// BenchmarkDeep measures the deep check (every filter pipeline re-applied
// to every repeat) over the samples file named by EVALVIEW_BENCH_SAMPLES
// (for example one written by cmd/evalgen), against indexing the same
// file in the same run: sub-benchmark "index" opens the file (as
// BenchmarkOpen does), "deep" runs Deep on an index opened once,
// "prepared" opens for the deep check and runs it (check's work). All
// report MB/s and the CPU time per op over all threads (cpu-ms/op), which
// stays meaningful on a machine whose cores are shared.
func BenchmarkDeep(b *testing.B) {
	path := os.Getenv("EVALVIEW_BENCH_SAMPLES")
	if path == "" {
		b.Skip("set EVALVIEW_BENCH_SAMPLES to a samples file")
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("index", func(b *testing.B) {
		b.SetBytes(st.Size())
		cpu := cpuTime()
		for i := 0; i < b.N; i++ {
			dss, err := Open(path)
			if err != nil || len(dss) == 0 {
				b.Fatal(err)
			}
		}
		reportCPU(b, cpu)
	})
	b.Run("deep", func(b *testing.B) {
		dss, err := Open(path)
		if err != nil || len(dss) == 0 || dss[0].Deep == nil {
			b.Fatalf("open %s: %v", path, err)
		}
		b.SetBytes(st.Size())
		b.ResetTimer()
		cpu := cpuTime()
		for i := 0; i < b.N; i++ {
			rep, err := dss[0].Deep(context.Background(), nil)
			if err != nil || rep == nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, cpu)
	})
	// "prepared" is what check and summary do: open with the deep check
	// prepared while indexing, then run it.
	b.Run("prepared", func(b *testing.B) {
		b.SetBytes(st.Size())
		cpu := cpuTime()
		for i := 0; i < b.N; i++ {
			dss, err := OpenForDeep(path)
			if err != nil || len(dss) == 0 || dss[0].Deep == nil {
				b.Fatal(err)
			}
			if _, err := dss[0].Deep(context.Background(), nil); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, cpu)
	})
}

// cpuTime is the process's user+system CPU time so far.
func cpuTime() time.Duration { return testos.CPUTime() }

func reportCPU(b *testing.B, since time.Duration) {
	b.ReportMetric(float64(cpuTime()-since)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}
