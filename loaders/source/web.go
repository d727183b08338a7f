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
// the body is bounded by its request's idle timer and MinRate (body).
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

// do makes one GET of u for name (rng, a Range header value, when not
// ""), with the credential for name. Its answer's head must come within
// Timeout; its body (resp.Body, the *body returned) is read under the
// request's idle timer and MinRate, and closing it ends the request.
// cred is which credential went, for messages.
func (w *web) do(ctx context.Context, name, u, rng string) (*http.Response, *body, string, error) {
	rctx, cancel := context.WithCancel(ctx)
	idle := newIdle(cancel)
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, u, nil)
	if err != nil {
		idle.stop()
		cancel()
		return nil, nil, "", &badAnswer{"bad URL"}
	}
	if rng != "" {
		req.Header.Set("Range", rng)
		// The bytes as stored: a range of a compressed answer is no range
		// of the file. (Without a Range, Go asks for gzip and decodes it.)
		req.Header.Set("Accept-Encoding", "identity")
	}
	cred := w.auth(req, name)
	req.Header.Set("User-Agent", "evalview")
	resp, err := w.client.Do(req)
	if err != nil {
		idle.stop()
		cancel()
		return nil, nil, cred, idle.cause(err)
	}
	b := newBody(resp.Body, cancel, idle)
	resp.Body = b
	return resp, b, cred, nil
}

// again tells whether a request that failed with err may be made again:
// not when it was cancelled, stalled or slow (a second wait doubles the
// user's), nor when its answer answered another question.
func again(err error) bool {
	var bad *badAnswer
	return !isTimeout(err) && !isCanceled(err) && !errors.As(err, &bad)
}

// retryAfter is how long an answer asks to be waited for (its
// Retry-After in seconds), at most 30 s; 0 for no ask.
func retryAfter(resp *http.Response) time.Duration {
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
		return min(time.Duration(s)*time.Second, 30*time.Second)
	}
	return 0
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
	resp, _, cred, err := w.do(ctx, name, u, rng)
	if err != nil {
		return again(err), pathErr(op, name, netWhat(err), err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusRequestedRangeNotSatisfiable {
		return false, use(resp)
	}
	what, serr, retry := w.status(resp, cred)
	if what != "" {
		if d := retryAfter(resp); d > 0 {
			*wait = d
		}
		return retry, pathErr(op, name, what, serr)
	}
	if err := use(resp); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return false, err
		}
		return again(err), pathErr(op, name, netWhat(err), err)
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
		if m.page {
			return nil // a folder's index page (of any size, maybe none said): listed instead
		}
		b := resp.Body.(*body)
		switch resp.StatusCode {
		case http.StatusRequestedRangeNotSatisfiable:
			// An empty object: bytes */SIZE, no first byte.
			cr := resp.Header.Get("Content-Range")
			size, ok := rangeTotal(cr)
			if !ok {
				return pathErr("stat", name, "the server gave no size (Content-Range "+strconv.Quote(cr)+")", errors.New("no size"))
			}
			m.size = size
			return nil
		case http.StatusPartialContent:
			size, err := partial(resp, b, 0, blockSize, -1)
			if err != nil {
				return pathErr("stat", name, netWhat(err), err)
			}
			m.size = size
		case http.StatusOK:
			size, err := whole(resp, b, -1)
			if err != nil {
				return pathErr("stat", name, netWhat(err), err)
			}
			if size < 0 {
				return pathErr("stat", name, "the server gave no size", errors.New("no size"))
			}
			m.size = size
		default:
			return pathErr("stat", name, fmt.Sprintf("unexpected answer (HTTP %d)", resp.StatusCode), errors.New(resp.Status))
		}
		head = make([]byte, min(m.size, blockSize))
		_, err := io.ReadFull(b, head)
		if err == nil && int64(len(head)) == m.size {
			err = b.finish()
		}
		if err != nil {
			head = nil
			if !again(err) {
				return err // stalled, slow, cancelled or another answer
			}
			// The size and version stand; the head is read again.
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
// stay the same from one request to the next. vkind says which it is.
func metaOf(resp *http.Response) meta {
	var m meta
	if m.version = resp.Header.Get("ETag"); m.version != "" {
		m.vkind = "ETag"
	}
	if t, err := http.ParseTime(resp.Header.Get("Last-Modified")); err == nil {
		m.mod = t
		if m.version == "" {
			m.version, m.vkind = t.UTC().Format(time.RFC3339), "Last-Modified"
		}
	}
	if resp.Request != nil && strings.HasSuffix(resp.Request.URL.Path, "/") {
		ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		m.page = ct == "text/html"
	}
	for req := resp.Request; req != nil && req.Response != nil; req = req.Response.Request {
		if v := req.Response.Header.Get("X-Linked-Etag"); v != "" {
			m.version, m.vkind = v, "X-Linked-Etag" // the earliest redirect's, once the loop ends
		}
	}
	return m
}

// stream opens bytes [off, off+n) of the object at u, first answered as
// m, retrying what may pass as get does. The answer must be of m's
// version (told the same way), of m's size, and hold the range asked,
// no more and no less (see partial); the body is read as it comes, under
// its idle timer and MinRate.
func (w *web) stream(ctx context.Context, name, u string, off, n int64, m meta) (io.ReadCloser, error) {
	rng := fmt.Sprintf("bytes=%d-%d", off, off+n-1)
	var last error
	wait := Backoff
	for attempt := 0; attempt < Attempts; attempt++ {
		if attempt > 0 {
			if err := pause(ctx, &wait); err != nil {
				return nil, pathErr("read", name, netWhat(err), err)
			}
		}
		resp, b, cred, err := w.do(ctx, name, u, rng)
		if err != nil {
			last = pathErr("read", name, netWhat(err), err)
			if !again(err) {
				return nil, last
			}
			continue
		}
		what, serr, retry := w.status(resp, cred)
		if what == "" {
			what, serr = versionOf(resp, m)
		}
		if what != "" {
			b.Close()
			if d := retryAfter(resp); d > 0 {
				wait = d
			}
			last = pathErr("read", name, what, serr)
			if !retry {
				return nil, last
			}
			continue
		}
		switch resp.StatusCode {
		case http.StatusPartialContent:
			_, err = partial(resp, b, off, n, m.size)
		case http.StatusOK:
			// The server ignored the range: skip to off.
			if _, err = whole(resp, b, m.size); err == nil {
				if _, err = io.CopyN(io.Discard, b, off); err != nil && again(err) {
					b.Close()
					last = pathErr("read", name, netWhat(err), err)
					continue
				}
			}
		default:
			err = &badAnswer{fmt.Sprintf("unexpected answer (HTTP %d)", resp.StatusCode)}
		}
		if err != nil {
			b.Close()
			if errors.Is(err, ErrChanged) {
				return nil, pathErr("read", name, err.Error(), err)
			}
			return nil, pathErr("read", name, netWhat(err), err)
		}
		return b, nil
	}
	return nil, last
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

func (s *webStore) stream(ctx context.Context, key string, off, n int64, m meta) (io.ReadCloser, error) {
	return s.w.stream(ctx, s.url(key), s.request(key), off, n, m)
}
