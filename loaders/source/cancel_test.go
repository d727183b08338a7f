package source

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"evalview/loaders/source/sourcetest"
)

// hangGuard is how long a test waits for what must come at once before
// it fails as hung: a guard, not a measure (every request's timeout is an
// hour in these tests, so that only the cancel can end it).
const hangGuard = 10 * time.Second

// waitFor waits until cond holds, or fails the test after hangGuard.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	end := time.Now().Add(hangGuard)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("hung waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// result waits for the error of a read that must end, failing after
// hangGuard.
func result(t *testing.T, what string, ch <-chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(hangGuard):
		t.Fatalf("%s: still reading after the cancel", what)
		return nil
	}
}

// stalled is a web server whose file f.jsonl (two blocks) stats, then
// answers no later request: every read past the first block waits.
func stalled(t *testing.T) (*sourcetest.Web, string) {
	t.Helper()
	fresh(t)
	Timeout = time.Hour
	web := sourcetest.NewWeb(t)
	web.Put("/f.jsonl", data(3*blockSize), "", "")
	p := web.URL + "/f.jsonl"
	if _, err := Stat(p); err != nil {
		t.Fatal(err)
	}
	hold := make(chan struct{})
	t.Cleanup(func() { close(hold) })
	web.Fail(sourcetest.Fault{Match: "/f.jsonl", Hold: hold})
	return web, p
}

// A read waiting on a silent server ends when its file's context is
// cancelled, with an error naming the file and wrapping the context's,
// and the request it waited on ends too (the server sees its client go).
func TestCancelEndsARead(t *testing.T) {
	web, p := stalled(t)
	ctx, cancel := context.WithCancel(context.Background())
	f, err := OpenContext(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	done := make(chan error, 1)
	go func() {
		_, err := f.ReadAt(make([]byte, 100), blockSize+5)
		done <- err
	}()
	waitFor(t, "the read's request", func() bool { return web.Requests.Load() >= 2 })
	cancel()
	err = result(t, "a cancelled read", done)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "cancelled") {
		t.Errorf("a cancelled read: %v", err)
	}
	waitFor(t, "the request to end", func() bool { return web.Gone.Load() >= 1 })
	// A read after the cancel ends at once too.
	if _, err := f.ReadAt(make([]byte, 10), 2*blockSize+1); !errors.Is(err, context.Canceled) {
		t.Errorf("a read after the cancel: %v", err)
	}
}

// Closing a file ends its reads that wait (a sequential read with its
// read-ahead, and a read at an offset), and the requests made for them.
func TestCloseEndsReads(t *testing.T) {
	web, p := stalled(t)
	f, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	seq := make(chan error, 1)
	at := make(chan error, 1)
	go func() {
		_, err := io.ReadAll(f)
		seq <- err
	}()
	go func() {
		_, err := f.ReadAt(make([]byte, 100), 2*blockSize+5)
		at <- err
	}()
	// Both reads wait (the second's block may be in the first's request).
	o := f.(*remoteFile).obj
	waitFor(t, "the reads to wait", func() bool {
		blocks.mu.Lock()
		defer blocks.mu.Unlock()
		return len(blocks.pos[o.ak()]) == 2 && web.Requests.Load() >= 2
	})
	asked := web.Requests.Load() - 1
	f.Close()
	for what, ch := range map[string]chan error{"a sequential read": seq, "a read at an offset": at} {
		if err := result(t, what, ch); !errors.Is(err, errClosed) {
			t.Errorf("%s after Close: %v", what, err)
		}
	}
	waitFor(t, "every request to end", func() bool { return web.Gone.Load() >= asked })
}

// A stat or a listing of a silent server ends when its context is
// cancelled: a web server, the Hub, S3.
func TestCancelEndsAStat(t *testing.T) {
	fresh(t)
	Timeout = time.Hour
	hold := make(chan struct{})
	defer close(hold)
	web := sourcetest.NewWeb(t)
	web.Put("/f.jsonl", data(100), "", "")
	web.Fail(sourcetest.Fault{Match: "/", Hold: hold})
	hub := sourcetest.NewHub(t)
	hub.Put("datasets/o/n", "f.jsonl", data(100))
	hub.Fail(sourcetest.Fault{Match: "/", Hold: hold})
	s := sourcetest.NewS3(t, "bkt")
	s.Put(t, "f.jsonl", data(100))
	s.Fail(sourcetest.Fault{Match: "/bkt", Hold: hold})
	for _, c := range []struct {
		p     string
		asked func() int64
		fn    func(context.Context, string) error
	}{
		{web.URL + "/f.jsonl", web.Requests.Load, func(ctx context.Context, p string) error { _, err := StatContext(ctx, p); return err }},
		{web.URL + "/dir/", web.Requests.Load, func(ctx context.Context, p string) error { _, err := ReadDirContext(ctx, p); return err }},
		{"hf://datasets/o/n/f.jsonl", hub.Requests.Load, func(ctx context.Context, p string) error { _, err := ReadFileContext(ctx, p); return err }},
		{"s3://bkt/f.jsonl", s.Requests.Load, func(ctx context.Context, p string) error { _, err := OpenContext(ctx, p); return err }},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		before := c.asked()
		go func() { done <- c.fn(ctx, c.p) }()
		waitFor(t, c.p+"'s request", func() bool { return c.asked() > before })
		cancel()
		if err := result(t, c.p, done); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), strings.TrimSuffix(c.p, "/")) {
			t.Errorf("%s: %v", c.p, err)
		}
	}
}
