package tui

import (
	"runtime/debug"
	"sync/atomic"

	"github.com/charmbracelet/x/ansi"
)

// startGC is the collector's rate (GOGC) Prewarm replaced, plus one (0:
// none replaced, or already restored).
var startGC atomic.Int64

// Prewarm readies the program for its first frame while the caller opens
// the files: it makes the garbage collector run at a fifth of its rate
// until the first frame is drawn: the start allocates read blocks and
// parses rows while the heap is a few MB, and each collection then costs
// the first screen milliseconds of CPU for nothing it would free. The
// heap is small until then, so the memory this holds is too.
func Prewarm() {
	startGC.Store(int64(debug.SetGCPercent(500)) + 1)
}

// warmWidths builds, on another goroutine, go-runewidth's width table,
// which the terminal renderer's first non-ASCII cell would otherwise
// build in Bubble Tea's first frame (about 2 ms; the renderer measures
// cells as wcwidth does until the terminal says it can do better). Init
// starts it once the first frame is painted (see prepaint), which does
// not need it: on two cores, built at the start, it took one from the
// opening of the files.
func warmWidths() {
	go func() {
		_ = ansi.StringWidthWc("·│▸✓")
	}()
}

// firstFrameDrawn restores the collector's rate once the first frame is
// drawn (or the browser ends without one).
func firstFrameDrawn() {
	if p := startGC.Swap(0); p != 0 {
		debug.SetGCPercent(int(p - 1))
	}
}
