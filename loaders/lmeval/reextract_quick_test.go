package lmeval

import (
	"reflect"
	"testing"
)

// TestQuickDocMatchesEachRun: wherever the quick path takes a doc, it
// reports what the executor's path (eachRun) reports, and it takes most
// docs of the fixtures and real folders (or the deep check loses its
// speed silently).
func TestQuickDocMatchesEachRun(t *testing.T) {
	quick, docs := 0, 0
	for _, dir := range leanFolders(t) {
		a, err := Open(dir)
		if err != nil {
			continue
		}
		b, _ := Open(dir)
		for d, ds := range a {
			x, ok := ds.Records.(*index)
			if !ok {
				continue
			}
			y := b[d].Records.(*index)
			rx, ry := x.newDeepReader(), y.newDeepReader()
			defer rx.Close()
			defer ry.Close()
			for i := 0; i < x.Len(); i++ {
				recQ, textsQ, ok1 := x.leanRecord(rx, i, nil)
				recR, textsR, ok2 := y.leanRecord(ry, i, nil)
				if !ok1 || !ok2 {
					continue
				}
				docs++
				got, ok := x.quickDoc(recQ, textsQ, &rx.quick)
				if !ok {
					continue
				}
				quick++
				if want := y.deepDocRuns(recR, textsR, ry); !reflect.DeepEqual(got, want) {
					t.Errorf("%s record %d: quick %+v, executor %+v", ds.Path, i, got, want)
				}
			}
		}
	}
	if quick < docs/2 || quick < 10 {
		t.Fatalf("the quick path took %d of %d docs", quick, docs)
	}
	t.Logf("quick path: %d of %d docs", quick, docs)
}
