package source

import (
	"bytes"
	"compress/gzip"
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

// Servers that misbehave, one case each: every read is bounded and every
// answer is checked against the question; the message names the URL and
// what was wrong. No case measures time: the limits are set small and
// the servers are far past them.

// hostileWeb is a web server holding body at /f.jsonl (bigger than a
// block, so that a read past the first block is a second request), with
// its URL.
func hostileWeb(t *testing.T, size int) (*sourcetest.Web, string, []byte) {
	t.Helper()
	fresh(t)
	web := sourcetest.NewWeb(t)
	body := data(size)
	web.Put("/f.jsonl", body, "", "")
	return web, web.URL + "/f.jsonl", body
}

// wantErr fails unless err names url and holds every one of want.
func wantErr(t *testing.T, what string, err error, url string, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error", what)
	}
	for _, w := range append(want, url) {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: %v\nwant %q in it", what, err, w)
		}
	}
}

// readPast reads a few bytes of p past its first block (a request of its
// own once Stat has read the first).
func readPast(t *testing.T, p string) ([]byte, error) {
	t.Helper()
	f, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 100)
	_, err = f.ReadAt(buf, blockSize+10)
	return buf, err
}

// A server that sends a byte at a time, slower than MinRate: the read
// ends when a RateWindow shows it, saying so, and is not asked again.
func TestHostileSlowServer(t *testing.T) {
	web, p, _ := hostileWeb(t, 3000)
	oldR, oldW := MinRate, RateWindow
	MinRate, RateWindow = 1000, 50*time.Millisecond
	t.Cleanup(func() { MinRate, RateWindow = oldR, oldW })
	web.Fail(sourcetest.Fault{Match: "/f.jsonl", Drip: 10 * time.Millisecond}) // 100 bytes a second at most
	_, err := ReadFile(p)
	wantErr(t, "a dripping server", err, p, "too slow: ", "under the minimum of 1000 bytes a second")
	if n := web.Requests.Load(); n != 1 {
		t.Errorf("a slow server was asked %d times, want once", n)
	}
	// The same past the first block (a range request of the cache's).
	web.Clear()
	web, p, _ = hostileWeb(t, 2*blockSize)
	MinRate, RateWindow = 1000, 50*time.Millisecond
	if _, err := Stat(p); err != nil {
		t.Fatal(err)
	}
	web.Fail(sourcetest.Fault{Match: "/f.jsonl", Drip: 10 * time.Millisecond})
	_, err = readPast(t, p)
	wantErr(t, "a dripping server, past the first block", err, p, "too slow: ")
}

// A server that sends a byte, then nothing: the read ends after Timeout
// without a byte, saying so.
func TestHostileSilentServer(t *testing.T) {
	web, p, _ := hostileWeb(t, 3000)
	Timeout = 100 * time.Millisecond
	oldR := MinRate
	MinRate = 0 // the idle timer alone
	t.Cleanup(func() { MinRate = oldR })
	web.Fail(sourcetest.Fault{Match: "/f.jsonl", Drip: time.Hour})
	_, err := ReadFile(p)
	wantErr(t, "a silent server", err, p, "the server sent nothing for 100ms (timed out)")
}

// An answer to another range than the one asked (its Content-Range says
// so) is refused, not used as the bytes asked for: at the first block
// and past it.
func TestHostileAnotherRange(t *testing.T) {
	web, p, _ := hostileWeb(t, 2*blockSize)
	web.Fail(sourcetest.Fault{Match: "/f.jsonl", Shift: 7})
	_, err := Stat(p)
	wantErr(t, "a shifted first answer", err, p, "the server answered bytes 7-262150 for bytes 0-262143 asked")
	web.Clear()
	resetStores()
	if _, err := Stat(p); err != nil {
		t.Fatal(err)
	}
	web.Fail(sourcetest.Fault{Match: "/f.jsonl", Shift: 100})
	_, err = readPast(t, p)
	wantErr(t, "a shifted range past the first block", err, p, "the server answered bytes 262244-", "for bytes 262144-")
}

// A Content-Range that lies about the size, or a body that ends before
// its range, or goes on past it: each refused, named.
func TestHostileRangeAndLength(t *testing.T) {
	web, p, body := hostileWeb(t, 2*blockSize)
	web.Fail(sourcetest.Fault{Match: "/f.jsonl", ContentRange: "bytes 0-262143/99", Times: 1})
	_, err := Stat(p)
	wantErr(t, "a size smaller than the range", err, p, "gave no size or a broken one")

	if _, err := Stat(p); err != nil {
		t.Fatal(err)
	}
	web.Fail(sourcetest.Fault{Match: "/f.jsonl", ContentRange: fmt.Sprintf("bytes 262144-524287/%d", len(body)+5)})
	_, err = readPast(t, p)
	if !errors.Is(err, ErrChanged) {
		t.Errorf("a size other than the first answer's: %v", err)
	}
	wantErr(t, "a size other than the first answer's", err, p, fmt.Sprintf("its size is now %d bytes, was %d", len(body)+5, len(body)))

	web.Clear()
	resetStores()
	if _, err := Stat(p); err != nil {
		t.Fatal(err)
	}
	web.Fail(sourcetest.Fault{Match: "/f.jsonl", Short: 10})
	_, err = readPast(t, p)
	wantErr(t, "a body short of its range", err, p, "the answer ended after 262134 of its 262144 bytes (tried 4 times)")

	web.Clear()
	resetStores()
	if _, err := Stat(p); err != nil {
		t.Fatal(err)
	}
	web.Fail(sourcetest.Fault{Match: "/f.jsonl", Extra: 10})
	_, err = readPast(t, p)
	wantErr(t, "a body past its range", err, p, "the answer goes on past the 262144 bytes it was to have")
}

// A server that gives its ETag on the first answer only: a later answer
// without it is refused, though the file be the same, and a file
// replaced meanwhile never mixes in.
func TestHostileValidatorDropped(t *testing.T) {
	web, p, body := hostileWeb(t, 2*blockSize)
	if _, err := Stat(p); err != nil {
		t.Fatal(err)
	}
	web.Put("/f.jsonl", bytes.ToUpper(body), "", "") // replaced, same size
	web.Fail(sourcetest.Fault{Match: "/f.jsonl", NoValidator: true})
	got, err := readPast(t, p)
	wantErr(t, "an answer without the ETag", err, p, "the file changed or the server stopped saying which version it serves (the first answer gave its ETag, this one none)")
	if !errors.Is(err, ErrChanged) {
		t.Errorf("not ErrChanged: %v", err)
	}
	if bytes.Contains(got, []byte("LINE")) {
		t.Error("the replaced file's bytes were read")
	}
}

// A server that gzips a range though asked for the bytes as stored: the
// range is decoded (and held to its length); a whole file gzipped (the
// range ignored) and an encoding evalview does not decode are errors
// naming the encoding.
func TestHostileUnrequestedEncoding(t *testing.T) {
	web, p, body := hostileWeb(t, 2*blockSize+500)
	web.Fail(sourcetest.Fault{Match: "/f.jsonl", Gzip: true})
	got, err := ReadFile(p)
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("gzipped ranges: %d bytes, %v", len(got), err)
	}
	web.Clear()
	resetStores()
	blocks = newBlockCache()
	web.Fail(sourcetest.Fault{Match: "/f.jsonl", Gzip: true, NoRange: true})
	_, err = Stat(p)
	wantErr(t, "a whole file gzipped", err, p, "the server sent the whole file compressed (Content-Encoding: gzip)")
	web.Clear()
	web.Fail(sourcetest.Fault{Match: "/f.jsonl", Encoding: "br", Short: 100})
	_, err = Stat(p)
	wantErr(t, "a range in brotli", err, p, "the server sent the range encoded (Content-Encoding: br) though not asked to")
	web.Clear()
	web.Fail(sourcetest.Fault{Match: "/f.jsonl", Encoding: "gzip", Short: 100})
	_, err = Stat(p)
	wantErr(t, "a range labelled gzip that is not", err, p, "(Content-Encoding: gzip) though not asked to, and it does not decode")
}

// gzipBomb is a JSON array of n spaces, gzipped: a few KB on the wire.
func gzipBomb(n int) []byte {
	var b bytes.Buffer
	z, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	z.Write([]byte("["))
	z.Write(bytes.Repeat([]byte(" "), n))
	z.Write([]byte("]"))
	z.Close()
	return b.Bytes()
}

// A listing page served compressed is read to MaxListing bytes once
// decompressed, then refused, saying so: the Hub's tree listing and a web
// server's index page. An encoding Go did not ask for is named.
func TestHostileCompressedListing(t *testing.T) {
	fresh(t)
	old := MaxListing
	MaxListing = 1 << 20
	t.Cleanup(func() { MaxListing = old })
	bomb := gzipBomb(64 << 20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		if strings.HasPrefix(r.URL.Path, "/api/") {
			w.Header().Set("Content-Type", "application/json")
		} else {
			w.Header().Set("Content-Type", "text/html")
		}
		if strings.HasPrefix(r.URL.Path, "/br/") {
			w.Header().Set("Content-Encoding", "br")
		}
		w.Write(bomb)
	}))
	defer srv.Close()
	t.Setenv("HF_ENDPOINT", srv.URL)
	_, err := ReadDir("hf://datasets/o/n/big")
	wantErr(t, "the Hub's listing", err, "hf://datasets/o/n/big", "a page of the Hub's tree listing holds over 1 MB once decompressed")
	_, err = ReadDir(srv.URL + "/dir/")
	wantErr(t, "an index page", err, srv.URL+"/dir", "the folder's index page holds over 1 MB once decompressed")
	_, err = ReadDir(srv.URL + "/br/")
	wantErr(t, "an index page in brotli", err, srv.URL+"/br", "the folder's index page came encoded (Content-Encoding: br)")
	if len(bomb) > 1<<20 {
		t.Fatalf("the bomb is %d bytes on the wire: the test tests nothing", len(bomb))
	}
}

// An S3 listing page past MaxListing is refused, saying so (the SDK
// would decode a page of any size).
func TestHostileS3ListingCap(t *testing.T) {
	fresh(t)
	old, oldK := MaxListing, s3PageKeys
	MaxListing, s3PageKeys = 4<<10, 0
	t.Cleanup(func() { MaxListing, s3PageKeys = old, oldK })
	s := sourcetest.NewS3(t, "bkt")
	for i := range 100 {
		s.Put(t, fmt.Sprintf("many/a-rather-long-name-to-fill-the-page-%03d.json", i), []byte("{}"))
	}
	_, err := ReadDir("s3://bkt/many")
	wantErr(t, "an S3 listing", err, "s3://bkt/many", "a page of the bucket's listing holds over 4 KB")
	if n := s.Requests.Load(); n != 1 {
		t.Errorf("the listing was asked %d times, want once", n)
	}
}

// indexServer serves an index page at /d/ linking to n files, each a
// line of JSON, counting the requests for files and the most under way
// at once. The first requests are held until several are under way at
// once (or hangGuard passes, which the test reports as hung): a client
// that asks one file after another never gets there.
type indexServer struct {
	*httptest.Server
	mu           sync.Mutex
	files, now   int
	most         int
	released     chan struct{}
	releasedOnce sync.Once
	hung         atomic.Bool
}

func newIndexServer(t *testing.T, n, together int) *indexServer {
	s := &indexServer{released: make(chan struct{})}
	var page strings.Builder
	page.WriteString("<html><body><ul>\n")
	for i := range n {
		fmt.Fprintf(&page, "<li><a href=\"f%06d.jsonl\">f%06d.jsonl</a></li>\n", i, i)
	}
	page.WriteString("</ul></body></html>\n")
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/d/" {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, page.String())
			return
		}
		s.mu.Lock()
		s.files++
		s.now++
		s.most = max(s.most, s.now)
		if s.now >= together {
			s.releasedOnce.Do(func() { close(s.released) })
		}
		s.mu.Unlock()
		select {
		case <-s.released:
		case <-time.After(hangGuard):
			s.hung.Store(true)
			s.releasedOnce.Do(func() { close(s.released) })
		}
		s.mu.Lock()
		s.now--
		s.mu.Unlock()
		w.Header().Set("ETag", `"`+r.URL.Path+`"`)
		http.ServeContent(w, r, "", time.Time{}, strings.NewReader(`{"q": "`+r.URL.Path+`"}`+"\n"))
	}))
	t.Cleanup(s.Close)
	return s
}

// An index page of more links than MaxEntries: the first MaxEntries by
// name are listed, and a notice says how many were left out. Going over
// the folder file by file, as the loaders do, asks for the files several
// at once (no more than lookParallel besides the one asked), each once.
// The Hub's and S3's listings stop past MaxEntries.
func TestHostileIndexOfManyLinks(t *testing.T) {
	fresh(t)
	StatFor = time.Minute
	old := MaxEntries
	MaxEntries = 200
	t.Cleanup(func() { MaxEntries = old })
	srv := newIndexServer(t, 1000, 4)
	ents, err := ReadDir(srv.URL + "/d/")
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 200 || ents[0].Name() != "f000000.jsonl" || ents[199].Name() != "f000199.jsonl" {
		t.Fatalf("%d entries, %s to %s", len(ents), ents[0].Name(), ents[len(ents)-1].Name())
	}
	want := srv.URL + "/d: the folder's index page links to 1000 entries; only the first 200 by name are read, 800 are left out (name a deeper folder)"
	if got := Notices(); len(got) != 1 || got[0] != want {
		t.Errorf("notices %q\nwant %q", got, want)
	}
	for _, e := range ents {
		st, err := Stat(srv.URL + "/d/" + e.Name())
		if err != nil || st.Size() == 0 {
			t.Fatalf("%s: %v", e.Name(), err)
		}
	}
	if srv.hung.Load() {
		t.Error("the files were asked for one at a time")
	}
	srv.mu.Lock()
	files, most := srv.files, srv.most
	srv.mu.Unlock()
	if most > lookParallel+1 {
		t.Errorf("%d requests under way at once, want at most %d", most, lookParallel+1)
	}
	if files != 200 {
		t.Errorf("%d requests for 200 files, want one each", files)
	}
	if again, _ := ReadDir(srv.URL + "/d/"); len(again) != 200 || len(Notices()) != 0 {
		t.Error("the notice was given twice")
	}
}

// While a hold is in force, what was learnt since it began is trusted
// however long ago (a pass over a folder longer than StatFor asks for
// nothing again); once released, StatFor again.
func TestHoldTrustsWhatWasLearnt(t *testing.T) {
	fresh(t) // StatFor 0: nothing trusted
	web := sourcetest.NewWeb(t)
	web.Put("/a.json", []byte(`{}`), "", "")
	p := web.URL + "/a.json"
	stat := func(want int64) {
		t.Helper()
		before := web.Requests.Load()
		if _, err := Stat(p); err != nil {
			t.Fatal(err)
		}
		if n := web.Requests.Load() - before; n != want {
			t.Errorf("a Stat made %d requests, want %d", n, want)
		}
	}
	stat(1)
	release := Hold()
	stat(1) // learnt before the hold: asked again
	stat(0)
	inner := Hold()
	inner()
	stat(0) // the outer hold still in force
	release()
	release() // twice: no harm
	stat(1)
	stat(1)
}

// A folder whose index page comes without its size (chunked, as nginx
// and Go's file server send a big one) is a folder, not "no size".
func TestIndexPageWithoutSize(t *testing.T) {
	fresh(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/d":
			http.Redirect(w, r, "/d/", http.StatusMovedPermanently)
		case "/d/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<html><body><a href="a.jsonl">a.jsonl</a>`)
			w.(http.Flusher).Flush() // no Content-Length from here
			io.WriteString(w, `<a href="b.jsonl">b.jsonl</a></body></html>`)
		default:
			http.ServeContent(w, r, "", time.Time{}, strings.NewReader("{}\n"))
		}
	}))
	defer srv.Close()
	st, err := Stat(srv.URL + "/d")
	if err != nil || !st.IsDir() {
		t.Fatalf("a folder whose page has no size: %v, %v", st, err)
	}
	if got := names(t, srv.URL+"/d"); got != "a.jsonl b.jsonl" {
		t.Errorf("lists %q", got)
	}
}
