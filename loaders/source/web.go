package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// remoteError is what failed with a remote request, worded for the user;
// it comes wrapped in an *fs.PathError naming the path as the user wrote
// it (never the URL requested, which may carry a signature after a
// redirect). Err is fs.ErrNotExist, fs.ErrPermission, ErrChanged or the
// network's error, for errors.Is.
type remoteError struct {
	what string
	err  error
}

func (e *remoteError) Error() string { return e.what }
func (e *remoteError) Unwrap() error { return e.err }

func pathErr(op, name, what string, err error) error {
	return &fs.PathError{Op: op, Path: name, Err: &remoteError{what: what, err: err}}
}

// httpClient is the client of remote stores: every request has its
// timeouts (to connect, for the TLS handshake, for the answer's head);
// the body is bounded by each request's idle timer and rate (idleBody).
// Redirects follow checkRedirect: no credential leaves its origin.
func httpClient() *http.Client {
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: min(Timeout, 10*time.Second)}).DialContext,
		TLSHandshakeTimeout:   min(Timeout, 10*time.Second),
		ResponseHeaderTimeout: Timeout,
		MaxIdleConnsPerHost:   2 * inFlight,
		ForceAttemptHTTP2:     true,
	}
	return &http.Client{Transport: tr, CheckRedirect: checkRedirect}
}

// origin is a URL's scheme, host and port, the port spelled even when it
// is the scheme's default ("https://h" and "https://h:443" are one).
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// sensitive are the request headers that carry a credential: the Hub's
// token and basic authentication (Authorization), cookies.
var sensitive = []string{"Authorization", "Cookie", "Cookie2"}

// checkRedirect follows at most 10 redirects. No hop gets a Referer: it
// would name the URL before, with a presigned URL's signature in its
// query. Once a hop goes to another origin (scheme, host or port: Go's
// client keeps a token for another port of the same host, or for http
// after https), the credentials of the first request stay behind, on that
// hop and every later one, even one that comes back: a token is for the
// server it was given for, not the CDN a file redirects to. A query the
// first URL carried (a presigned URL's signature) goes to no other URL:
// the client asks for the URL a redirect names, nothing added.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	req.Header.Del("Referer")
	home := origin(via[0].URL)
	left := origin(req.URL) != home
	for _, v := range via[1:] {
		left = left || origin(v.URL) != home
	}
	if left {
		for _, h := range sensitive {
			req.Header.Del(h)
		}
	}
	return nil
}

// web makes the HTTP requests of the web and Hub stores, retrying what
// may pass: rate limits (429, honouring Retry-After), server errors,
// dropped connections and timeouts.
type web struct {
	client *http.Client
	// token, when set, is sent as a bearer token; cred says which
	// credential was sent, for messages ("no token", "the token in
	// HF_TOKEN"), never the credential.
	token string
	cred  string
	// user, when set (and no token), gives the userinfo to send as basic
	// authentication with a request for name (nil for none), looked up
	// at each request: a server's first URL may come without one, the
	// next with one.
	user func(name string) *url.Userinfo
}

// auth sets the credential of a request for name: the token, else the
// userinfo; it returns which credential was sent, for messages.
func (w *web) auth(req *http.Request, name string) string {
	if w.token != "" {
		req.Header.Set("Authorization", "Bearer "+w.token)
		return w.cred
	}
	if w.user != nil {
		if ui := w.user(name); ui != nil {
			pw, _ := ui.Password()
			req.SetBasicAuth(ui.Username(), pw)
			return "the user name and password of the URL"
		}
	}
	return w.cred
}

// status is how a response's status reads as an error ("" for a good one).
func (w *web) status(resp *http.Response, cred string) (string, error, bool) {
	switch c := resp.StatusCode; {
	case c >= 200 && c < 300:
		return "", nil, false
	case c == http.StatusNotFound || c == http.StatusGone:
		return fmt.Sprintf("not found (HTTP %d)", c), fs.ErrNotExist, false
	case c == http.StatusUnauthorized || c == http.StatusForbidden:
		return fmt.Sprintf("forbidden (HTTP %d; sent %s)", c, cred), fs.ErrPermission, false
	case c == http.StatusPreconditionFailed:
		return ErrChanged.Error(), ErrChanged, false
	case c == http.StatusTooManyRequests:
		return fmt.Sprintf("rate limited (HTTP 429; retried %d times with backoff)", Attempts-1), errors.New("rate limited"), true
	case c >= 500:
		return fmt.Sprintf("server error (HTTP %d; retried %d times with backoff)", c, Attempts-1), errors.New("server error"), true
	default:
		return fmt.Sprintf("unexpected answer (HTTP %d)", c), errors.New(resp.Status), false
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

// netWhat words a network error, without the URL it names.
func netWhat(err error) string {
	switch {
	case isTimeout(err):
		return fmt.Sprintf("no answer within %s (timed out)", Timeout)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return fmt.Sprintf("the connection dropped mid-read (tried %d times)", Attempts)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its message names the URL asked, maybe a signed one
	}
	return fmt.Sprintf("network error: %v (tried %d times)", err, Attempts)
}

// pause waits *wait before a retry, then doubles it, or returns the
// context's error when it ends first.
func pause(ctx context.Context, wait *time.Duration) error {
	t := time.NewTimer(*wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
	}
	*wait *= 2
	return nil
}

// get makes a GET (with rng, a Range header value, when not "") and hands
// the good answer to use, retrying as a whole when the request or use
// fails in a way that may pass. name is the path for messages.
func (w *web) get(ctx context.Context, op, name, u, rng string, use func(*http.Response) error) error {
	var last error
	wait := Backoff
	for attempt := 0; attempt < Attempts; attempt++ {
		if attempt > 0 {
			if err := pause(ctx, &wait); err != nil {
				return pathErr(op, name, netWhat(err), err)
			}
		}
		retry, err := w.once(ctx, op, name, u, rng, use, &wait)
		if err == nil {
			return nil
		}
		last = err
		if !retry {
			return err
		}
	}
	return last
}

func (w *web) once(ctx context.Context, op, name, u, rng string, use func(*http.Response) error, wait *time.Duration) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, pathErr(op, name, "bad URL", err)
	}
	if rng != "" {
		req.Header.Set("Range", rng)
	}
	cred := w.auth(req, name)
	req.Header.Set("User-Agent", "evalview")
	resp, err := w.client.Do(req)
	if err != nil {
		// A server that stalled gets no second wait: nothing hangs longer
		// than Timeout on it.
		return !isTimeout(err), pathErr(op, name, netWhat(err), err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusRequestedRangeNotSatisfiable {
		return false, use(resp)
	}
	what, serr, retry := w.status(resp, cred)
	if what != "" {
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			*wait = min(time.Duration(s)*time.Second, 30*time.Second)
		}
		return retry, pathErr(op, name, what, serr)
	}
	if err := use(resp); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return false, err
		}
		return true, pathErr(op, name, netWhat(err), err)
	}
	return false, nil
}

// rangeFirst returns the size and version of the object at u, and its
// first block, from one range request (HEAD is refused by some servers
// and presigned URLs; a range GET works everywhere, and its answer
// carries the bytes a stat is most often followed by).
func (w *web) rangeFirst(ctx context.Context, name, u string) (meta, []byte, error) {
	var m meta
	var head []byte
	err := w.get(ctx, "stat", name, u, fmt.Sprintf("bytes=0-%d", blockSize-1), func(resp *http.Response) error {
		m, head = metaOf(resp), nil
		switch resp.StatusCode {
		case http.StatusPartialContent, http.StatusRequestedRangeNotSatisfiable:
			cr := resp.Header.Get("Content-Range") // bytes 0-N/SIZE or bytes */SIZE
			size, ok := rangeTotal(cr)
			if !ok {
				return pathErr("stat", name, "the server gave no size (Content-Range "+strconv.Quote(cr)+")", errors.New("no size"))
			}
			m.size = size
		default:
			if resp.ContentLength < 0 {
				return pathErr("stat", name, "the server gave no size", errors.New("no size"))
			}
			m.size = resp.ContentLength
		}
		if resp.StatusCode == http.StatusRequestedRangeNotSatisfiable {
			return nil // an empty object: no first byte
		}
		head = make([]byte, min(m.size, blockSize))
		if _, err := io.ReadFull(resp.Body, head); err != nil {
			head = nil // the size and version stand; the head is read again
		}
		return nil
	})
	return m, head, err
}

// rangeTotal is the object's size a Content-Range header ends with
// ("bytes 0-99/SIZE", "bytes */SIZE").
func rangeTotal(cr string) (int64, bool) {
	i := strings.LastIndex(cr, "/")
	if i < 0 {
		return 0, false
	}
	size, err := strconv.ParseInt(strings.TrimSpace(cr[i+1:]), 10, 64)
	return size, err == nil && size >= 0
}

// metaOf reads an answer's version tag: the ETag, else its modification
// time; but when it came through a redirect that named the file's own
// tag (the Hub's X-Linked-Etag, the hash of a large file it sends to its
// CDN), that tag, as the Hub's own tools read it: a CDN's ETag need not
// stay the same from one request to the next.
func metaOf(resp *http.Response) meta {
	var m meta
	m.version = resp.Header.Get("ETag")
	if t, err := http.ParseTime(resp.Header.Get("Last-Modified")); err == nil {
		m.mod = t
		if m.version == "" {
			m.version = t.UTC().Format(time.RFC3339)
		}
	}
	if resp.Request != nil && strings.HasSuffix(resp.Request.URL.Path, "/") {
		ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		m.page = ct == "text/html"
	}
	for req := resp.Request; req != nil && req.Response != nil; req = req.Response.Request {
		if v := req.Response.Header.Get("X-Linked-Etag"); v != "" {
			m.version = v // the earliest redirect's, once the loop ends
		}
	}
	return m
}

// stream opens bytes [off, off+n) of the object at u, checking that its
// version is still version, retrying what may pass as get does; the body
// is read as it comes (see idleBody).
func (w *web) stream(ctx context.Context, name, u string, off, n int64, version string) (io.ReadCloser, error) {
	rng := fmt.Sprintf("bytes=%d-%d", off, off+n-1)
	var last error
	wait := Backoff
	for attempt := 0; attempt < Attempts; attempt++ {
		if attempt > 0 {
			if err := pause(ctx, &wait); err != nil {
				return nil, pathErr("read", name, netWhat(err), err)
			}
		}
		rctx, cancel := context.WithCancel(ctx)
		idle := newIdle(cancel)
		req, err := http.NewRequestWithContext(rctx, http.MethodGet, u, nil)
		if err != nil {
			idle.stop()
			cancel()
			return nil, pathErr("read", name, "bad URL", err)
		}
		req.Header.Set("Range", rng)
		cred := w.auth(req, name)
		req.Header.Set("User-Agent", "evalview")
		resp, err := w.client.Do(req)
		if err != nil {
			idle.stop()
			cancel()
			err = idle.cause(err)
			last = pathErr("read", name, netWhat(err), err)
			if isTimeout(err) {
				return nil, last // a stalled server gets no second wait
			}
			continue
		}
		what, serr, retry := w.status(resp, cred)
		if what == "" && version != "" {
			if v := metaOf(resp).version; v != "" && v != version {
				what, serr, retry = ErrChanged.Error(), ErrChanged, false
			}
		}
		if what != "" {
			resp.Body.Close()
			idle.stop()
			cancel()
			if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
				wait = min(time.Duration(s)*time.Second, 30*time.Second)
			}
			last = pathErr("read", name, what, serr)
			if !retry {
				return nil, last
			}
			continue
		}
		body := &idleBody{rc: resp.Body, cancel: cancel, idle: idle}
		if resp.StatusCode != http.StatusPartialContent {
			// The server ignored the range: skip to off.
			if _, err := io.CopyN(io.Discard, body, off); err != nil {
				body.Close()
				last = pathErr("read", name, netWhat(err), err)
				continue
			}
		}
		return body, nil
	}
	return nil, last
}

// idle cancels a request that makes no progress for Timeout: its answer's
// head, or any read of its body, however long the whole body takes.
type idle struct {
	t     *time.Timer
	fired atomic.Bool
}

func newIdle(cancel func()) *idle {
	i := &idle{}
	i.t = time.AfterFunc(Timeout, func() {
		i.fired.Store(true)
		cancel()
	})
	return i
}

func (i *idle) touch() { i.t.Reset(Timeout) }
func (i *idle) stop()  { i.t.Stop() }

// cause is err, or a timeout when the idle timer cancelled the request.
func (i *idle) cause(err error) error {
	if err != nil && i.fired.Load() {
		return errIdle
	}
	return err
}

// errIdle is a request cancelled for making no progress: a net.Error
// whose Timeout is true.
var errIdle error = idleError{}

type idleError struct{}

func (idleError) Error() string   { return "no data within the timeout" }
func (idleError) Timeout() bool   { return true }
func (idleError) Temporary() bool { return true }

// idleBody is a response body read under its idle timer; Close ends the
// request.
type idleBody struct {
	rc     io.ReadCloser
	cancel func()
	idle   *idle
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.idle.touch()
	}
	return n, b.idle.cause(err)
}

// pause stops the idle timer while the body waits for its reader (not the
// server's fault); resume starts it again.
func (b *idleBody) pause()  { b.idle.stop() }
func (b *idleBody) resume() { b.idle.touch() }

func (b *idleBody) Close() error {
	b.idle.stop()
	b.cancel()
	return b.rc.Close()
}

// webStore is a web server: files by URL, read with range requests; a
// folder is listed from the index page the server makes for it
// (webindex.go).
type webStore struct {
	w    *web
	base string // scheme://host
}

func newHTTP(base string) store {
	return &webStore{w: &web{client: httpClient(), cred: "no credential", user: userFor}, base: base}
}

func (s *webStore) url(key string) string { return s.base + "/" + key }

// request is the URL asked for key: with the query Canon kept aside.
func (s *webStore) request(key string) string {
	u := s.url(key)
	if q := queryFor(u); q != "" {
		return u + "?" + q
	}
	return u
}

// first is the object at key; a folder's index page (an HTML answer at a
// URL ending in "/", as `python -m http.server`, nginx, Apache and Caddy
// give for a folder, or redirect to) is no object: the caller lists it.
func (s *webStore) first(ctx context.Context, key string) (meta, []byte, error) {
	m, head, err := s.w.rangeFirst(ctx, s.url(key), s.request(key))
	if err == nil && m.page {
		return meta{}, nil, pathErr("stat", s.url(key), "a folder's index page", fs.ErrNotExist)
	}
	return m, head, err
}

func (s *webStore) stream(ctx context.Context, key string, off, n int64, version string) (io.ReadCloser, error) {
	return s.w.stream(ctx, s.url(key), s.request(key), off, n, version)
}
