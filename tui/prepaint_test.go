package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// TestPaintFrameShowsTheView paints a model's view, in colors, on an
// emulated terminal and reads the screen back: every row shows the
// view's line, and a line wider than the screen is cut at its edge
// instead of wrapping onto the next row or scrolling the screen.
func TestPaintFrameShowsTheView(t *testing.T) {
	const w, h = 100, 30
	m := New(allFixtures(), Options{Theme: "dark"})
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: w, Height: h})
	content := m.View().Content
	if !strings.Contains(content, "\x1b[") {
		t.Fatal("the view has no colors to paint")
	}
	lines := strings.Split(content, "\n")
	if len(lines) != h {
		t.Fatalf("the view has %d lines, want %d", len(lines), h)
	}
	lines[h-1] = strings.Repeat("wide ", 40) // 200 cells, on the last row
	em := vt.NewEmulator(w, h)
	if _, err := em.Write([]byte(paintFrame(strings.Join(lines, "\n"), h))); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(em.String(), "\n")
	if len(got) != h {
		t.Fatalf("the screen has %d rows, want %d", len(got), h)
	}
	for i, line := range lines {
		want := strings.TrimRight(ansi.Truncate(ansi.Strip(line), w, ""), " ")
		if g := strings.TrimRight(got[i], " "); g != want {
			t.Errorf("row %d:\n got %q\nwant %q", i+1, g, want)
		}
	}
}

// TestPainterYieldsToBubbleTea: the first frame is painted only before
// Bubble Tea's first write, and at most once.
func TestPainterYieldsToBubbleTea(t *testing.T) {
	open := func() (*painter, string) {
		path := filepath.Join(t.TempDir(), "out")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return &painter{File: f}, path
	}
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	p, path := open()
	p.paint("frame")
	p.paint("again")
	if _, err := p.Write([]byte("|tea")); err != nil {
		t.Fatal(err)
	}
	if got := read(path); got != "frame|tea" || !p.painted {
		t.Errorf("painted first: the output is %q (painted %v), want %q", got, p.painted, "frame|tea")
	}

	p, path = open()
	if _, err := p.Write([]byte("tea|")); err != nil {
		t.Fatal(err)
	}
	p.paint("frame")
	if got := read(path); got != "tea|" || p.painted {
		t.Errorf("painted after Bubble Tea wrote: the output is %q (painted %v), want %q", got, p.painted, "tea|")
	}
}

// TestPrepaintIsBubbleTeasFirstFrame: the frame Init paints is the one
// Bubble Tea's first View returns once its size message is taken, colors
// and focus included, and once Init's commands have run the two models
// show the same.
func TestPrepaintIsBubbleTeasFirstFrame(t *testing.T) {
	const w, h = 100, 30
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()

	painted := New(allFixtures(), Options{Theme: "dark"})
	painted.painter = &painter{File: out, size: func() (int, int, error) { return w, h, nil }}
	paintedInit := painted.Init()
	if !painted.painter.painted || painted.kept == nil {
		t.Fatal("Init painted nothing")
	}
	first := painted.kept.Content

	// Bubble Tea runs Init's commands (the first record's load) on their
	// own goroutines: its first frame comes before they are done.
	plain := New(allFixtures(), Options{Theme: "dark"})
	plainInit := plain.Init()
	_, sizeCmd := plain.Update(tea.WindowSizeMsg{Width: w, Height: h})
	if want := plain.View().Content; first != want {
		t.Errorf("the painted frame differs from Bubble Tea's first:\n got %q\nwant %q", first, want)
	}
	b, err := os.ReadFile(out.Name())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), ansi.Strip(strings.SplitN(first, "\n", 2)[0])) {
		t.Errorf("the painter's output does not hold the frame's first line: %q", b[:min(len(b), 200)])
	}
	drive(painted, paintedInit)
	drive(plain, tea.Batch(plainInit, sizeCmd))
	if a, b := painted.View().Content, plain.View().Content; a != b {
		t.Errorf("once Init's commands ran, the painted model shows\n%s\nand the other\n%s", a, b)
	}
}

// TestExternalProgramGetsTheTerminal: a pager or editor run from the
// browser writes to the terminal's file itself, not to the painter that
// Bubble Tea writes through (exec would pipe it).
func TestExternalProgramGetsTheTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "tty"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := execCmd{exec.Command("true")}
	c.SetStdout(&painter{File: f})
	if c.Stdout != f {
		t.Errorf("the program's output is %T, not the terminal's file", c.Stdout)
	}
	c.SetStdout(os.Stderr)
	if c.Stdout != os.Stderr {
		t.Errorf("another writer was not kept: %T", c.Stdout)
	}
}
