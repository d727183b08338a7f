package main

import (
	"runtime"
	"testing"
	"time"
)

// TestAfterEachGC: the hook runs after every collection, not only the
// first (it arms itself again), with the heap the collection found live.
func TestAfterEachGC(t *testing.T) {
	calls := make(chan uint64, 16)
	afterEachGC(func(live uint64) {
		select {
		case calls <- live:
		default:
		}
	})
	keep := make([]byte, 8<<20)
	for i := 0; i < 3; i++ {
		runtime.GC()
		select {
		case live := <-calls:
			if live < uint64(len(keep)) {
				t.Errorf("collection %d: live %d bytes, less than the %d kept", i, live, len(keep))
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("collection %d: the hook did not run", i)
		}
	}
	runtime.KeepAlive(keep)
}

// TestBrowserLimit: the budget while what is live fits in it, 1.5x what
// is live beyond, so that the collector never runs without end.
func TestBrowserLimit(t *testing.T) {
	const floor = 200 << 20
	for _, c := range []struct {
		live uint64
		want int64
	}{{0, floor}, {100 << 20, floor}, {200 << 20, 300 << 20}, {400 << 20, 600 << 20}} {
		if got := browserLimit(floor, c.live); got != c.want {
			t.Errorf("live %d MB: limit %d MB, want %d MB", c.live>>20, got>>20, c.want>>20)
		}
	}
}
