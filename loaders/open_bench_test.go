package loaders

import (
	"fmt"
	"testing"
	"time"

	"evalview/model"
)

// BenchmarkOpenFolder opens a folder of small samples files as the
// browser does (Open, in the background): detection, the walk, every
// file's index started. A folder of 5,000 of them opened in about 130 ms
// before the walk of issue 29; the walk must not make it slower.
func BenchmarkOpenFolder(b *testing.B) {
	for _, kind := range []model.Kind{model.KindLMEval, model.KindSample} {
		n := 5000
		dir := manyFilesFolder(b, n, kind)
		b.Run(fmt.Sprintf("%s/files=%d", kind, n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				dss, err := Open([]string{dir}, Options{Background: true})
				if err != nil || len(dss) != n {
					b.Fatalf("%d datasets, %v", len(dss), err)
				}
				for _, ds := range dss {
					if w, ok := ds.Records.(interface{ Wait() error }); ok {
						_ = w.Wait()
					}
				}
			}
		})
	}
}

// BenchmarkFirstDataset is how long Each takes to hand over the first
// dataset of a folder of many tiny files: the walk hands artifacts over
// as it finds them, so a big folder does not block the first.
func BenchmarkFirstDataset(b *testing.B) {
	n := 20000
	dir := manyFilesFolder(b, n, model.KindSample)
	b.Run(fmt.Sprintf("sample/files=%d", n), func(b *testing.B) {
		var first, all time.Duration
		for b.Loop() {
			start := time.Now()
			got := 0
			err := Each([]string{dir}, Options{}, func(*model.Dataset) error {
				if got == 0 {
					first += time.Since(start)
				}
				got++
				return nil
			})
			if err != nil || got != n {
				b.Fatalf("%d datasets, %v", got, err)
			}
			all += time.Since(start)
		}
		b.ReportMetric(float64(first.Microseconds())/float64(b.N)/1e3, "ms-first")
		b.ReportMetric(float64(all.Microseconds())/float64(b.N)/1e3, "ms-all")
	})
}
