package lmeval

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"evalview/loaders/jsonl"
)

// Opening a record whose responses add up to hundreds of MB must take a
// fraction of a second, and encoding/json decodes at some 100 MB/s with a
// validation pass first. The helpers here split arrays with jsonl's
// skimmer and unescape strings with a copy loop, which run at memory speed
// on the long strings of model responses.

// elements returns the raw elements of a JSON array (empty, not nil, for
// []), or nil when raw is not one (or is malformed).
func elements(raw []byte) []json.RawMessage {
	out := []json.RawMessage{}
	if err := jsonl.EachElement(raw, func(_ int, v []byte) error {
		out = append(out, v)
		return nil
	}); err != nil {
		return nil
	}
	return out
}

// fastText is scalarText with a fast path for strings.
func fastText(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) >= 2 && raw[0] == '"' {
		if s, ok := unquote(raw); ok {
			return s
		}
	}
	return scalarText(raw)
}

// shortEscapes maps the letter of each two-byte JSON escape (\n, \", ...)
// to the byte it stands for; 0 for any other letter (\u is read apart).
var shortEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// unquote decodes a JSON string literal as encoding/json does (invalid
// UTF-8 and lone surrogates become U+FFFD). ok is false when raw is not a
// well-formed string literal.
func unquote(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	var b strings.Builder
	for len(body) > 0 {
		// One pass finds the end of the plain run: a backslash, a quote
		// or a control byte, noting non-ASCII bytes for the UTF-8 check.
		i, high := plainRun(body)
		chunk := body[:i]
		if i == len(raw)-2 && !high {
			return string(chunk), true // the common case: nothing to unescape
		}
		if b.Cap() == 0 {
			b.Grow(len(body))
		}
		if !high || utf8.Valid(chunk) {
			b.Write(chunk)
		} else {
			b.Write(replaceInvalid(chunk))
		}
		body = body[i:]
		if len(body) == 0 {
			break
		}
		if body[0] != '\\' || len(body) < 2 {
			return "", false // a raw quote or control byte
		}
		switch c := body[1]; {
		case shortEscapes[c] != 0:
			b.WriteByte(shortEscapes[c])
		case c == 'u':
			r, n, ok := unicodeEscape(body)
			if !ok {
				return "", false
			}
			b.WriteRune(r)
			body = body[n:]
			continue
		default:
			return "", false
		}
		body = body[2:]
	}
	return b.String(), true
}

// replaceInvalid returns b with each byte that is not part of valid UTF-8
// replaced by U+FFFD, as encoding/json decodes strings (strings'
// ToValidUTF8 would replace a run of them by one).
func replaceInvalid(b []byte) []byte {
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
}

// plainRun returns the length of body's leading run of bytes that need no
// unescaping (no backslash, quote or control byte), and whether it holds
// non-ASCII bytes. It looks at eight bytes at a time (SWAR), since this
// runs over every byte of hundreds of MB of responses.
func plainRun(body []byte) (int, bool) {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	zero := func(x uint64) uint64 { return (x - ones) & ^x & highs }
	i, high := 0, false
	for i < len(body) {
		if i+8 <= len(body) {
			x := binary.LittleEndian.Uint64(body[i:])
			// bytes < 0x20, '"' and '\\' (bytes >= 0x80 cannot match)
			special := (x-ones*0x20)&^x&highs | zero(x^(ones*'"')) | zero(x^(ones*'\\'))
			if special == 0 {
				if x&highs != 0 {
					high = true
				}
				i += 8
				continue
			}
		}
		c := body[i]
		if c < 0x20 || c == '"' || c == '\\' {
			break
		}
		if c >= 0x80 {
			high = true
		}
		i++
	}
	return i, high
}

// unicodeEscape decodes \uXXXX (and a following low surrogate) at the
// start of b, returning the rune and the bytes used.
func unicodeEscape(b []byte) (rune, int, bool) {
	r, ok := hex4At(b)
	if !ok {
		return 0, 0, false
	}
	if utf16.IsSurrogate(r) {
		if r2, ok := hex4At(b[6:]); ok && len(b) >= 12 && b[6] == '\\' {
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				return d, 12, true
			}
		}
		return utf8.RuneError, 6, true
	}
	return r, 6, true
}

func hex4At(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[2:6]), 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(v), true
}

// mayBeLogLikelihoods tells cheaply whether resps could hold log-likelihood
// pairs ([[[lp, greedy]], ...]): their first scalar is a number or a short
// string. Generation responses (long text) skip the slow check.
func mayBeLogLikelihoods(resps []byte) bool {
	v := bytes.TrimLeft(resps, " \t\r\n[")
	if len(v) == 0 || v[0] != '"' {
		return true
	}
	end := bytes.IndexByte(v[1:], '"')
	return end >= 0 && end < 64
}

// stringList decodes a JSON array of strings (a row's "metrics"); ok is
// false for anything else, which callers hand to encoding/json.
func stringList(raw []byte) ([]string, bool) {
	elems := elements(raw)
	if elems == nil {
		return nil, false
	}
	out := make([]string, len(elems))
	for i, e := range elems {
		s, ok := unquote(e)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// errSlowPath sends pyDumps to the token decoder: input the fast path
// does not handle exactly like it (escaped keys, deep nesting, odd
// literals).
var errSlowPath = errors.New("use the token decoder")

// pyDumpsFast is pyDumps for the common doc (a small object of strings,
// numbers and lists), walking it with jsonl's skimmer: doc_hash is checked
// for every doc while indexing.
func pyDumpsFast(raw []byte, out *bytes.Buffer, depth int) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || depth > 64 {
		return errSlowPath
	}
	indent := func(d int) {
		out.WriteByte('\n')
		for range d {
			out.WriteString("  ")
		}
	}
	switch raw[0] {
	case '{', '[':
		n := 0
		item := func(v []byte) error {
			if n > 0 {
				out.WriteByte(',')
			}
			indent(depth + 1)
			n++
			return pyDumpsFast(v, out, depth+1)
		}
		var err error
		out.WriteByte(raw[0])
		if raw[0] == '{' {
			err = jsonl.Skim(raw, func(f jsonl.Field) error {
				if strings.IndexByte(f.Key, '\\') >= 0 {
					return errSlowPath
				}
				if n > 0 {
					out.WriteByte(',')
				}
				indent(depth + 1)
				n++
				jsonl.WritePyString(out, f.Key)
				out.WriteString(": ")
				return pyDumpsFast(f.Value, out, depth+1)
			})
		} else {
			err = jsonl.EachElement(raw, func(_ int, v []byte) error { return item(v) })
		}
		if err != nil {
			return errSlowPath
		}
		if n > 0 {
			indent(depth)
		}
		out.WriteByte(raw[0] + 2) // '{'+2 is '}', '['+2 is ']'
	case '"':
		s, ok := unquote(raw)
		if !ok {
			return errSlowPath
		}
		jsonl.WritePyString(out, s)
	case 't', 'f', 'n':
		if lit := string(raw); lit != "true" && lit != "false" && lit != "null" {
			return errSlowPath
		}
		out.Write(raw)
	default:
		if _, ok := jsonl.NonFinite(raw); ok {
			// Python's json.dumps writes float('nan') and the infinities
			// as these bare literals, which doc_hash was taken over.
			out.Write(raw)
			return nil
		}
		if !json.Valid(raw) {
			return errSlowPath
		}
		out.WriteString(pyNumber(string(raw)))
	}
	return nil
}

// docEntries is objectEntries through jsonl's skimmer (keys with escapes,
// rare, go to objectEntries, which unescapes them): titleOf runs for every
// doc while indexing.
func docEntries(raw []byte) ([]entry, error) {
	var out []entry
	err := jsonl.Skim(raw, func(f jsonl.Field) error {
		if strings.IndexByte(f.Key, '\\') >= 0 {
			return errSlowPath
		}
		out = append(out, entry{Key: f.Key, Val: f.Value})
		return nil
	})
	if err == errSlowPath {
		return objectEntries(raw)
	}
	return out, err
}

// unquoteInPlace is unquote writing the decoded text over the literal's
// own bytes and returning a string that shares them (no allocation): for
// the repeats of a row of hundreds of MB, which would otherwise be held
// twice, as JSON and as text. Decoding never needs more room than the
// escape it replaces (\n is 2 bytes for 1, \uXXXX 6 for at most 3, a
// surrogate pair 12 for 4), so the write position stays behind the read
// position. The literal is checked whole before any byte is written: ok
// false (anything unquote would refuse, and invalid UTF-8, whose U+FFFD
// takes 3 bytes for 1) leaves raw as it was. raw must be the caller's
// own: it no longer holds the literal afterwards.
func unquoteInPlace(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	escapes := false
	for r := 0; r < len(body); {
		n, high := plainRun(body[r:])
		if high && !utf8.Valid(body[r:r+n]) {
			return "", false
		}
		r += n
		if r == len(body) {
			break
		}
		if body[r] != '\\' || r+1 == len(body) {
			return "", false // a raw quote or control byte, or a lone backslash
		}
		escapes = true
		switch c := body[r+1]; {
		case shortEscapes[c] != 0:
			r += 2
		case c == 'u':
			_, size, ok := unicodeEscape(body[r:])
			if !ok {
				return "", false
			}
			r += size
		default:
			return "", false
		}
	}
	if !escapes {
		if len(body) == 0 {
			return "", true
		}
		return unsafe.String(&body[0], len(body)), true
	}
	w := 0
	for r := 0; r < len(body); {
		n, _ := plainRun(body[r:])
		w += copy(body[w:], body[r:r+n])
		r += n
		if r == len(body) {
			break
		}
		if body[r+1] == 'u' {
			ru, size, _ := unicodeEscape(body[r:]) // read before writing
			r += size
			w += utf8.EncodeRune(body[w:], ru)
			continue
		}
		body[w] = shortEscapes[body[r+1]]
		w, r = w+1, r+2
	}
	if w == 0 {
		return "", true
	}
	return unsafe.String(&body[0], w), true
}
