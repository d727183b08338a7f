//go:build linux

package main

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The browser shows its first screen before the paths are opened, and q
// ends it whatever the opening waits on: a server that accepts and never
// answers, one that sends a byte a second, a file of gigabytes, a folder
// holding a FIFO. Each case starts the browser on a pseudo-terminal,
// waits (with a generous guard, not a timing) for the first frame saying
// what it reads, types q, and wants the process to end with the terminal
// restored. Nothing here measures a duration: cmd/evalbench does.
func TestBrowserAnswersWhileOpening(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the browser in child processes")
	}
	silent := listen(t, func(c net.Conn) {}) // holds the connection, says nothing
	drip := listen(t, func(c net.Conn) {
		c.Read(make([]byte, 4096))
		for _, b := range []byte("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n{") {
			if _, err := c.Write([]byte{b}); err != nil {
				return
			}
			time.Sleep(time.Second)
		}
	})
	dir := t.TempDir()
	// 2 GB in one line, sparse on disk: read in full before it opens.
	huge := filepath.Join(dir, "huge.jsonl")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"id": 1, "text": "`)
	if err := f.Truncate(2 << 30); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	f.Close()
	// A folder whose FIFO nobody writes, beside a good file.
	withFIFO := filepath.Join(dir, "withfifo")
	os.Mkdir(withFIFO, 0o755)
	if err := unix.Mkfifo(filepath.Join(withFIFO, "a.jsonl"), 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	os.WriteFile(filepath.Join(withFIFO, "b.jsonl"), []byte(`{"id": "b1", "question": "q", "answer": "a"}`+"\n"), 0o644)

	for _, c := range []struct {
		name, path string
		// shows is what the first screen shows while the path opens.
		shows string
	}{
		{"silent server", "http://" + silent + "/runs/x.jsonl", "reading http://" + silent + "/runs/x.jsonl…"},
		{"a byte a second", "http://" + drip + "/runs/x.jsonl", "reading http://" + drip + "/runs/x.jsonl…"},
		{"2 GB line", huge, "huge.jsonl"},
		{"folder with a FIFO", withFIFO, "b.jsonl"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ptmx, tty := openPty(t)
			before, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
			if err != nil {
				t.Fatal(err)
			}
			cmd, out := startBrowserChild(t, ptmx, tty, "--theme", "dark", c.path)
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				s := out.String()
				if strings.Contains(s, "\x1b[?1049h") && strings.Contains(s, c.shows) {
					break
				}
				select {
				case err := <-exited:
					t.Fatalf("the browser ended (%v) before its screen showed %q: %q", err, c.shows, tail(s))
				default:
				}
				if time.Now().After(deadline) {
					t.Fatalf("no screen showing %q; the terminal shows %q", c.shows, tail(s))
				}
			}
			ptmx.Write([]byte("q"))
			select {
			case err := <-exited:
				var ee *exec.ExitError
				if err != nil && !(errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Exited()) {
					t.Errorf("the browser ended with %v", err)
				}
				if err != nil {
					t.Errorf("q: the browser ended with %v; the terminal shows %q", err, tail(out.String()))
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("q did not end the browser; the terminal shows %q", tail(out.String()))
			}
			after, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
			if err != nil {
				t.Fatal(err)
			}
			if mask := uint32(unix.ICANON | unix.ECHO | unix.ISIG); after.Lflag&mask != before.Lflag&mask {
				t.Errorf("the terminal is left raw")
			}
		})
	}
}

// listen serves each connection to 127.0.0.1 with serve, on a goroutine,
// until the test ends, and returns the address.
func listen(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no local network: %v", err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	t.Cleanup(func() {
		l.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
			go serve(c)
		}
	}()
	return l.Addr().String()
}
