//go:build linux

package main

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestFirstFramePaintedAtOnce runs the browser on a pseudo-terminal and
// reads what it writes: the first frame comes first, painted by the
// browser itself before Bubble Tea's first write (which waits for its
// frame ticker), with the terminal already in raw mode, so that keys typed
// at the first screen are keys; Bubble Tea's own first frame follows and
// clears the screen before drawing.
func TestFirstFramePaintedAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the browser in a child process")
	}
	ptmx, tty := openPty(t)
	cmd, out := startBrowserChild(t, ptmx, tty)

	const paint = "\x1b[?1049h\x1b[?25l\x1b[?7l\x1b[H\x1b[2J"
	// The demo opens on the overview, whose header says what it holds
	// (it named the first dataset's records before it described the
	// sheet on screen).
	const shown = "Overview"
	var rawAtPaint bool
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		s := out.String()
		if strings.Contains(s, "\x1b[?7h") && !rawAtPaint {
			tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
			rawAtPaint = err == nil && tio.Lflag&(unix.ICANON|unix.ECHO) == 0
			if !rawAtPaint {
				t.Errorf("the first frame is on screen and the terminal is not in raw mode")
			}
		}
		if strings.Count(s, "\x1b[?1049h") >= 2 && strings.Contains(s[strings.LastIndex(s, "\x1b[?1049h"):], shown) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no first frames; the terminal shows %q", tail(s))
		}
	}
	s := out.String()
	if !strings.HasPrefix(s, paint) {
		t.Fatalf("the output does not begin with the painted frame: %q", s[:min(len(s), 80)])
	}
	// The painted frame ends by turning autowrap back on.
	first, rest, ok := strings.Cut(s[len(paint):], "\x1b[?7h")
	// The paths are opened beside the browser: the painted frame shows
	// what is known by then, the overview, a first dataset's records,
	// or what is being read; never a frame with none of them.
	if !ok || !strings.Contains(first, shown) && !strings.Contains(first, "records") && !strings.Contains(first, "reading") {
		t.Errorf("the painted frame shows neither the datasets nor what is being read: %q", tail(first))
	}
	for _, seq := range []string{"\x1b[?1049h", "\x1b[?2026$p", "\x1b]11;?"} {
		if strings.Contains(first, seq) {
			t.Errorf("Bubble Tea wrote (%q) inside the painted frame", seq)
		}
	}
	tea := rest[strings.Index(rest, "\x1b[?1049h"):]
	if !strings.Contains(tea[:min(len(tea), 400)], "\x1b[2J") {
		t.Errorf("Bubble Tea's first frame does not clear the painted one: %q", tea[:min(len(tea), 400)])
	}
	ptmx.Write([]byte("q"))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the browser ended with %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the browser did not end on q")
	}
}
