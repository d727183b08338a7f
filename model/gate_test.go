package model

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestGatePausesWhileHeld: Pause blocks while a hold is in place (nested
// holds included), returns when the last is released, and ends with the
// context.
func TestGatePausesWhileHeld(t *testing.T) {
	g := NewGate()
	ctx := WithGate(context.Background(), g)
	if err := Pause(ctx); err != nil {
		t.Fatalf("free gate: %v", err)
	}
	r1, r2 := g.Hold(), g.Hold()
	done := make(chan error, 1)
	go func() { done <- Pause(ctx) }()
	r1()
	r1() // a second release of the same hold does nothing
	select {
	case <-done:
		t.Fatal("Pause returned while a hold remained")
	case <-time.After(20 * time.Millisecond):
	}
	r2()
	if err := <-done; err != nil {
		t.Fatalf("after release: %v", err)
	}
	release := g.Hold()
	defer release()
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := Pause(cctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled while held: %v", err)
	}
	if err := Pause(context.Background()); err != nil {
		t.Errorf("no gate: %v", err)
	}
}

// TestPauseYields: background work that calls Pause between its units
// lets a waiting goroutine run at once (a key read from the terminal,
// a search just started), not only when the runtime preempts it every
// 10 ms. On one processor, a goroutine made runnable runs within a few
// Pause calls of a worker that never blocks otherwise.
func TestPauseYields(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	ctx := WithGate(context.Background(), NewGate())
	var ran atomic.Bool
	go ran.Store(true)
	calls := 0
	for ; calls < 10_000_000 && !ran.Load(); calls++ {
		if err := Pause(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if calls > 100 {
		t.Errorf("the waiting goroutine ran after %d Pause calls", calls)
	}
}
