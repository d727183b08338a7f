package lmeval

import (
	"bytes"
	"unicode/utf8"
	"unsafe"
)

// The deep check decodes every repeat of every doc (64 per doc in a
// self-consistency run) only to re-apply the filters to it and forget it
// when the doc is done. Copying each text into its own string made the
// deep check allocate about as many bytes as the file holds, and the
// garbage collector's share of the pass was a fifth. A textArena instead
// hands out strings that share memory with the row just read (a text
// without escapes, the common case in many logs) or with one buffer the
// worker reuses doc after doc (a text with escapes).
//
// The strings are valid only while the doc is being re-extracted: until
// the row buffer is read into again or the arena is reset. Nothing the
// deep check keeps holds them: issues format their texts with fmt (a
// copy), and the counts hold numbers and filter names from the index.

// textArena decodes a doc's repeat texts for one deep-check worker. It
// is not safe for concurrent use.
type textArena struct {
	buf []byte
}

// maxArenaKeep is the largest buffer a worker keeps from doc to doc: a
// doc with longer texts (a 200 MB line) gets buffers of its own, which
// the collector takes back once the doc is done.
const maxArenaKeep = 8 << 20

// reset forgets the previous doc's texts and makes room for the texts
// of a resps value of size bytes (decoding never makes a text longer).
func (a *textArena) reset(size int) {
	if cap(a.buf) > maxArenaKeep {
		a.buf = nil
	}
	if cap(a.buf) < size && size <= maxArenaKeep {
		a.buf = make([]byte, 0, size)
	}
	a.buf = a.buf[:0]
}

// text decodes the JSON string literal v exactly as decodeString does,
// without copying: see textArena.
func (a *textArena) text(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	in := v[1 : len(v)-1]
	if bytes.IndexByte(in, '\\') < 0 {
		if hasForbidden(in) || !utf8.Valid(in) {
			return slowString(v)
		}
		if len(in) == 0 {
			return "", true
		}
		return unsafe.String(&in[0], len(in)), true
	}
	start := len(a.buf)
	buf, st := appendUnescaped(a.buf, in)
	switch st {
	case unescapeSlow:
		a.buf = a.buf[:start]
		return slowString(v)
	case unescapeBad:
		a.buf = a.buf[:start]
		return "", false
	}
	// When append had to move buf, earlier texts keep the old array
	// alive and unchanged; only this doc's texts are ever in it.
	a.buf = buf
	return unsafe.String(&buf[start], len(buf)-start), true
}
