// Package sourcetest starts stores for tests of remote paths on
// 127.0.0.1: an imitation of the Hugging Face Hub (its tree API, resolve
// URLs redirecting to a CDN), an S3 server (gofakes3) and a plain web
// server with basic authentication, each with
// faults to inject (a status for the next requests, a stall, a connection
// dropped mid-body, latency). Nothing here reaches the network.
package sourcetest

import (
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// TB is what the stores need of a test (testing.TB is one; a program
// that serves them by hand gives its own).
type TB interface {
	Helper()
	Fatal(args ...any)
	Cleanup(func())
	Setenv(key, value string)
}

// Fault is what the next requests whose path contains Match get instead
// of their answer; Times of them (0: all), after the first After of them,
// which are answered as they should be. The fields from Redirect on make
// a server that misbehaves: its answer is changed on the way out.
type Fault struct {
	Match      string
	After      int
	Status     int           // answer this status
	RetryAfter string        // with this Retry-After header
	Stall      time.Duration // wait this long before answering
	Drop       bool          // send the head and half the body, then close
	Hold       chan struct{} // wait until it is closed before answering
	Times      int

	// Redirect answers 307 to Redirect (another server's URL) followed by
	// the request's path (not its query: a server that sends its
	// signature on chooses to).
	Redirect string
	// Cookie is set on the answer (a Set-Cookie header).
	Cookie string
	// Drip sends the body one byte at a time, Drip apart.
	Drip time.Duration
	// Gzip compresses the body and says so (Content-Encoding: gzip),
	// whether the request asked for it or not.
	Gzip bool
	// NoValidator takes ETag and Last-Modified off the answer.
	NoValidator bool
	// Shift answers a range request with the range Shift bytes later
	// (its Content-Range says so: the answer is to another question).
	Shift int64
	// ContentRange, when set, replaces the answer's Content-Range (a lie).
	ContentRange string
	// Short cuts that many bytes off the body's end, which then ends
	// cleanly (no Content-Length: a body the server says is whole).
	Short int
	// Extra adds that many bytes after the body, which then has no
	// Content-Length (a body longer than its range).
	Extra int
	// NoRange serves the request as if it asked no range (a server that
	// sends the whole file).
	NoRange bool
	// Encoding labels the body with this Content-Encoding, leaving it as
	// it is (Gzip compresses it and labels it gzip).
	Encoding string
}

// changes tells whether x changes the answer on its way out.
func (x *Fault) changes() bool {
	return x.Drop || x.Drip > 0 || x.Gzip || x.NoValidator || x.Shift != 0 || x.ContentRange != "" || x.Short > 0 || x.Cookie != "" ||
		x.Extra > 0 || x.NoRange || x.Encoding != ""
}

// faults is a server's list of faults, the latency of every request and
// a count of requests; Gone counts the requests whose client went away
// while a fault held them (Hold, Stall, Drip).
type faults struct {
	mu       sync.Mutex
	list     []*Fault
	Latency  time.Duration
	Requests atomic.Int64
	Gone     atomic.Int64
}

// Fail adds a fault.
func (f *faults) Fail(x Fault) {
	f.mu.Lock()
	f.list = append(f.list, &x)
	f.mu.Unlock()
}

// Clear drops the faults.
func (f *faults) Clear() {
	f.mu.Lock()
	f.list = nil
	f.mu.Unlock()
}

func (f *faults) take(path string) *Fault {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, x := range f.list {
		if !strings.Contains(path, x.Match) {
			continue
		}
		if x.After > 0 {
			x.After--
			return nil
		}
		c := *x
		if x.Times > 0 {
			if x.Times--; x.Times == 0 {
				f.list = append(f.list[:i], f.list[i+1:]...)
			}
		}
		return &c
	}
	return nil
}

// wrap serves next through the faults.
func (f *faults) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.Requests.Add(1)
		if f.Latency > 0 {
			time.Sleep(f.Latency)
		}
		x := f.take(r.URL.Path)
		if x == nil {
			next.ServeHTTP(w, r)
			return
		}
		if x.Hold != nil {
			select {
			case <-x.Hold:
			case <-r.Context().Done():
				f.Gone.Add(1)
				return
			}
			if x.Stall == 0 && !x.Drop && x.Status == 0 {
				next.ServeHTTP(w, r)
				return
			}
		}
		if x.Stall > 0 {
			select {
			case <-time.After(x.Stall):
			case <-r.Context().Done():
				f.Gone.Add(1)
				return
			}
		}
		if x.Redirect != "" {
			if x.Cookie != "" {
				w.Header().Add("Set-Cookie", x.Cookie)
			}
			http.Redirect(w, r, x.Redirect+r.URL.EscapedPath(), http.StatusTemporaryRedirect)
			return
		}
		if x.changes() {
			if !misbehave(w, r, x, next) {
				f.Gone.Add(1)
			}
			return
		}
		if x.Status != 0 {
			if x.RetryAfter != "" {
				w.Header().Set("Retry-After", x.RetryAfter)
			}
			http.Error(w, http.StatusText(x.Status), x.Status)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// misbehave serves r through next, then changes the answer as x says;
// false when the client went away as the body dripped.
func misbehave(w http.ResponseWriter, r *http.Request, x *Fault, next http.Handler) bool {
	if x.Shift != 0 {
		var a, b int64
		if _, err := fmt.Sscanf(r.Header.Get("Range"), "bytes=%d-%d", &a, &b); err == nil {
			r.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", a+x.Shift, b+x.Shift))
		}
	}
	if x.NoRange {
		r.Header.Del("Range")
	}
	rec := httptest.NewRecorder()
	next.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	h := w.Header()
	for k, v := range rec.Header() {
		h[k] = v
	}
	if x.NoValidator {
		h.Del("ETag")
		h.Del("Last-Modified")
	}
	if x.ContentRange != "" {
		h.Set("Content-Range", x.ContentRange)
	}
	if x.Cookie != "" {
		h.Add("Set-Cookie", x.Cookie)
	}
	if x.Gzip {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(body)
		zw.Close()
		body = z.Bytes()
		h.Set("Content-Encoding", "gzip")
	}
	if x.Encoding != "" {
		h.Set("Content-Encoding", x.Encoding)
	}
	if x.Short > 0 || x.Extra > 0 {
		body = body[:max(0, len(body)-x.Short)]
		body = append(body, bytes.Repeat([]byte("X"), x.Extra)...)
		h.Del("Content-Length")
	} else {
		h.Set("Content-Length", fmt.Sprint(len(body)))
	}
	if x.Drop {
		h.Set("Content-Length", fmt.Sprint(len(body)))
		w.WriteHeader(rec.Code)
		w.Write(body[:len(body)/2])
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
			}
		}
		return true
	}
	w.WriteHeader(rec.Code)
	if x.Drip <= 0 {
		w.Write(body)
		return true
	}
	fl, _ := w.(http.Flusher)
	for i := range body {
		if _, err := w.Write(body[i : i+1]); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		select {
		case <-time.After(x.Drip):
		case <-r.Context().Done():
			return false
		}
	}
	return true
}

// serve starts h on 127.0.0.1 (HTTP/1.1, so that a dropped connection
// is one).
func serve(t TB, h http.Handler) *httptest.Server {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &httptest.Server{Listener: l, Config: &http.Server{Handler: h}}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// Hub imitates the Hugging Face Hub: GET /api/{kind}/{org}/{name}/tree/{rev}[/path]
// lists a folder (one page at most PageSize entries, then a Link to the
// next), GET /{datasets/|spaces/}{org}/{name}/resolve/{rev}/{path}
// redirects to /cdn/... with a signature in its query, which serves the
// bytes with ranges and an ETag.
type Hub struct {
	*httptest.Server
	faults
	mu    sync.Mutex
	files map[string][]byte // "datasets/org/name@rev/path"
	// Token, when set, is required (401 without it); Auth counts the
	// requests that carried it, Leaked those to /cdn/ that did.
	Token    string
	Auth     atomic.Int64
	Leaked   atomic.Int64
	PageSize int
	// CDN is the server resolve URLs redirect to (its URL); "" for this
	// one named localhost, another host as the Hub's CDN is.
	CDN string
}

// Signature is the secret in the CDN URLs the Hub redirects to: it must
// never show in a message.
const Signature = "X-Amz-Signature=s3cr3tsignature"

// NewHub starts a Hub and points HF_ENDPOINT at it.
func NewHub(t TB) *Hub {
	h := &Hub{files: map[string][]byte{}, PageSize: 1000}
	h.Server = serve(t, h.wrap(http.HandlerFunc(h.handle)))
	t.Setenv("HF_ENDPOINT", h.URL)
	return h
}

// Put stores a file: repo is "datasets/org/name" (the revision is main).
func (h *Hub) Put(repo, path string, data []byte) {
	h.mu.Lock()
	h.files[repo+"@main/"+path] = data
	h.mu.Unlock()
}

func etag(data []byte) string {
	sum := md5.Sum(data)
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

func (h *Hub) handle(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if h.Token != "" && r.Header.Get("Authorization") == "Bearer "+h.Token {
		h.Auth.Add(1)
		if strings.HasPrefix(p, "/cdn/") {
			h.Leaked.Add(1)
		}
	}
	if strings.HasPrefix(p, "/cdn/") {
		if r.URL.RawQuery != Signature {
			http.Error(w, "bad signature", http.StatusForbidden)
			return
		}
		h.mu.Lock()
		data, ok := h.files[strings.TrimPrefix(p, "/cdn/")]
		h.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		// A CDN's ETag need not be the file's from one request to the
		// next: the file's own is the redirect's X-Linked-Etag.
		w.Header().Set("ETag", fmt.Sprintf(`"cdn-%d"`, h.Requests.Load()))
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
		return
	}
	if h.Token != "" && r.Header.Get("Authorization") != "Bearer "+h.Token {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	if rest, ok := strings.CutPrefix(p, "/api/"); ok {
		h.tree(w, r, rest)
		return
	}
	kind := "models"
	rest := strings.TrimPrefix(p, "/")
	if k, r2, ok := strings.Cut(rest, "/"); ok && (k == "datasets" || k == "spaces") {
		kind, rest = k, r2
	}
	segs := strings.SplitN(rest, "/", 5) // org name resolve rev path
	if len(segs) < 5 || segs[2] != "resolve" {
		http.NotFound(w, r)
		return
	}
	key := kind + "/" + segs[0] + "/" + segs[1] + "@" + segs[3] + "/" + segs[4]
	h.mu.Lock()
	data, ok := h.files[key]
	h.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("X-Linked-Etag", etag(data))
	w.Header().Set("X-Linked-Size", fmt.Sprint(len(data)))
	// The CDN is another host, as the Hub's is: the same server named
	// localhost.
	cdn := h.CDN
	if cdn == "" {
		cdn = strings.Replace(h.URL, "127.0.0.1", "localhost", 1)
	}
	http.Redirect(w, r, cdn+"/cdn/"+key+"?"+Signature, http.StatusFound)
}

type treeEntry struct {
	Type string `json:"type"`
	Path string `json:"path"`
	Size int64  `json:"size"`
	Oid  string `json:"oid"`
}

func (h *Hub) tree(w http.ResponseWriter, r *http.Request, rest string) {
	segs := strings.SplitN(rest, "/", 6) // kind org name tree rev [path]
	if len(segs) < 5 || segs[3] != "tree" {
		http.NotFound(w, r)
		return
	}
	prefix := segs[0] + "/" + segs[1] + "/" + segs[2] + "@" + segs[4] + "/"
	dir := ""
	if len(segs) == 6 && segs[5] != "" {
		dir = strings.TrimSuffix(segs[5], "/") + "/"
	}
	h.mu.Lock()
	seen := map[string]treeEntry{}
	for k, data := range h.files {
		p, ok := strings.CutPrefix(k, prefix+dir)
		if !ok {
			continue
		}
		if first, _, isDir := strings.Cut(p, "/"); isDir {
			seen[first] = treeEntry{Type: "directory", Path: dir + first}
		} else {
			seen[p] = treeEntry{Type: "file", Path: dir + p, Size: int64(len(data)), Oid: "oid" + etag(data)}
		}
	}
	h.mu.Unlock()
	if len(seen) == 0 {
		http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
		return
	}
	var out []treeEntry
	for _, e := range seen {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	start := 0
	if c := r.URL.Query().Get("cursor"); c != "" {
		for start < len(out) && out[start].Path <= c {
			start++
		}
	}
	end := min(start+h.PageSize, len(out))
	if end < len(out) {
		w.Header().Set("Link", "<"+h.URL+r.URL.Path+"?cursor="+out[end-1].Path+`>; rel="next"`)
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out[start:end])
}

// S3 is an S3 server (gofakes3 in memory) with one bucket; NewS3 points
// the AWS SDK's environment at it with test credentials and turns off
// every other place credentials could come from.
type S3 struct {
	*httptest.Server
	faults
	Bucket  string
	backend *s3mem.Backend
	// Region, when set, is the bucket's: a request signed for another
	// region gets S3's 301 PermanentRedirect naming it in
	// X-Amz-Bucket-Region.
	Region string
}

// Key and Secret are the credentials NewS3 sets: they must never show in
// a message.
const (
	Key    = "AKIAEVALVIEWTESTKEY1"
	Secret = "evalviewTestSecretDoNotPrint0123456789abc"
)

// NewS3 starts an S3 server with bucket and sets AWS_ENDPOINT_URL_S3,
// credentials and a region for the test.
func NewS3(t TB, bucket string) *S3 {
	s := &S3{Bucket: bucket, backend: s3mem.New()}
	if err := s.backend.CreateBucket(bucket); err != nil {
		t.Fatal(err)
	}
	fake := gofakes3.New(s.backend, gofakes3.WithLogger(gofakes3.DiscardLog()))
	s.Server = serve(t, s.wrap(s.regionGate(fake.Server())))
	t.Setenv("AWS_ENDPOINT_URL_S3", s.URL)
	t.Setenv("AWS_ACCESS_KEY_ID", Key)
	t.Setenv("AWS_SECRET_ACCESS_KEY", Secret)
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent/evalview-test")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/evalview-test")
	t.Setenv("AWS_PROFILE", "")
	return s
}

// regionGate answers as S3 does a request signed for another region than
// s.Region.
func (s *S3) regionGate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.Region != "" && !strings.Contains(r.Header.Get("Authorization"), "/"+s.Region+"/s3/") {
			w.Header().Set("X-Amz-Bucket-Region", s.Region)
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusMovedPermanently)
			if r.Method != http.MethodHead {
				io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>PermanentRedirect</Code><Message>The bucket you are attempting to access must be addressed using the specified endpoint.</Message></Error>`)
			}
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Put stores an object.
func (s *S3) Put(t TB, key string, data []byte) {
	if _, err := s.backend.PutObject(s.Bucket, key, map[string]string{}, bytes.NewReader(data), int64(len(data)), nil); err != nil {
		t.Fatal(err)
	}
}

// Web is a plain web server (no listing): files by path, served with
// ranges and an ETag. A file put with a user name requires that user
// and password as basic authentication (401 otherwise); Sent records,
// per path, the user name each request carried ("" for none).
type Web struct {
	*httptest.Server
	faults
	mu    sync.Mutex
	files map[string]webFile
	sent  map[string][]string
}

type webFile struct {
	data           []byte
	user, password string
}

// NewWeb starts a web server.
func NewWeb(t TB) *Web {
	s := &Web{files: map[string]webFile{}, sent: map[string][]string{}}
	s.Server = serve(t, s.wrap(http.HandlerFunc(s.handle)))
	return s
}

// Put serves data at path ("/dir/f.json"), to user with password only
// when user is not "".
func (s *Web) Put(path string, data []byte, user, password string) {
	s.mu.Lock()
	s.files[path] = webFile{data, user, password}
	s.mu.Unlock()
}

// Sent is the user name each request for path carried, in order ("" for
// a request without basic authentication).
func (s *Web) Sent(path string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.sent[path]...)
}

func (s *Web) handle(w http.ResponseWriter, r *http.Request) {
	user, pw, _ := r.BasicAuth()
	s.mu.Lock()
	s.sent[r.URL.Path] = append(s.sent[r.URL.Path], user)
	f, ok := s.files[r.URL.Path]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	if f.user != "" && (user != f.user || pw != f.password) {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	w.Header().Set("ETag", etag(f.data))
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.data))
}

// Sink is a server that keeps what every request to it carried: tests
// redirect to it (another port of 127.0.0.1: another origin) and look for
// a credential that should not have come. It serves Body at every path,
// with ranges and an ETag, through its faults (which it records too).
type Sink struct {
	*httptest.Server
	faults
	mu   sync.Mutex
	Body []byte
	seen []Seen
}

// Seen is one request a Sink got.
type Seen struct {
	URL    string // path and query
	Header http.Header
}

// NewSink starts a Sink serving body.
func NewSink(t TB, body []byte) *Sink {
	s := &Sink{Body: body}
	inner := s.wrap(http.HandlerFunc(s.handle))
	s.Server = serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, Seen{URL: r.URL.RequestURI(), Header: r.Header.Clone()})
		s.mu.Unlock()
		inner.ServeHTTP(w, r)
	}))
	return s
}

// Seen is every request the sink got, in order.
func (s *Sink) Seen() []Seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Seen(nil), s.seen...)
}

func (s *Sink) handle(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	body := s.Body
	s.mu.Unlock()
	w.Header().Set("ETag", etag(body))
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}
