package tui

import (
	"bytes"
	"os"
	"strings"
	"sync"
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
