package model

import (
	"context"
	"runtime"
	"sync"
)

// Gate lets the work a user is waiting for go first on a small machine:
// background work that can wait (a deep pass) calls Pause between its
// units of work, which blocks while someone holds the gate (a search
// typed in the browser, a record being opened). A nil Gate is never held.
type Gate struct {
	mu   sync.Mutex
	held int
	free chan struct{} // closed while nobody holds the gate
}

// NewGate returns a gate nobody holds.
func NewGate() *Gate {
	g := &Gate{free: make(chan struct{})}
	close(g.free)
	return g
}

// Hold holds the gate until release is called (once; later calls do
// nothing). Holds nest: the gate opens when the last is released.
func (g *Gate) Hold() (release func()) {
	if g == nil {
		return func() {}
	}
	g.mu.Lock()
	if g.held == 0 {
		g.free = make(chan struct{})
	}
	g.held++
	g.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			if g.held--; g.held == 0 {
				close(g.free)
			}
		})
	}
}

// wait blocks while the gate is held, or until ctx ends.
func (g *Gate) wait(ctx context.Context) error {
	g.mu.Lock()
	free := g.free
	g.mu.Unlock()
	select {
	case <-free:
		return ctx.Err()
	case <-ctx.Done():
		return ctx.Err()
	}
}

type gateKey struct{}

// WithGate returns ctx carrying g, for Pause.
func WithGate(ctx context.Context, g *Gate) context.Context {
	return context.WithValue(ctx, gateKey{}, g)
}

// Pause blocks while the gate ctx carries is held, and returns ctx's
// error, if any: background work calls it where it would check ctx.
//
// With a gate (the browser's background work) it also yields the
// processor: a CPU-bound worker that never blocks is otherwise taken off
// only by the runtime's preemption, every 10 ms, and a goroutine back
// from a blocking read (the terminal's input, a key the user pressed)
// waits for it on the global run queue. On two cores, with one worker per
// core, every key then took up to 10 ms to reach the browser, and a
// search typed while the deep pass ran up to 30 ms before it started.
func Pause(ctx context.Context) error {
	if g, _ := ctx.Value(gateKey{}).(*Gate); g != nil {
		runtime.Gosched()
		return g.wait(ctx)
	}
	return ctx.Err()
}
