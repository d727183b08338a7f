package tui

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/internal/safefile"
	"evalview/tui/ui"
)

// stderrCapture tees os.Stderr while the program runs. A panic that Bubble
// Tea recovers itself (one in a command the browser did not wrap) is
// printed to stderr only, value and stack; keeping a copy lets Run still
// write the crash log the user is promised.
type stderrCapture struct {
	orig, w *os.File
	done    chan struct{}
	mu      sync.Mutex
	tail    []byte // the last bytes written, at most captureMax
}

// captureMax bounds what the capture keeps: a stack, not a log.
const captureMax = 256 << 10

// captureStderr starts the tee; nil when a pipe cannot be made (Run then
// works as before, without the copy).
func captureStderr() *stderrCapture {
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	c := &stderrCapture{orig: os.Stderr, w: w, done: make(chan struct{})}
	os.Stderr = w
	go func() {
		defer close(c.done)
		defer r.Close()
		buf := make([]byte, 32<<10)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				c.orig.Write(buf[:n]) // the user still sees it as it comes
				c.mu.Lock()
				c.tail = append(c.tail, buf[:n]...)
				if len(c.tail) > captureMax {
					c.tail = append([]byte(nil), c.tail[len(c.tail)-captureMax/2:]...)
				}
				c.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	return c
}

// stop restores os.Stderr, waits for the copy to drain and returns what
// was written, with the terminal's "\r\n" line ends made plain.
func (c *stderrCapture) stop() string {
	if c == nil {
		return ""
	}
	os.Stderr = c.orig
	c.w.Close()
	<-c.done
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.ReplaceAll(string(bytes.Clone(c.tail)), "\r\n", "\n")
}

// crashInfo is a recovered panic with its stack.
type crashInfo struct {
	value any
	stack []byte
}

// String is the crash log's body: the panic value, then the stack.
func (c *crashInfo) String() string {
	return fmt.Sprintf("panic: %v\n\n%s", c.value, c.stack)
}

// restoreTerminal leaves the alternate screen, shows the cursor and turns
// mouse reporting off, in case the program could not.
func restoreTerminal() {
	fmt.Fprint(os.Stdout, "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1049l\x1b[?25h")
}

// crashError writes the crash log and returns the error that points at it.
func crashError(c *crashInfo) error {
	path, werr := writeCrashLog(c, time.Now())
	if werr != nil {
		return fmt.Errorf("evalview crashed: %v (and the crash log could not be written: %v)\n%s", c.value, werr, c.stack)
	}
	return fmt.Errorf("evalview crashed: %v; the crash log is %s (please attach it to a bug report)", c.value, path)
}

// writeCrashLog writes the panic and its stack to
// os.TempDir()/evalview-crash-<time>-<random>.log: created exclusively,
// under a name nobody can predict, readable by the user alone, since the
// temporary folder is shared and a link planted at a name known in
// advance would have the log written through it.
func writeCrashLog(c *crashInfo, now time.Time) (string, error) {
	prefix := "evalview-crash-" + now.Format("20060102-150405.000") + "-"
	body := fmt.Sprintf("evalview crash at %s\n\n%s", now.Format(time.RFC3339), c.String())
	f, err := safefile.CreateTemp(os.TempDir(), prefix, ".log", 0o600)
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// testPanicEnv names the environment variable that makes the browser panic
// on purpose a moment after it starts, so that crash handling can be
// checked end to end with the real binary in a real terminal:
//
//   - "update": inside Update (the model's own recovery);
//   - "command": inside a command wrapped by safeCmd;
//   - "tea": inside a bare command, left to Bubble Tea's recovery.
//
// It exists for tests only; nothing happens when it is unset.
const testPanicEnv = "EVALVIEW_TEST_PANIC"

// testPanicMsg panics where it is told to once it is applied in Update.
type testPanicMsg struct{ where string }

func (t testPanicMsg) applyTo(*Model) tea.Cmd {
	switch t.where {
	case "command":
		return ui.SafeCmd(func() tea.Msg { panic(testPanicEnv + " in a command") })
	case "tea":
		return func() tea.Msg { panic(testPanicEnv + " outside the browser's recovery") }
	}
	panic(testPanicEnv + " in Update")
}

// armTestPanic sends the panic message once the first screen is up, when
// testPanicEnv asks for it.
func armTestPanic(p *tea.Program) {
	where := os.Getenv(testPanicEnv)
	if where == "" {
		return
	}
	go func() {
		time.Sleep(time.Second)
		p.Send(testPanicMsg{where})
	}()
}
