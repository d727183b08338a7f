package tui

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// Bubble Tea writes frames only on its ticker, the first one included:
// the first frame reached the terminal up to a tick (8 ms at 120 frames
// a second) plus the program's set-up after the model had it ready,
// about half of the time to the first screen of a small file. So the
// browser paints its first frame itself, from Init: Bubble Tea calls it
// once the terminal is in raw mode (keys typed at the first screen are
// read as keys, not as a line) and before its first tick.
//
// The painter is the program's output, so every write of Bubble Tea's
// goes through it: the first frame is painted only if Bubble Tea has not
// written yet, under the same lock, and never interleaves with a frame of
// Bubble Tea's. Bubble Tea's first frame enters the alternate screen
// again (a no-op there), clears it and draws over it, so nothing painted
// here can stay.

// painter wraps standard output for Bubble Tea (it stays a terminal file:
// Fd, Read and Close are the file's).
type painter struct {
	*os.File
	size    func() (w, h int, err error) // the terminal's
	mu      sync.Mutex
	wrote   bool // Bubble Tea has written: too late to paint
	painted bool
}

// newPainter returns the output to paint the first frame on, or nil when
// standard input or output is not a terminal (Bubble Tea then does not
// take the screen either) or the terminal is dumb.
func newPainter() *painter {
	if !term.IsTerminal(os.Stdout.Fd()) || !term.IsTerminal(os.Stdin.Fd()) || os.Getenv("TERM") == "dumb" {
		return nil
	}
	return &painter{File: os.Stdout, size: func() (int, int, error) { return term.GetSize(os.Stdout.Fd()) }}
}

func (p *painter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.wrote = true
	return p.File.Write(b)
}

// paint writes the first frame unless Bubble Tea wrote first.
func (p *painter) paint(frame string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.wrote || p.painted {
		return
	}
	// Colors downsampled to the terminal's profile, as Bubble Tea's are.
	if _, err := colorprofile.NewWriter(p.File, os.Environ()).Write([]byte(frame)); err == nil {
		p.painted = true
	}
}

// prepaint paints the first frame at the terminal's size: the browser
// takes the size as it takes Bubble Tea's size message (which comes after
// and lays out the same), and the view it then builds is the one Bubble
// Tea's first frame gets. It returns the commands that size message led
// to (the spinner's).
func (m *Model) prepaint() tea.Cmd {
	if m.painter == nil {
		return nil
	}
	w, h, err := m.painter.size()
	if err != nil || w <= 0 || h <= 0 {
		return nil
	}
	_, cmd := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.painter.paint(paintFrame(m.View().Content, h))
	return cmd
}

// paintFrame is the bytes that show content on a terminal of h rows: the
// alternate screen, cursor hidden, cleared, each line placed at its row
// (never by a line feed, which would scroll), with autowrap off while
// the lines are written so that a line wider than the screen cannot
// wrap onto the next row.
func paintFrame(content string, h int) string {
	var b strings.Builder
	b.Grow(len(content) + 16*h + 32)
	b.WriteString("\x1b[?1049h\x1b[?25l\x1b[?7l\x1b[H\x1b[2J")
	for row := 1; row <= h && content != ""; row++ {
		line, rest, _ := strings.Cut(content, "\n")
		content = rest
		b.WriteString("\x1b[")
		b.WriteString(strconv.Itoa(row))
		b.WriteString(";1H")
		b.WriteString(line)
		b.WriteString("\x1b[m")
	}
	b.WriteString("\x1b[?7h")
	return b.String()
}

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
