package main

import (
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"
	"time"
)

// TestAfterEachGC: the hook runs after every collection, not only the
// first (it arms itself again), with the heap the collection found live.
func TestAfterEachGC(t *testing.T) {
	calls := make(chan uint64, 16)
	stop := afterEachGC(func(live uint64) {
		select {
		case calls <- live:
		default:
		}
	})
	defer stop()
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

// TestHoldBrowserHeapAboveLive: the limit starts above what is already
// live, not at the floor under it (the inputs' sizes are known while they
// are indexed): a limit under the live heap made the collector run back
// to back until the first collection's hook raised it.
func TestHoldBrowserHeapAboveLive(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	keep := make([]byte, 64<<20)
	runtime.GC()
	stop := holdBrowserHeap(1 << 20)
	defer stop()
	if got, want := debug.SetMemoryLimit(-1), int64(browserLiveFactor*float64(len(keep))); got < want {
		t.Errorf("limit %d MB with %d MB live, want at least %d MB", got>>20, len(keep)>>20, want>>20)
	}
	runtime.KeepAlive(keep)
}

// TestAfterEachGCStop: once stopped, the hook is not called again (at
// most one call already under way when stop came), while another hook
// sees collections go by.
func TestAfterEachGCStop(t *testing.T) {
	var calls atomic.Int64
	stop := afterEachGC(func(uint64) { calls.Add(1) })
	stop()
	before := calls.Load()
	seen := make(chan struct{}, 16)
	stopWitness := afterEachGC(func(uint64) {
		select {
		case seen <- struct{}{}:
		default:
		}
	})
	defer stopWitness()
	for i := 0; i < 4; i++ {
		runtime.GC()
		select {
		case <-seen:
		case <-time.After(10 * time.Second):
			t.Fatalf("collection %d: the witness hook did not run", i)
		}
	}
	if n := calls.Load() - before; n > 1 {
		t.Errorf("stopped hook called %d times after stop", n)
	}
}
