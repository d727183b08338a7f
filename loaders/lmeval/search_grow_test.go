package lmeval

import (
	"context"
	"errors"
	"reflect"
	"sort"
	"testing"

	"evalview/loaders/lmevalgen"
	"evalview/model"
)

// holdScans takes every scan slot, so that an index opened now does not
// start before release is called.
func holdScans() (release func()) {
	for range cap(scanSlots) {
		scanSlots <- struct{}{}
	}
	return func() {
		for range cap(scanSlots) {
			<-scanSlots
		}
	}
}

// TestSearchRawFollowsGrowingIndex: a search started before the index has
// read anything waits for it and then finds every record the search of
// the complete index finds (the browser searches at the first screen,
// while a big file is still being indexed).
func TestSearchRawFollowsGrowingIndex(t *testing.T) {
	path := genSamples(t, lmevalgen.Config{Docs: 3000, Repeats: 2, Filters: []string{"score-first", "maj@2"}})
	release := holdScans()
	ds, err := OpenBackground(path)
	if err != nil || len(ds) != 1 {
		release()
		t.Fatalf("open: %d datasets, %v", len(ds), err)
	}
	if ds[0].Records.Done() || ds[0].Records.Len() != 0 {
		release()
		t.Fatalf("the index started: done %v, %d records", ds[0].Records.Done(), ds[0].Records.Len())
	}
	rs := ds[0].Records.(model.RawSearcher)
	type result struct {
		hits []int
		err  error
	}
	got := make(chan result, 1)
	go func() {
		var r result
		r.err = rs.SearchRaw(context.Background(), "the answer is 1", true, func(i int) { r.hits = append(r.hits, i) })
		got <- r
	}()
	release()
	r := <-got
	if r.err != nil {
		t.Fatal(r.err)
	}
	var want []int
	if err := rs.SearchRaw(context.Background(), "the answer is 1", true, func(i int) { want = append(want, i) }); err != nil {
		t.Fatal(err)
	}
	if len(want) < 10 || len(want) == ds[0].Records.Len() {
		t.Fatalf("the needle is a poor test: %d of %d records", len(want), ds[0].Records.Len())
	}
	seen := map[int]bool{}
	for _, h := range r.hits {
		if seen[h] {
			t.Fatalf("record %d reported twice", h)
		}
		seen[h] = true
	}
	sort.Ints(r.hits)
	if !reflect.DeepEqual(r.hits, want) {
		t.Errorf("while growing: %d hits, complete: %d hits", len(r.hits), len(want))
	}
}

// TestSearchRawCancelledWhileWaiting: a search waiting for the index ends
// when it is cancelled (the user typed on), not when the index is done.
func TestSearchRawCancelledWhileWaiting(t *testing.T) {
	path := genSamples(t, lmevalgen.Config{Docs: 50, Repeats: 2})
	release := holdScans()
	defer release()
	ds, err := OpenBackground(path)
	if err != nil || len(ds) != 1 {
		t.Fatalf("open: %d datasets, %v", len(ds), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- ds[0].Records.(model.RawSearcher).SearchRaw(ctx, "question", true, func(int) {})
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search: %v", err)
	}
}
