// Package jsonscan walks one JSON value from a stream without decoding it:
// it reads object keys and array elements in order, skips values at the
// speed of a byte loop, and captures the bytes of the values a caller wants
// (up to a cap each). Loaders use it on members far larger than memory
// should hold, such as an Inspect sample with 300,000 events, where only a
// few fields and a bounded part of the transcript are shown.
//
// The scanner checks the structure of what it walks (keys, colons, commas)
// and that skipped values close, each bracket by its own kind, but not
// the commas and colons inside a skipped value, nor the spelling of
// numbers and literals, so NaN and Infinity pass; callers decode what they
// captured with a decoder that checks it.
package jsonscan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"evalview/loaders/internal/jsonstr"
)

// bufSize is the read buffer: big enough that skipping costs about one
// read syscall per 256 KB of data.
const bufSize = 256 << 10

// Scanner walks a JSON stream. The zero value is not usable; call New.
type Scanner struct {
	r        io.Reader
	buf      []byte
	pos, end int
	// base is the stream offset of buf[0].
	base int64
	err  error
	// open is the stack of the brackets a skipped value has open, a bit
	// a level (1: an object), kept to be reused.
	open []uint64
}

// bufs recycles read buffers: a check of many sample members walks one
// after another, and allocating (and zeroing) 256 KB for each was a tenth
// of its time.
var bufs = sync.Pool{New: func() any { b := make([]byte, bufSize); return &b }}

// New returns a scanner reading r. Release hands its buffer back.
func New(r io.Reader) *Scanner { return &Scanner{r: r, buf: *bufs.Get().(*[]byte)} }

// Release ends the scanner's use: its buffer goes back to be reused. The
// scanner must not be used after; what Capture returned stays valid.
func (s *Scanner) Release() {
	if s.buf != nil {
		b := s.buf[:bufSize]
		bufs.Put(&b)
		s.buf, s.err = nil, io.ErrClosedPipe
	}
}

// Offset returns the stream offset of the next unread byte.
func (s *Scanner) Offset() int64 { return s.base + int64(s.pos) }

// SyntaxError is malformed JSON at a stream offset.
type SyntaxError struct {
	Offset int64
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s (at byte %d)", e.Msg, e.Offset) }

func (s *Scanner) syntax(format string, args ...any) error {
	return &SyntaxError{Offset: s.Offset(), Msg: fmt.Sprintf(format, args...)}
}

// fill reads more data; it returns false at the end of the stream or on
// a read error (kept in s.err).
func (s *Scanner) fill() bool {
	if s.err != nil {
		return false
	}
	if s.pos > 0 {
		copy(s.buf, s.buf[s.pos:s.end])
		s.base += int64(s.pos)
		s.end -= s.pos
		s.pos = 0
	}
	for {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			s.err = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

// readErr is the error to return when the stream ended too early.
func (s *Scanner) readErr(what string) error {
	if s.err != nil && !errors.Is(s.err, io.EOF) {
		return s.err
	}
	return s.syntax("the data ends inside %s: truncated?", what)
}

// peek skips whitespace and returns the next byte without consuming it.
func (s *Scanner) peek() (byte, bool) {
	for {
		for s.pos < s.end {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return c, true
			}
		}
		if !s.fill() {
			return 0, false
		}
	}
}

// Peek returns the first byte of the next value ('{', '[', '"', a digit...)
// without consuming it; ok is false at the end of the stream.
func (s *Scanner) Peek() (byte, bool) { return s.peek() }

func (s *Scanner) expect(c byte, what string) error {
	got, ok := s.peek()
	if !ok {
		return s.readErr(what)
	}
	if got != c {
		return s.syntax("expected %q in %s, found %q", c, what, got)
	}
	s.pos++
	return nil
}

// maxKey is the longest object key read.
const maxKey = 1 << 20

// Object walks an object: fn is called with each key and must consume its
// value (Skip, Capture, or a nested walk).
func (s *Scanner) Object(fn func(key string) error) error {
	if err := s.expect('{', "an object"); err != nil {
		return err
	}
	c, ok := s.peek()
	if !ok {
		return s.readErr("an object")
	}
	if c == '}' {
		s.pos++
		return nil
	}
	for {
		raw, cut, err := s.Capture(maxKey)
		if err != nil {
			return err
		}
		if len(raw) == 0 || raw[0] != '"' {
			return s.syntax("an object key is not a string")
		}
		if cut {
			return s.syntax("an object key is longer than %d MB, more than evalview reads", maxKey>>20)
		}
		key, err := unquote(raw)
		if err != nil {
			return s.syntax("bad object key: %v", err)
		}
		if err := s.expect(':', "an object"); err != nil {
			return err
		}
		if err := fn(key); err != nil {
			return err
		}
		c, ok := s.peek()
		if !ok {
			return s.readErr("an object")
		}
		s.pos++
		switch c {
		case ',':
		case '}':
			return nil
		default:
			return s.syntax("expected ',' or '}' after an object value, found %q", c)
		}
	}
}

// Array walks an array: fn is called with each element's index and must
// consume the element.
func (s *Scanner) Array(fn func(i int) error) error {
	if err := s.expect('[', "an array"); err != nil {
		return err
	}
	c, ok := s.peek()
	if !ok {
		return s.readErr("an array")
	}
	if c == ']' {
		s.pos++
		return nil
	}
	for i := 0; ; i++ {
		if err := fn(i); err != nil {
			return err
		}
		c, ok := s.peek()
		if !ok {
			return s.readErr("an array")
		}
		s.pos++
		switch c {
		case ',':
		case ']':
			return nil
		default:
			return s.syntax("expected ',' or ']' after an array element, found %q", c)
		}
	}
}

// Skip consumes the next value.
func (s *Scanner) Skip() error {
	_, err := s.value(nil, 0)
	return err
}

// Len consumes the next value and returns its length in bytes.
func (s *Scanner) Len() (int64, error) { return s.value(nil, 0) }

// Capture consumes the next value and returns its bytes, at most limit of
// them; truncated reports that the value was longer (its tail was skipped,
// not kept).
func (s *Scanner) Capture(limit int) (raw []byte, truncated bool, err error) {
	var out []byte
	n, err := s.value(&out, limit)
	return out, n > int64(len(out)), err
}

// value consumes one value, appending up to limit of its bytes to *out
// when out is not nil, and returns its length.
func (s *Scanner) value(out *[]byte, limit int) (int64, error) {
	c, ok := s.peek()
	if !ok {
		return 0, s.readErr("a value")
	}
	start := s.Offset()
	keep := func(b []byte) {
		if out == nil || len(*out) >= limit {
			return
		}
		if room := limit - len(*out); len(b) > room {
			b = b[:room]
		}
		*out = append(*out, b...)
	}
	switch c {
	case '{', '[':
		return s.container(keep, start)
	case '"':
		if err := s.str(keep); err != nil {
			return 0, err
		}
		return s.Offset() - start, nil
	case ',', ':', '}', ']':
		return 0, s.syntax("expected a value, found %q", c)
	}
	// A number or a literal (true, null, NaN, -Infinity...): up to the
	// next delimiter.
	for {
		i := s.pos
		for i < s.end && !isDelim(s.buf[i]) {
			i++
		}
		keep(s.buf[s.pos:i])
		s.pos = i
		if i < s.end || !s.fill() {
			break
		}
	}
	return s.Offset() - start, nil
}

func isDelim(c byte) bool {
	switch c {
	case ',', '}', ']', ':', ' ', '\t', '\n', '\r', '"', '{', '[':
		return true
	}
	return false
}

// str consumes a string (s.buf[s.pos] is its opening quote).
func (s *Scanner) str(keep func([]byte)) error {
	keep(s.buf[s.pos : s.pos+1])
	s.pos++
	for {
		j, closed := strEnd(s.buf[:s.end], s.pos)
		keep(s.buf[s.pos:j])
		s.pos = j
		if closed {
			return nil
		}
		if !s.fill() {
			return s.readErr("a string")
		}
	}
}

// strEnd scans a string's body in b from i (just after its opening
// quote, or inside it) and returns the index past its closing quote; or,
// when b ends first, how far it got (before a trailing backslash, so that
// an escape is never split between two reads) and false. It searches for
// the quote and the backslashes with bytes.IndexByte, which runs many
// bytes at a time: most of a transcript's bytes are inside strings.
func strEnd(b []byte, i int) (int, bool) {
	q := -1
	for {
		if q < i {
			k := bytes.IndexByte(b[i:], '"')
			if k < 0 {
				return escapesTo(b, i), false
			}
			q = i + k
		}
		k := bytes.IndexByte(b[i:q], '\\')
		if k < 0 {
			return q + 1, true
		}
		i += k + 2 // the escaped byte may be the quote found: search again
	}
}

// escapesTo steps over the escapes in b[i:], which holds no closing
// quote, and returns where the string's bytes in b may be cut: the end of
// b, or a trailing backslash whose escaped byte is still to come.
func escapesTo(b []byte, i int) int {
	for {
		k := bytes.IndexByte(b[i:], '\\')
		if k < 0 {
			return len(b)
		}
		if i+k+1 >= len(b) {
			return i + k
		}
		i += k + 2
	}
}

// container consumes an object or array, counting depth and stepping over
// strings, so a bracket inside a string does not count. Each closing
// bracket must be of its opening one's kind: a value that closes an
// array with a brace is an error where it does, not a value that ends
// further on (where a document's elements would be cut wrongly).
func (s *Scanner) container(keep func([]byte), start int64) (int64, error) {
	depth := 0
	inStr := false
	for {
		b := s.buf[:s.end]
		i := s.pos
		for i < len(b) {
			if inStr {
				j, closed := strEnd(b, i)
				i = j
				if !closed {
					break
				}
				inStr = false
				continue
			}
			c := b[i]
			i++
			switch c {
			case '"':
				inStr = true
			case '{', '[':
				s.push(depth, c == '{')
				depth++
			case '}', ']':
				depth--
				if s.isObject(depth) != (c == '}') {
					keep(s.buf[s.pos : i-1])
					s.pos = i - 1
					if c == ']' {
						return 0, s.syntax("expected '}' to close an object, found ']'")
					}
					return 0, s.syntax("expected ']' to close an array, found '}'")
				}
				if depth == 0 {
					keep(s.buf[s.pos:i])
					s.pos = i
					return s.Offset() - start, nil
				}
			}
		}
		keep(s.buf[s.pos:i])
		s.pos = i
		if !s.fill() {
			return 0, s.readErr("an object or array")
		}
	}
}

// push notes that level depth of the value being skipped is an object or
// an array.
func (s *Scanner) push(depth int, object bool) {
	w := depth / 64
	for len(s.open) <= w {
		s.open = append(s.open, 0)
	}
	if bit := uint64(1) << (depth % 64); object {
		s.open[w] |= bit
	} else {
		s.open[w] &^= bit
	}
}

// isObject tells whether level depth of the value being skipped is an
// object.
func (s *Scanner) isObject(depth int) bool {
	return s.open[depth/64]&(1<<(depth%64)) != 0
}

// unquote decodes a JSON string literal, as encoding/json does.
func unquote(raw []byte) (string, error) {
	if s, ok := jsonstr.Unquote(raw); ok {
		return s, nil
	}
	return "", errors.New("not a valid JSON string")
}
