package source

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"evalview/loaders/source/sourcetest"
)

// pattern is a generated object of size bytes (byte i is a function of
// i), served with ranges without holding it in memory.
type pattern struct {
	size, pos int64
}

func patternByte(i int64) byte { return byte(i*7 + i>>11) }

func (p *pattern) Read(b []byte) (int, error) {
	if p.pos >= p.size {
		return 0, io.EOF
	}
	n := min(int64(len(b)), p.size-p.pos)
	for i := int64(0); i < n; i++ {
		b[i] = patternByte(p.pos + i)
	}
	p.pos += n
	return int(n), nil
}

func (p *pattern) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		off += p.pos
	case io.SeekEnd:
		off += p.size
	}
	p.pos = off
	return off, nil
}

// patternServer serves a pattern of size bytes at every path, counting
// requests.
func patternServer(t *testing.T, size int64, requests *atomic.Int64) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("ETag", `"p1"`)
		http.ServeContent(w, r, "", time.Time{}, &pattern{size: size})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Two readers of one remote file: the first reads on sequentially (its
// read-ahead requests run ahead of it, then wait for it), the second
// reads a record whose blocks sit in one of those waiting requests. The
// record comes, though the first reader stays where it is, then closes
// its file (a reload): the request is not given up while a reader waits
// inside it, and a read of a given-up block asks again.
func TestTwoReadersOneReadAheadRun(t *testing.T) {
	fresh(t)
	var requests atomic.Int64
	size := int64(300 * blockSize)
	srv := patternServer(t, size, &requests)
	p := srv.URL + "/big.jsonl"
	a, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, blockSize)
	for i := 0; i < 70; i++ { // reader A at block 70: runs ahead up to block 383 started
		if _, err := io.ReadFull(a, buf); err != nil {
			t.Fatal(err)
		}
	}
	o := a.(*remoteFile).obj
	blocks.mu.Lock()
	_, pending := blocks.m[o.bk(200)]
	blocks.mu.Unlock()
	if !pending {
		t.Fatal("block 200 is not in a read-ahead request: the test sets nothing up")
	}
	b, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// B's record is read by A's request, though A does not move: no
	// request of its own, no wait for a timer.
	before := Requests()
	off := int64(200*blockSize + 100)
	rec := make([]byte, 5000)
	if _, err := b.ReadAt(rec, off); err != nil {
		t.Fatalf("the record read failed: %v", err)
	}
	if n := Requests() - before; n != 0 {
		t.Errorf("the record read made %d requests of its own, want 0 (it is in a request under way)", n)
	}
	// Another record in a later waiting request, then A closes (a
	// reload) while B waits.
	off2 := int64(260*blockSize + 7)
	rec2 := make([]byte, 5000)
	done := make(chan error, 1)
	go func() {
		_, err := b.ReadAt(rec2, off2)
		done <- err
	}()
	for {
		blocks.mu.Lock()
		n := len(blocks.pos[o.ak()])
		blocks.mu.Unlock()
		if n == 2 || len(done) > 0 { // waiting, or read already
			break
		}
		time.Sleep(time.Millisecond)
	}
	a.Close()
	err = <-done
	b.Close()
	settle(t)
	if err != nil {
		t.Fatalf("the record read failed as the other reader closed: %v", err)
	}
	for i := range rec {
		if rec[i] != patternByte(off+int64(i)) || rec2[i] != patternByte(off2+int64(i)) {
			t.Fatalf("wrong byte at %d", i)
		}
	}
}

// A block given up by its read-ahead request (the reader closed its file)
// is asked for again by a read that wanted it, not returned as an error.
func TestReadRetriesAnAbandonedBlock(t *testing.T) {
	fresh(t)
	var requests atomic.Int64
	srv := patternServer(t, 4*blockSize, &requests)
	p := srv.URL + "/x.jsonl"
	f, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o := f.(*remoteFile).obj
	// A block being read by a read-ahead request: the read waits on it,
	// then the request gives it up.
	b := &block{done: make(chan struct{})}
	blocks.mu.Lock()
	blocks.m[o.bk(1)] = b
	blocks.mu.Unlock()
	got := make([]byte, 10)
	done := make(chan error, 1)
	go func() {
		_, err := f.ReadAt(got, blockSize+5)
		done <- err
	}()
	for {
		blocks.mu.Lock()
		users := b.users
		blocks.mu.Unlock()
		if users == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	blocks.deliver(o, 1, b, nil, errAbandoned)
	if err := <-done; err != nil {
		t.Fatalf("read of an abandoned block: %v", err)
	}
	for i := range got {
		if got[i] != patternByte(blockSize+5+int64(i)) {
			t.Fatal("wrong bytes")
		}
	}
}

// Close may run while ReadAt reads (a reload closes a file whose records
// are being read): go test -race.
func TestCloseWhileReading(t *testing.T) {
	fresh(t)
	var requests atomic.Int64
	srv := patternServer(t, 8*blockSize, &requests)
	f, err := Open(srv.URL + "/x.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			buf := make([]byte, 100)
			for j := 0; j < 20; j++ {
				_, err := f.ReadAt(buf, int64(i*blockSize+j))
				if err != nil && !errors.Is(err, errClosed) {
					t.Error(err)
					return
				}
			}
		}(i)
	}
	f.Close()
	wg.Wait()
	if _, err := f.ReadAt(make([]byte, 1), 0); !errors.Is(err, errClosed) {
		t.Errorf("a read after Close: %v", err)
	}
}

// Reset (between runs of the commands in tests) may run while reads do:
// go test -race.
func TestResetWhileReading(t *testing.T) {
	fresh(t)
	var requests atomic.Int64
	srv := patternServer(t, 8*blockSize, &requests)
	p := srv.URL + "/x.jsonl"
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 5; j++ {
				f, err := Open(p)
				if err != nil {
					t.Error(err)
					return
				}
				buf := make([]byte, 1000)
				if _, err := f.ReadAt(buf, int64(i*blockSize+j*10)); err != nil {
					t.Error(err)
				}
				f.Close()
			}
		}(i)
	}
	for i := 0; i < 5; i++ {
		Reset()
	}
	wg.Wait()
}

// A server's size that cannot be is an error naming the file, never a
// crash (make with -1) or an allocation of what a server claims.
func TestBadSizeFromServer(t *testing.T) {
	fresh(t)
	var claim atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v"`)
		cr := claim.Load().(string)
		w.Header().Set("Content-Range", cr)
		w.WriteHeader(http.StatusPartialContent)
		n := 1
		if _, last, _, ok := contentRange(cr); ok {
			n = int(last + 1)
		}
		io.WriteString(w, strings.Repeat("{", n))
	}))
	defer srv.Close()
	for _, c := range []struct{ cr, want string }{
		{"bytes 0-0/-1", "gave no size"},
		{"bytes 0-0/-5000", "gave no size"},
		{"bytes 0-262143/9000000000000000000", "claims a size of 9000000000000000000 bytes"},
	} {
		resetStores()
		claim.Store(c.cr)
		p := srv.URL + "/results.json"
		_, err := ReadFile(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("Content-Range %q: %v", c.cr, err)
		}
	}
}

// Listings stop after maxPages pages with an error that says so (a
// server whose pages never end must not hang or fill memory).
func TestListingPageCap(t *testing.T) {
	fresh(t)
	old, oldK := maxPages, s3PageKeys
	maxPages, s3PageKeys = 3, 1
	defer func() { maxPages, s3PageKeys = old, oldK }()
	s := sourcetest.NewS3(t, "bkt")
	hub := sourcetest.NewHub(t)
	hub.PageSize = 1
	for i := 0; i < 2; i++ {
		s.Put(t, fmt.Sprintf("few/%d.json", i), []byte("{}"))
		hub.Put("datasets/o/n", fmt.Sprintf("few/%d.json", i), []byte("{}"))
	}
	for i := 0; i < 5; i++ {
		s.Put(t, fmt.Sprintf("many/%d.json", i), []byte("{}"))
		hub.Put("datasets/o/n", fmt.Sprintf("many/%d.json", i), []byte("{}"))
	}
	for _, p := range []string{"s3://bkt/few", "hf://datasets/o/n/few"} {
		if ents, err := ReadDir(p); err != nil || len(ents) != 2 {
			t.Errorf("%s: %d entries, %v", p, len(ents), err)
		}
	}
	for _, p := range []string{"s3://bkt/many", "hf://datasets/o/n/many"} {
		if _, err := ReadDir(p); err == nil || !strings.Contains(err.Error(), "past 3 pages") || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// A user name and password in a web URL are sent to its server as basic
// authentication, not to the host a redirect names, and show nowhere:
// not in the path loaders carry, not in an error.
func TestURLPasswordIsSentNotShown(t *testing.T) {
	fresh(t)
	var other atomic.Int64
	cdn := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			other.Add(1)
		}
		w.Header().Set("ETag", `"c"`)
		http.ServeContent(w, r, "", time.Time{}, strings.NewReader(`{"a": 1}`))
	}))
	defer cdn.Close()
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte("ann:s3cret/pw"))
	var good, bad atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != want {
			bad.Add(1)
			http.Error(w, "who are you", http.StatusUnauthorized)
			return
		}
		good.Add(1)
		if r.URL.Path == "/moved.json" {
			http.Redirect(w, r, strings.Replace(cdn.URL, "127.0.0.1", "localhost", 1)+"/x", http.StatusFound)
			return
		}
		w.Header().Set("ETag", `"v"`)
		http.ServeContent(w, r, "", time.Time{}, strings.NewReader(`{"b": 2}`))
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	raw := "http://ann:s3cret%2Fpw@" + host + "/dir/r.json"
	p := Canon(raw)
	if p != srv.URL+"/dir/r.json" || Display(raw) != p || strings.Contains(Dir(raw), "s3cret") {
		t.Errorf("Canon %q, Display %q, Dir %q", p, Display(raw), Dir(raw))
	}
	b, err := ReadFile(p)
	if err != nil || string(b) != `{"b": 2}` {
		t.Fatalf("read %q, %v", b, err)
	}
	if good.Load() == 0 || bad.Load() != 0 {
		t.Errorf("the server got the credential %d times, wrong %d times", good.Load(), bad.Load())
	}
	if b, err := ReadFile(Canon("http://ann:s3cret%2Fpw@" + host + "/moved.json")); err != nil || string(b) != `{"a": 1}` {
		t.Errorf("through a redirect: %q, %v", b, err)
	}
	if other.Load() != 0 {
		t.Errorf("the credential went to the host a redirect named (%d requests)", other.Load())
	}
	// A wrong password: the error names the URL without it, and which
	// credential was sent.
	resetStores()
	_, err = ReadFile(Canon("http://ann:WRONGpw@" + host + "/dir/r.json"))
	if err == nil || strings.Contains(err.Error(), "WRONGpw") || strings.Contains(err.Error(), "ann") || !strings.Contains(err.Error(), srv.URL+"/dir/r.json") || !strings.Contains(err.Error(), "user name and password") {
		t.Errorf("a wrong password: %v", err)
	}
}

// Making one store (an S3 bucket asked for its region, up to Timeout)
// holds up no other remote path.
func TestSlowStoreHoldsNoOther(t *testing.T) {
	fresh(t)
	Timeout = 20 * time.Second
	s := sourcetest.NewS3(t, "bkt")
	s.Put(t, "x.json", []byte("{}"))
	t.Setenv("AWS_REGION", "") // the store asks the bucket's region
	hold := make(chan struct{})
	s.Fail(sourcetest.Fault{Match: "/bkt", Hold: hold, Times: 1})
	hub := sourcetest.NewHub(t)
	hub.Put("datasets/o/n", "r.json", []byte(`{}`))
	slow := make(chan error, 1)
	go func() {
		_, err := Stat("s3://bkt/x.json")
		slow <- err
	}()
	for s.Requests.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	fast := make(chan error, 1)
	go func() {
		_, err := Stat("hf://datasets/o/n/r.json")
		fast <- err
	}()
	select {
	case err := <-fast:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(10 * time.Second): // a hang guard, not a measure
		t.Error("an hf:// path waited for an S3 store being made")
	}
	close(hold)
	if err := <-slow; err != nil {
		t.Error(err)
	}
}

// settle waits until no read-ahead request runs (they outlive the reads
// that started them; the test's cleanup changes Timeout).
func settle(t *testing.T) {
	for {
		blocks.mu.Lock()
		n := len(blocks.ahead)
		blocks.mu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
