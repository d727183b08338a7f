// Package jsonstr decodes JSON string literals: the one decoder every
// loader's fast path uses, with the rules of encoding/json. A literal is
// refused when it holds a raw control byte, an unknown escape, a \u
// escape without four hex digits, or no closing quote. Invalid UTF-8
// becomes U+FFFD, one for each byte utf8.DecodeRune rejects, and a \u
// escape of a surrogate that does not pair with the next escape becomes
// U+FFFD, exactly as encoding/json unquotes (FuzzDecode holds every output
// to it).
//
// The core is decode, one loop over a literal: runs of bytes that stand
// for themselves are found eight bytes at a time, escapes and invalid
// bytes are decoded one by one. The outputs the loaders need are where
// it puts the text: Unquote (a new string), Append and Share (into a
// caller's buffer, or the literal's own bytes when it needs no decoding),
// InPlace (over the literal's bytes), Write (to a hash, without building
// the text) and Check (nowhere).
package jsonstr

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Result says what a literal held, and how decoding it ended.
type Result uint8

const (
	// Done: the closing quote was read; the offset returned is just
	// past it.
	Done Result = 1 << iota
	// Bad: the bytes are not a JSON string literal.
	Bad
	// Escaped: the literal holds escapes.
	Escaped
	// Invalid: the literal holds invalid UTF-8 (each such byte decodes
	// to U+FFFD, three bytes for one).
	Invalid
)

// Writer is where Write sends a literal's text: a hash.
type Writer interface{ Write(p []byte) (int, error) }

// writer is decode's output to a Writer: runs that need no decoding are
// written as they stand, the rest through buf, flushed when it fills.
type writer struct {
	w   Writer
	buf []byte
}

// flushAt is the buffer size at which a writer is flushed.
const flushAt = 64

func (o *writer) plain(p []byte) {
	if len(p) > 0 {
		o.flush()
		o.w.Write(p)
	}
}

func (o *writer) decoded(r rune) {
	o.buf = utf8.AppendRune(o.buf, r)
	if len(o.buf) >= flushAt {
		o.flush()
	}
}

func (o *writer) flush() {
	if len(o.buf) > 0 {
		o.w.Write(o.buf)
		o.buf = o.buf[:0]
	}
}

// decode is the decoder. It reads the literal whose opening quote is b[i]
// and appends its text to dst (write), or writes it to wr (not nil), or
// only checks it (neither); it returns the offset just past the closing
// quote (or where the literal stopped being one) and what the literal
// held. A literal that needs no decoding at all (no escapes, valid UTF-8)
// is left where it is: decode returns Done alone and outputs nothing; its
// text is b[i+1:end-1]. A nil dst is made at the first write, with room
// for the rest of b (for Unquote, whose b is the literal).
func decode(dst []byte, write bool, wr *writer, b []byte, i int) ([]byte, int, Result) {
	if i < 0 || i >= len(b) || b[i] != '"' {
		return dst, i, Bad
	}
	i++
	var res Result
	first := true
	for {
		n, high := plainRun(b[i:])
		run := b[i : i+n]
		invalid := high && !utf8.Valid(run)
		i += n
		if i >= len(b) {
			return dst, i, res | Bad // no closing quote
		}
		if first && !invalid && b[i] == '"' {
			return dst, i + 1, Done // nothing to decode
		}
		if first && write && dst == nil {
			dst = make([]byte, 0, len(b)-i+n)
		}
		first = false
		switch {
		case invalid:
			res |= Invalid
			dst = replaceInvalid(dst, write, wr, run)
		case write:
			dst = append(dst, run...)
		case wr != nil:
			wr.plain(run)
		}
		switch b[i] {
		case '"':
			if wr != nil {
				wr.flush()
			}
			return dst, i + 1, res | Done
		case '\\':
		default:
			return dst, i, res | Bad // a raw control byte
		}
		res |= Escaped
		if i+1 >= len(b) {
			return dst, i, res | Bad
		}
		if c := shortEscapes[b[i+1]]; c != 0 {
			switch {
			case write:
				dst = append(dst, c)
			case wr != nil:
				wr.decoded(rune(c))
			}
			i += 2
			continue
		}
		r, size := unicodeEscape(b[i:])
		if size == 0 {
			return dst, i, res | Bad // an unknown escape, or \u without four hex digits
		}
		switch {
		case write:
			dst = utf8.AppendRune(dst, r)
		case wr != nil:
			wr.decoded(r)
		}
		i += size
	}
}

// replaceInvalid outputs run, which holds invalid UTF-8, with U+FFFD for
// each byte that is not UTF-8, as encoding/json decodes it.
func replaceInvalid(dst []byte, write bool, wr *writer, run []byte) []byte {
	for len(run) > 0 {
		k := validPrefix(run)
		switch {
		case write:
			dst = append(dst, run[:k]...)
		case wr != nil:
			wr.plain(run[:k])
		}
		run = run[k:]
		for len(run) > 0 {
			if r, size := utf8.DecodeRune(run); r != utf8.RuneError || size != 1 {
				break
			}
			switch {
			case write:
				dst = utf8.AppendRune(dst, utf8.RuneError)
			case wr != nil:
				wr.decoded(utf8.RuneError)
			}
			run = run[1:]
		}
	}
	return dst
}

// shortEscapes maps the letter of each two-byte JSON escape (\n, \", ...)
// to the byte it stands for; 0 for any other letter (\u is read apart).
var shortEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// unicodeEscape decodes the \uXXXX escape at the start of b, with a
// following \uXXXX when the two make a surrogate pair; a surrogate that
// does not pair is U+FFFD, and the escape after it is read on its own, as
// encoding/json does. size is 0 when b does not start with a \u escape.
func unicodeEscape(b []byte) (r rune, size int) {
	r, ok := hex4(b)
	if !ok {
		return 0, 0
	}
	if !utf16.IsSurrogate(r) {
		return r, 6
	}
	if r2, ok := hex4(b[6:]); ok {
		if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
			return d, 12
		}
	}
	return utf8.RuneError, 6
}

// hex4 reads a \uXXXX escape at the start of b: the one \u parser.
func hex4(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// validPrefix returns the length of b's longest prefix of valid UTF-8.
func validPrefix(b []byte) int {
	if utf8.Valid(b) {
		return len(b)
	}
	i := 0
	for i < len(b) {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	return i
}

// plainRun returns the length of b's leading run of bytes that stand for
// themselves in a literal (no backslash, quote or control byte), and
// whether it holds non-ASCII bytes. It looks at eight bytes at a time
// (SWAR): this runs over every byte of hundreds of MB of responses.
func plainRun(b []byte) (int, bool) {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	zero := func(x uint64) uint64 { return (x - ones) & ^x & highs }
	i, high := 0, false
	for i+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[i:])
		// bytes < 0x20, '"' and '\\' (bytes >= 0x80 cannot match)
		if (x-ones*0x20)&^x&highs|zero(x^(ones*'"'))|zero(x^(ones*'\\')) != 0 {
			break
		}
		high = high || x&highs != 0
		i += 8
	}
	for ; i < len(b); i++ {
		c := b[i]
		if c < 0x20 || c == '"' || c == '\\' {
			break
		}
		high = high || c >= 0x80
	}
	return i, high
}

// Append appends the decoded text of the literal whose opening quote is
// b[i] to dst, and returns the offset just past its closing quote; ok is
// false when b[i:] does not start with a literal (dst's new bytes are then
// garbage).
func Append(dst, b []byte, i int) (out []byte, end int, ok bool) {
	if dst == nil {
		dst = []byte{} // not sized by decode: b may be much longer than the literal
	}
	dst, end, res := decode(dst, true, nil, b, i)
	if res == Done {
		dst = append(dst, b[i+1:end-1]...)
	}
	return dst, end, res&Done != 0
}

// Share decodes the literal whose opening quote is b[i]: text is the
// literal's own body when it needs no decoding (no escapes, valid UTF-8;
// dst is then returned as it was), or else the decoded text, appended to
// dst. end is the offset just past the closing quote; ok is false when
// b[i:] does not start with a literal.
func Share(dst, b []byte, i int) (text, out []byte, end int, ok bool) {
	if dst == nil {
		dst = []byte{} // not sized by decode: b may be much longer than the literal
	}
	start := len(dst)
	dst, end, res := decode(dst, true, nil, b, i)
	if res == Done {
		return b[i+1 : end-1], dst, end, true
	}
	return dst[start:], dst, end, res&Done != 0
}

// Unquote decodes the string literal lit (nothing before or after it) as
// encoding/json does; ok is false when lit is not one.
func Unquote(lit []byte) (string, bool) {
	if len(lit) == 2 && lit[0] == '"' && lit[1] == '"' {
		return "", true
	}
	// One allocation: the text as it stands, or a buffer decode makes
	// the literal's size (decoding never makes the text longer, but for
	// invalid UTF-8).
	dst, end, res := decode(nil, true, nil, lit, 0)
	switch {
	case res&Done == 0 || end != len(lit):
		return "", false
	case res == Done:
		return string(lit[1 : end-1]), true
	}
	return unsafe.String(unsafe.SliceData(dst), len(dst)), true // new, and never written again
}

// Check walks the literal whose opening quote is b[i] without building its
// text: it returns the offset just past the closing quote and what the
// literal holds (Done, or Bad when it is not one).
func Check(b []byte, i int) (end int, res Result) {
	_, end, res = decode(nil, false, nil, b, i)
	return end, res
}

// InPlace decodes the literal lit (nothing before or after it) over its
// own bytes and returns a string that shares them: for texts of hundreds
// of MB that would otherwise be held twice. Decoding never needs more room
// than the escape it replaces (\n is 2 bytes for 1, \uXXXX 6 for at most
// 3, a surrogate pair 12 for 4), so writing stays behind reading. ok is
// false, and lit left as it was, when lit is not a literal or holds
// invalid UTF-8 (whose U+FFFD takes 3 bytes for 1). lit must be the
// caller's own: it no longer holds the literal afterwards.
func InPlace(lit []byte) (string, bool) {
	end, res := Check(lit, 0)
	if res&Done == 0 || res&Invalid != 0 || end != len(lit) {
		return "", false
	}
	body := lit[1 : len(lit)-1]
	if res == Done {
		return unsafe.String(unsafe.SliceData(body), len(body)), true
	}
	text, _, _ := decode(body[:0], true, nil, lit, 0) // appends stay within body
	return unsafe.String(unsafe.SliceData(text), len(text)), true
}

// Write writes the decoded text of the literal lit (nothing before or
// after it) to w without building it: runs that need no decoding as they
// stand, the rest through a small buffer. ok is false when lit is not a
// literal (w then has had part of it).
func Write(w Writer, lit []byte) bool {
	var buf [flushAt + utf8.UTFMax]byte
	_, end, res := decode(nil, false, &writer{w: w, buf: buf[:0]}, lit, 0)
	if res == Done {
		w.Write(lit[1 : end-1])
	}
	return res&Done != 0 && end == len(lit)
}
