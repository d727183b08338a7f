package source

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// A remote request is bounded by its progress, not by a deadline on the
// whole: the head of its answer must come within Timeout, then its body
// may take as long as it needs while bytes keep coming (never Timeout
// without one) and come fast enough (MinRate bytes a second on average,
// over every RateWindow). A body whose reader is not ready for more (the
// read-ahead waiting for its reader) is held to neither meanwhile.
//
// What an answer says of itself is checked against what was asked: the
// range its Content-Range names and the length of its body, the version
// the first answer gave (a later one must give the same, the same way),
// and its Content-Encoding: a range the server gzipped on its own is
// decoded (and held to the range's length); any other encoding of a
// range is an error naming it.

// MinRate is the slowest a body may come, in bytes a second, averaged
// over each RateWindow (0 turns the check off). Tests shorten them.
var (
	MinRate    int64 = 1 << 10
	RateWindow       = 30 * time.Second
)

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

// slowError is a body that came slower than MinRate: a net.Error whose
// Timeout is true, so that it is not asked again (a slow server stays
// slow, and a second wait doubles the user's).
type slowError struct {
	got int64
	in  time.Duration
}

func (e *slowError) Error() string {
	return fmt.Sprintf("too slow: %d bytes in %s, under the minimum of %d bytes a second", e.got, e.in.Round(time.Millisecond), MinRate)
}
func (*slowError) Timeout() bool   { return true }
func (*slowError) Temporary() bool { return true }

// shortError is a body that ended before the length it was to have: as a
// dropped connection, asked again.
type shortError struct{ got, want int64 }

func (e *shortError) Error() string {
	return fmt.Sprintf("the answer ended after %d of its %d bytes", e.got, e.want)
}

// badAnswer is an answer that does not answer what was asked (another
// range, another length, an encoding not asked for): asking again would
// get the same, so it is not retried. what words it for the user.
type badAnswer struct{ what string }

func (e *badAnswer) Error() string { return e.what }

func isCanceled(err error) bool { return errors.Is(err, context.Canceled) }

// body is an answer's body as the stores read it: under its request's
// idle timer and MinRate, decoded when the server gzipped a range on its
// own, and held to the length the answer was to have (want, -1 when not
// known): ending short is a shortError, going on past it an error of
// finish. Close ends the request.
type body struct {
	raw    io.ReadCloser
	r      io.Reader // wire, or a gzip reader over it
	cancel func()
	idle   *idle
	since  time.Time // the start of the rate's window (pauses excluded)
	got    int64     // bytes off the wire since then
	paused time.Time
	want   int64
	read   int64
	err    error // sticky: too slow
}

func newBody(raw io.ReadCloser, cancel func(), idle *idle) *body {
	b := &body{raw: raw, cancel: cancel, idle: idle, since: time.Now(), want: -1}
	b.r = wire{b}
	return b
}

// wire reads the body as it comes: each read that brings bytes restarts
// the idle timer, and each RateWindow the bytes that came are held to
// MinRate.
type wire struct{ b *body }

func (w wire) Read(p []byte) (int, error) {
	b := w.b
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.raw.Read(p)
	if n > 0 {
		b.idle.touch()
		b.got += int64(n)
		if el := time.Since(b.since); el >= RateWindow {
			if MinRate > 0 && float64(b.got) < float64(MinRate)*el.Seconds() {
				b.err = &slowError{got: b.got, in: el}
				b.cancel()
				return n, b.err
			}
			b.since, b.got = time.Now(), 0
		}
	}
	return n, b.idle.cause(err)
}

func (b *body) Read(p []byte) (int, error) {
	if b.want < 0 {
		return b.r.Read(p)
	}
	left := b.want - b.read
	if left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := b.r.Read(p)
	b.read += int64(n)
	if err == io.EOF && b.read < b.want {
		err = &shortError{got: b.read, want: b.want}
	}
	return n, err
}

// gunzip decodes the body from here on.
func (b *body) gunzip() error {
	z, err := gzip.NewReader(b.r)
	if err != nil {
		return err
	}
	b.r = z
	return nil
}

// finish tells whether a body read to its length ends there: no byte
// past it (an answer longer than it says is no answer to the question),
// and a gzip stream whole (its checksum). A body not read to its end, or
// of no known length, is not looked at.
func (b *body) finish() error {
	if b.want < 0 || b.read < b.want {
		return nil
	}
	var one [1]byte
	for {
		n, err := b.r.Read(one[:])
		if n > 0 {
			return &badAnswer{fmt.Sprintf("the answer goes on past the %d bytes it was to have (an answer to another request)", b.want)}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// pause stops the idle timer and the rate's clock while the body waits
// for its reader (not the server's fault); resume starts them again.
func (b *body) pause() {
	b.idle.stop()
	b.paused = time.Now()
}

func (b *body) resume() {
	if !b.paused.IsZero() {
		b.since = b.since.Add(time.Since(b.paused))
		b.paused = time.Time{}
	}
	b.idle.touch()
}

func (b *body) Close() error {
	b.idle.stop()
	b.cancel()
	return b.raw.Close()
}

// contentRange reads a Content-Range header "bytes FIRST-LAST/TOTAL"
// (TOTAL may be "*": -1).
func contentRange(cr string) (first, last, total int64, ok bool) {
	spec, found := strings.CutPrefix(strings.TrimSpace(cr), "bytes ")
	if !found {
		return 0, 0, 0, false
	}
	rng, tot, found := strings.Cut(spec, "/")
	a, b, found2 := strings.Cut(rng, "-")
	if !found || !found2 {
		return 0, 0, 0, false
	}
	var err1, err2, err3 error
	first, err1 = strconv.ParseInt(strings.TrimSpace(a), 10, 64)
	last, err2 = strconv.ParseInt(strings.TrimSpace(b), 10, 64)
	total = -1
	if t := strings.TrimSpace(tot); t != "*" {
		total, err3 = strconv.ParseInt(t, 10, 64)
	}
	ok = err1 == nil && err2 == nil && err3 == nil && first >= 0 && last >= first && (total < 0 || last < total)
	return first, last, total, ok
}

// encoding is an answer's Content-Encoding, lower case ("" for none or
// identity).
func encoding(resp *http.Response) string {
	e := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding")))
	if e == "identity" {
		return ""
	}
	return e
}

// partial checks a 206 answer against the range asked, bytes [off,
// off+n) of an object of size bytes (-1 when not yet known: the answer
// tells it), and readies its body to give exactly that range: the range
// the answer names must be the one asked (cut at the object's end), its
// length the body's, and its total the object's size. A body gzipped
// though not asked to be (each range request asks for identity) is
// decoded; by HTTP's rules a range of a compressed representation is a
// range of its compressed bytes, so a body exactly the range's length is
// taken as it is (a .gz file a server labels gzip). It returns the size.
func partial(resp *http.Response, b *body, off, n, size int64) (int64, error) {
	cr := resp.Header.Get("Content-Range")
	first, last, total, ok := contentRange(cr)
	if !ok || total < 0 {
		return 0, &badAnswer{"the server gave no size or a broken one (Content-Range " + strconv.Quote(cr) + ")"}
	}
	if size >= 0 && total != size {
		return 0, fmt.Errorf("%w (its size is now %d bytes, was %d)", ErrChanged, total, size)
	}
	end := min(off+n, total) - 1
	if first != off || last != end {
		return 0, &badAnswer{fmt.Sprintf("the server answered bytes %d-%d for bytes %d-%d asked (Content-Range %s)", first, last, off, end, strconv.Quote(cr))}
	}
	length := last - first + 1
	b.want = length
	switch enc := encoding(resp); {
	case resp.ContentLength == length:
		// The range's bytes, as stored (or compressed as stored).
	case enc == "gzip" || enc == "x-gzip":
		if err := b.gunzip(); err != nil {
			return 0, &badAnswer{fmt.Sprintf("the server sent the range compressed (Content-Encoding: %s) though not asked to, and it does not decode: %v", enc, err)}
		}
	case enc != "":
		return 0, &badAnswer{fmt.Sprintf("the server sent the range encoded (Content-Encoding: %s) though not asked to; evalview decodes gzip only", enc)}
	case resp.ContentLength >= 0:
		return 0, &badAnswer{fmt.Sprintf("the server's answer holds %d bytes for the %d of the range it names", resp.ContentLength, length)}
	}
	return total, nil
}

// whole checks a 200 answer to a range request (a server that does not
// serve ranges sends the whole file) of an object of size bytes (-1 when
// not yet known: the answer tells it) and readies its body to give the
// whole object. It returns the size, or -1 when the answer gives none.
func whole(resp *http.Response, b *body, size int64) (int64, error) {
	if enc := encoding(resp); enc != "" {
		return 0, &badAnswer{fmt.Sprintf("the server sent the whole file compressed (Content-Encoding: %s) though asked for a range as stored; evalview reads files by their byte ranges (serve it without compression)", enc)}
	}
	if cl := resp.ContentLength; cl >= 0 {
		if size >= 0 && cl != size {
			return 0, fmt.Errorf("%w (its size is now %d bytes, was %d)", ErrChanged, cl, size)
		}
		size = cl
	}
	b.want = size
	return size, nil
}

// versionOf says how an answer's version differs from m's, the first
// answer's ("" when it does not): another tag is another file; none, or
// one given another way (a Last-Modified where an ETag was), may be a
// file replaced by a server that no longer says, and is an error too. A
// first answer that gave none leaves nothing to hold later ones to but
// the size.
func versionOf(resp *http.Response, m meta) (string, error) {
	if m.version == "" {
		return "", nil
	}
	cur := metaOf(resp)
	switch {
	case cur.version == "" || m.vkind != "" && cur.vkind != m.vkind:
		return fmt.Sprintf("the file changed or the server stopped saying which version it serves (the first answer gave its %s, this one %s)", m.vkind, vkindOr(cur.vkind)), ErrChanged
	case cur.version != m.version:
		return ErrChanged.Error(), ErrChanged
	}
	return "", nil
}

func vkindOr(k string) string {
	if k == "" {
		return "none"
	}
	return k
}

// netWhat words a network error, without the URL it names.
func netWhat(err error) string {
	var slow *slowError
	var short *shortError
	var bad *badAnswer
	switch {
	case errors.As(err, &bad):
		return bad.what
	case errors.As(err, &slow):
		return slow.Error()
	case errors.Is(err, errIdle):
		return fmt.Sprintf("the server sent nothing for %s (timed out)", Timeout)
	case isCanceled(err):
		return "cancelled"
	case isTimeout(err):
		return fmt.Sprintf("no answer within %s (timed out)", Timeout)
	case errors.As(err, &short):
		return fmt.Sprintf("%s (tried %d times)", short.Error(), Attempts)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return fmt.Sprintf("the connection dropped mid-read (tried %d times)", Attempts)
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader):
		return "the server's gzip-compressed answer does not decode: " + err.Error()
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its message names the URL asked, maybe a signed one
	}
	return fmt.Sprintf("network error: %v (tried %d times)", err, Attempts)
}

// MaxListing bounds what one page of a listing (a folder's index page, a
// page of the Hub's tree listing or of S3's) may hold once decoded: a
// folder of 100,000 files makes an index page of about 10 MB, a page of
// the Hub's listing 1,000 entries. A server's gzip makes a page of GBs
// from a few MB on the wire. Tests lower it.
var MaxListing int64 = 32 << 20

// readListing reads a listing's page whole, at most MaxListing bytes
// once decoded (Go decodes the gzip it asked for); what names the page
// for messages.
func readListing(resp *http.Response, name, what string) ([]byte, error) {
	if enc := encoding(resp); enc != "" {
		return nil, pathErr("list", name, fmt.Sprintf("%s came encoded (Content-Encoding: %s), which evalview did not ask for and does not decode", what, enc), errors.New("encoded listing"))
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxListing+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > MaxListing {
		return nil, pathErr("list", name, fmt.Sprintf("%s holds over %s once decompressed (stopped there; name a deeper folder)", what, sizeWords(MaxListing)), errors.New("listing too big"))
	}
	return b, nil
}

// sizeWords is n bytes for a message: "32 MB", "64 KB", "100 bytes".
func sizeWords(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
