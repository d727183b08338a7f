// Package crash is what the browser does when it panics: the panic with
// its stack (Info), the crash log written to os.TempDir() and the error
// that names it, the terminal restored, and a copy of stderr kept for the
// panics Bubble Tea recovers itself.
package crash

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"evalview/internal/safefile"
)

// Capture tees os.Stderr while the program runs. A panic that Bubble
// Tea recovers itself (one in a command the browser did not wrap) is
// printed to stderr only, value and stack; keeping a copy lets Run still
// write the crash log the user is promised.
type Capture struct {
	orig, w *os.File
	done    chan struct{}
	mu      sync.Mutex
	tail    []byte // the last bytes written, at most captureMax
}

// captureMax bounds what the capture keeps: a stack, not a log.
const captureMax = 256 << 10

// CaptureStderr starts the tee; nil when a pipe cannot be made (Run then
// works as before, without the copy).
func CaptureStderr() *Capture {
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	c := &Capture{orig: os.Stderr, w: w, done: make(chan struct{})}
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

// Stop restores os.Stderr, waits for the copy to drain and returns what
// was written, with the terminal's "\r\n" line ends made plain.
func (c *Capture) Stop() string {
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

// Info is a recovered panic with its stack.
type Info struct {
	Value any
	Stack []byte
}

// String is the crash log's body: the panic value, then the stack.
func (c *Info) String() string {
	return fmt.Sprintf("panic: %v\n\n%s", c.Value, c.Stack)
}

// RestoreTerminal leaves the alternate screen, shows the cursor and turns
// mouse reporting off, in case the program could not.
func RestoreTerminal() {
	fmt.Fprint(os.Stdout, "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1049l\x1b[?25h")
}

// Error writes the crash log and returns the error that points at it.
func Error(c *Info) error {
	path, werr := WriteLog(c, time.Now())
	if werr != nil {
		return fmt.Errorf("evalview crashed: %v (and the crash log could not be written: %v)\n%s", c.Value, werr, c.Stack)
	}
	return fmt.Errorf("evalview crashed: %v; the crash log is %s (please attach it to a bug report)", c.Value, path)
}

// WriteLog writes the panic and its stack to
// os.TempDir()/evalview-crash-<time>-<random>.log: created exclusively,
// under a name nobody can predict, readable by the user alone, since the
// temporary folder is shared and a link planted at a name known in
// advance would have the log written through it.
func WriteLog(c *Info, now time.Time) (string, error) {
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
