//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// browserChildEnv makes the test binary run the browser (TestBrowserChild)
// for the signal tests, on a terminal they give it.
const browserChildEnv = "EVALVIEW_BROWSER_CHILD"

// browserArgsEnv, when set, is the child browser's arguments, separated
// by \x1f (the default: the demo).
const browserArgsEnv = "EVALVIEW_BROWSER_ARGS"

// TestBrowserChild is not a test: it is the browser a child process runs.
func TestBrowserChild(t *testing.T) {
	if os.Getenv(browserChildEnv) == "" {
		t.Skip("runs only as a child process of TestSignalsRestoreTheTerminal")
	}
	args := []string{"--theme", "dark", "--demo"}
	if a := os.Getenv(browserArgsEnv); a != "" {
		args = strings.Split(a, "\x1f")
	}
	os.Exit(run(args, os.Stdout, os.Stderr))
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestSignalsRestoreTheTerminal runs the browser on a pseudo-terminal,
// sends it a signal once it is on screen, and checks that the terminal is
// as before: line mode and echo back on (termios), the alternate screen
// left, the cursor shown, mouse reporting off. SIGHUP (an SSH connection
// dropping) and SIGQUIT killed the process with the terminal raw; SIGTERM
// did too when it came before Bubble Tea's own watch of it had started,
// which the first frame, painted a millisecond into Run, now shows.
func TestSignalsRestoreTheTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the browser in child processes")
	}
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			ptmx, tty := openPty(t)
			before, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
			if err != nil {
				t.Fatal(err)
			}
			cmd, out := startBrowserChild(t, ptmx, tty)
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()

			until := func(what string, ok func() bool) {
				t.Helper()
				for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("no %s; the terminal shows %q", what, tail(out.String()))
					}
				}
			}
			until("browser on screen", func() bool {
				s := out.String()
				return strings.Contains(s, "\x1b[?1049h") && strings.Contains(s, "Overview") // the demo opens on the overview
			})
			raw, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
			if err != nil || raw.Lflag&(unix.ICANON|unix.ECHO) != 0 {
				t.Fatalf("the browser did not put the terminal in raw mode: %v", err)
			}
			cmd.Process.Signal(sig)
			select {
			case <-exited:
			case <-time.After(30 * time.Second):
				t.Fatalf("the browser did not end on %v", sig)
			}
			// What the child wrote before it ended is in the pty: let the
			// copy catch up.
			time.Sleep(200 * time.Millisecond)
			after, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
			if err != nil {
				t.Fatal(err)
			}
			if mask := uint32(unix.ICANON | unix.ECHO | unix.ISIG); after.Lflag&mask != before.Lflag&mask {
				t.Errorf("after %v the terminal is still raw: lflag %#x, was %#x", sig, after.Lflag, before.Lflag)
			}
			s := out.String()
			last := s[strings.LastIndex(s, "\x1b[?1049h"):]
			for seq, what := range map[string]string{
				"\x1b[?1049l": "the alternate screen left",
				"\x1b[?25h":   "the cursor shown",
			} {
				if !strings.Contains(last, seq) {
					t.Errorf("after %v: not %s (%q missing); the end of the output: %q", sig, what, seq, tail(s))
				}
			}
			for _, mode := range []string{"1000", "1002", "1003", "1006"} {
				if strings.Contains(s, "\x1b[?"+mode+"h") && strings.LastIndex(s, "\x1b[?"+mode+"l") < strings.LastIndex(s, "\x1b[?"+mode+"h") {
					t.Errorf("after %v: mouse reporting ?%s left on", sig, mode)
				}
			}
		})
	}
}

// openPty opens a pseudo-terminal of 100x30, closed when the test ends;
// the test is skipped where there is none.
func openPty(t *testing.T) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptmx.Close(); tty.Close() })
	pty.Setsize(ptmx, &pty.Winsize{Rows: 30, Cols: 100})
	return ptmx, tty
}

// startBrowserChild starts the browser (TestBrowserChild) on tty, in a
// session of its own, and collects what it writes; it is killed when the
// test ends.
func startBrowserChild(t *testing.T, ptmx, tty *os.File, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestBrowserChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), browserChildEnv+"=1", "TERM=xterm-256color", "XDG_STATE_HOME="+t.TempDir())
	if len(args) > 0 {
		cmd.Env = append(cmd.Env, browserArgsEnv+"="+strings.Join(args, "\x1f"))
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	out := &syncBuffer{}
	go func() { _, _ = ioCopy(out, ptmx) }()
	return cmd, out
}

// ioCopy copies until src fails (the pty is closed).
func ioCopy(dst *syncBuffer, src *os.File) (int64, error) {
	buf := make([]byte, 32<<10)
	var n int64
	for {
		k, err := src.Read(buf)
		dst.Write(buf[:k])
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
}

func tail(s string) string {
	return s[max(0, len(s)-300):]
}
