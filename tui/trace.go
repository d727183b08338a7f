package tui

import (
	"encoding/json"
	"os"
	"sync"
	"time"

	"evalview/tui/ui"
)

// processStart approximates the process's start: package variables are
// set before main runs, a few milliseconds after exec.
var processStart = time.Now()

// TraceEnv names the environment variable that turns timing traces on:
// EVALVIEW_TRACE=FILE makes the browser append one JSON line per event to
// FILE, with ms counted from the process's start:
//
//	{"event":"first_rows","ms":N,"records":N}   the first rows are on screen
//	{"event":"indexed","ms":N,"records":N}      every index is complete
//	{"event":"record_open","ms":N,"took_ms":N,"bytes":N}  a record was loaded
//	{"event":"record_shown","ms":N,"took_ms":N}  its first screen is drawn
//	{"event":"overview_shown","ms":N,"datasets":N}  the overview's first frame
//	{"event":"overview_values","ms":N,"datasets":N}  every cell has its value
//	{"event":"overview","ms":N,"datasets":N}     the overview, every figure final
//
// The benchmark script reads it to time the first screen of a big file.
const TraceEnv = "EVALVIEW_TRACE"

// tracer appends trace events to the trace file; a nil tracer, or one
// without a file, drops them.
type tracer struct {
	mu        sync.Mutex
	f         *os.File
	firstRows bool
	indexed   bool
	// overviewShown, overviewValues and overview are set once the
	// overview drew its first frame, every cell's value (reported, or
	// final), and every figure final.
	overviewShown, overviewValues, overview bool
	// shown is when the last record load started, until its first frame
	// with the detail rendered (record_shown).
	shown time.Time
}

// openTracer opens the trace file named by EVALVIEW_TRACE, or returns a
// tracer that writes nothing.
func openTracer() *tracer {
	t := &tracer{}
	if path := os.Getenv(TraceEnv); path != "" {
		// Trace problems must never stop the browser: no file, no trace.
		t.f, _ = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	}
	return t
}

// emit appends one event with its time since process start.
func (t *tracer) emit(event string, fields map[string]any) {
	if t == nil || t.f == nil {
		return
	}
	ev := map[string]any{"event": event, "ms": time.Since(processStart).Milliseconds()}
	for k, v := range fields {
		ev[k] = v
	}
	b, err := json.Marshal(ev)
	if err != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	_, _ = t.f.Write(append(b, '\n'))
}

// view notes the first frame of m with rows, and the first frame after
// every index is complete. View calls it; it costs two checks a frame.
func (t *tracer) view(m *Model) {
	if t.f == nil {
		return
	}
	if !t.shown.IsZero() && !m.loading && !m.detail.Busy() {
		t.emit("record_shown", map[string]any{"took_ms": time.Since(t.shown).Milliseconds()})
		t.shown = time.Time{}
	}
	if !t.firstRows && m.ready && !m.layout.TooSmall && m.list.Len() > 0 {
		t.firstRows = true
		t.emit("first_rows", map[string]any{"records": m.datasets[m.cur].Records.Len()})
	}
	if ov := m.overview; ov != nil && m.sheets.top() == ui.Sheet(ov) && m.ready && !m.layout.TooSmall {
		if !t.overviewShown {
			t.overviewShown = true
			t.emit("overview_shown", map[string]any{"datasets": len(m.datasets)})
		}
		if !t.overviewValues && ov.Valued() {
			t.overviewValues = true
			t.emit("overview_values", map[string]any{"datasets": len(m.datasets)})
		}
		if !t.overview && ov.Complete() {
			t.overview = true
			t.emit("overview", map[string]any{"datasets": len(m.datasets)})
		}
	}
	if !t.indexed && !anyGrowing(m.datasets) {
		t.indexed = true
		n := 0
		for _, ds := range m.datasets {
			n += ds.Records.Len()
		}
		t.emit("indexed", map[string]any{"records": n})
	}
}

// recordOpen notes a record load that took d and read about n bytes.
func (t *tracer) recordOpen(d time.Duration, n int) {
	t.emit("record_open", map[string]any{"took_ms": d.Milliseconds(), "bytes": n})
	if t.f != nil {
		t.shown = time.Now().Add(-d)
	}
}
