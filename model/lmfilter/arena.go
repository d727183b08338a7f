package lmfilter

// Arena lends the slices pipeline runs need (per-repeat traces, values,
// flags) from buffers reused across requests, so a pass over millions of
// repeats does not allocate them afresh for every run. Everything a run
// returns (Result.PerRepeat included) may live in the arena: after Reset,
// results of earlier runs must no longer be used. The zero value is ready;
// an Arena is not safe for concurrent use.
type Arena struct {
	traces []RepeatTrace
	items  []item
	flags  []bool
}

// Reset makes the arena's buffers available again.
func (a *Arena) Reset() {
	if a == nil {
		return
	}
	a.traces, a.items, a.flags = a.traces[:0], a.items[:0], a.flags[:0]
}

// take returns n zeroed elements of buf's spare capacity (a new, larger
// buffer when it has too little: slices lent before keep the old one).
func take[T any](buf *[]T, n int) []T {
	b := *buf
	if cap(b)-len(b) < n {
		b = make([]T, 0, max(2*cap(b), n, 64))
	}
	s := b[len(b) : len(b)+n : len(b)+n]
	clear(s)
	*buf = b[:len(b)+n]
	return s
}

func (a *Arena) traceSlice(n int) []RepeatTrace {
	if a == nil {
		return make([]RepeatTrace, n)
	}
	return take(&a.traces, n)
}

func (a *Arena) itemSlice(n int) []item {
	if a == nil {
		return make([]item, n)
	}
	return take(&a.items, n)
}

func (a *Arena) boolSlice(n int) []bool {
	if a == nil {
		return make([]bool, n)
	}
	return take(&a.flags, n)
}
