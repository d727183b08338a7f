package lmeval

import (
	"unsafe"

	"evalview/loaders/internal/jsonstr"
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

// maxArenaKeep is the largest buffer an arena keeps from doc to doc: a
// doc with longer texts (a 200 MB line) gets a buffer of its own, of the
// resps' size, dropped at the next reset (or drop).
const maxArenaKeep = 8 << 20

// reset forgets the previous doc's texts and makes room for the texts
// of a resps value of size bytes (decoding never makes a text longer).
func (a *textArena) reset(size int) {
	a.drop()
	if cap(a.buf) < size {
		a.buf = make([]byte, 0, size)
	}
	a.buf = a.buf[:0]
}

// drop lets go of a buffer bigger than maxArenaKeep.
func (a *textArena) drop() {
	if cap(a.buf) > maxArenaKeep {
		a.buf = nil
	}
}

// text decodes the JSON string literal v exactly as decodeString does,
// without copying: see textArena.
func (a *textArena) text(v []byte) (string, bool) {
	s, end, ok := a.scanText(v, 0)
	return s, ok && end == len(v)
}

// repeatStrings is repeatTexts for the common resps (a list of strings,
// or of lists of strings), in one pass over the bytes: finding each
// string's end, checking it and decoding it into the arena are the same
// walk (jsonstr's, eight bytes at a time), where jsonl's skimmer, an
// escape search, the JSON checks and the UTF-8 check would each read
// every byte again. ok is false for anything else (other values,
// malformed JSON, [logprob, is_greedy]-like pairs): repeatTextsWith then
// decides, as before.
func (a *textArena) repeatStrings(texts []string, resps []byte) ([]string, bool) {
	return walkStrings(texts, resps, a.scanText)
}

// repeatStringsInPlace is repeatStrings decoding each text over its own
// bytes in resps (jsonstr.InPlace), without an arena: for a row of hundreds
// of MB, whose texts would otherwise be held twice. The caller must own
// resps and not read it as JSON afterwards (even when ok is false: texts
// before the one declined are decoded already).
func repeatStringsInPlace(texts []string, resps []byte) ([]string, bool) {
	return walkStrings(texts, resps, func(b []byte, i int) (string, int, bool) {
		end, ok := stringEnd(b, i)
		if !ok {
			return "", 0, false
		}
		s, ok := jsonstr.InPlace(b[i:end])
		return s, end, ok
	})
}

// walkStrings is repeatStrings with scan decoding the string literal at
// b[i] and returning the offset just past it.
func walkStrings(texts []string, resps []byte, scan func(b []byte, i int) (string, int, bool)) ([]string, bool) {
	i := skipSpace(resps, 0)
	if i >= len(resps) || resps[i] != '[' {
		return texts, false
	}
	allPairs, n := true, 0
	i = skipSpace(resps, i+1)
	if i < len(resps) && resps[i] == ']' {
		return texts, skipSpace(resps, i+1) == len(resps)
	}
	for {
		if i >= len(resps) {
			return texts, false
		}
		switch resps[i] {
		case '"':
			s, end, ok := scan(resps, i)
			if !ok {
				return texts, false
			}
			texts, i, allPairs = append(texts, s), end, false
		case '[':
			k := 0
			i = skipSpace(resps, i+1)
			for i < len(resps) && resps[i] != ']' {
				if k > 0 {
					if resps[i] != ',' {
						return texts, false
					}
					i = skipSpace(resps, i+1)
				}
				if i >= len(resps) || resps[i] != '"' {
					return texts, false
				}
				s, end, ok := scan(resps, i)
				if !ok {
					return texts, false
				}
				texts, i, k = append(texts, s), skipSpace(resps, end), k+1
			}
			if i >= len(resps) {
				return texts, false
			}
			i++
			allPairs = allPairs && k == 2
		default:
			return texts, false
		}
		n++
		i = skipSpace(resps, i)
		if i >= len(resps) {
			return texts, false
		}
		if resps[i] == ']' {
			break
		}
		if resps[i] != ',' {
			return texts, false
		}
		i = skipSpace(resps, i+1)
	}
	if skipSpace(resps, i+1) != len(resps) {
		return texts, false
	}
	// Requests of exactly two strings might be [logprob, is_greedy]
	// pairs spelled as strings; Record tells.
	return texts, !(allPairs && len(texts) > 0)
}

// scanText decodes the JSON string literal at b[i] (its quote) as
// decodeString does and returns the offset just past it: a text without
// escapes is the row's own bytes, one with escapes is decoded into the
// arena.
func (a *textArena) scanText(b []byte, i int) (s string, end int, ok bool) {
	text, buf, end, ok := jsonstr.Share(a.buf, b, i)
	if !ok {
		return "", 0, false
	}
	// When append had to move buf (invalid UTF-8 grows three bytes for
	// one), earlier texts keep the old array alive and unchanged; only
	// this doc's texts are ever in it.
	a.buf = buf
	return unsafe.String(unsafe.SliceData(text), len(text)), end, true
}
