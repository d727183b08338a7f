package lmeval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"

	"evalview/loaders/internal/jsonstr"
)

// Fast paths for what indexing does to every row or doc besides splitting
// it: counting the repeats, reading metric values and answers, hashing
// the prompt. Each handles the common shape exactly as the general code
// does and reports ok=false for anything else, which then takes the
// general (encoding/json) path. At 1 GB/s these small costs add up:
// encoding/json's reflection and validation, and copies of few-KB prompts,
// were a fifth of the index's CPU time.

// countRepeats counts the strings of resps shaped [["r1", "r2", ...]] (a
// generation request's repeats) in one pass; attemptCount's general path
// walks resps three times. ok is false for any other shape.
func countRepeats(resps []byte) (int, bool) {
	i := skipSpace(resps, 0)
	if i >= len(resps) || resps[i] != '[' {
		return 0, false
	}
	i = skipSpace(resps, i+1)
	if i >= len(resps) || resps[i] != '[' {
		return 0, false
	}
	n := 0
	for {
		i = skipSpace(resps, i+1)
		if i >= len(resps) || resps[i] != '"' {
			return 0, false // not a string (or an empty list): general path
		}
		end, ok := stringEnd(resps, i)
		if !ok {
			return 0, false
		}
		n++
		i = skipSpace(resps, end)
		if i >= len(resps) {
			return 0, false
		}
		if resps[i] == ']' {
			break
		}
		if resps[i] != ',' {
			return 0, false
		}
	}
	i = skipSpace(resps, i+1)
	if i >= len(resps) || resps[i] != ']' || skipSpace(resps, i+1) != len(resps) {
		return 0, false // more requests than one, or trailing bytes
	}
	return n, true
}

// stringEnd returns the offset just past the JSON string starting at
// b[i] (its quote), as jsonl's skimmer finds it.
func stringEnd(b []byte, i int) (int, bool) {
	i++
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return 0, false
		}
		q := i + j
		bs := 0 // an odd run of backslashes before the quote escapes it
		for k := q - 1; k >= i && b[k] == '\\'; k-- {
			bs++
		}
		i = q + 1
		if bs%2 == 0 {
			return i, true
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// fastNumber reads a plain JSON number literal (no quotes) exactly as
// encoding/json would into a float64; ok is false for anything else.
func fastNumber(raw []byte) (float64, bool) {
	if !isJSONNumber(raw) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return f, err == nil
}

// isJSONNumber checks the JSON number grammar, which is stricter than
// strconv's (no "+1", ".5", "1.", "inf", hex or underscores).
func isJSONNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i - start
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}

// stringAnswers renders filtered_resps that is a list of strings (["18"])
// as answerText does; ok is false for other shapes.
func stringAnswers(raw []byte) (string, bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return "", false
	}
	var parts []string
	for {
		i = skipSpace(raw, i+1)
		if i >= len(raw) || raw[i] != '"' {
			return "", false
		}
		end, ok := stringEnd(raw, i)
		if !ok {
			return "", false
		}
		s, ok := jsonstr.Unquote(raw[i:end])
		if !ok {
			return "", false
		}
		parts = append(parts, s)
		i = skipSpace(raw, end)
		if i >= len(raw) {
			return "", false
		}
		if raw[i] == ']' {
			break
		}
		if raw[i] != ',' {
			return "", false
		}
	}
	if skipSpace(raw, i+1) != len(raw) {
		return "", false
	}
	if len(parts) == 1 {
		return parts[0], true
	}
	return strings.Join(parts, " | "), true
}

// oneString reports whether raw is a list of exactly one JSON string.
func oneString(raw []byte) bool {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return false
	}
	i = skipSpace(raw, i+1)
	if i >= len(raw) || raw[i] != '"' {
		return false
	}
	end, ok := stringEnd(raw, i)
	if !ok {
		return false
	}
	i = skipSpace(raw, end)
	return i < len(raw) && raw[i] == ']' && skipSpace(raw, i+1) == len(raw)
}

// hashString returns the hex sha256 of the JSON string literal raw's
// decoded text, as sha256Hex of its decoded text would. ok is false when
// raw is not a well-formed string literal. The text is decoded into a
// pooled buffer and hashed whole: written to the hash run by run between
// escapes (a prompt's every line ends in \n), SHA-256's per-call cost
// took more than the hashing (BenchmarkWriteHash in jsonstr: 1.1 GB/s
// against 0.75 on lines). A literal over hashWholeMax is written run by
// run all the same, rather than copied.
func hashString(raw []byte) (string, bool) {
	var sum [sha256.Size]byte
	if len(raw) > hashWholeMax {
		h := sha256.New()
		if !jsonstr.Write(h, raw) {
			return "", false
		}
		return hex.EncodeToString(h.Sum(sum[:0])), true
	}
	bp := hashBufs.Get().(*[]byte)
	text, end, ok := jsonstr.Append((*bp)[:0], raw, 0)
	if ok = ok && end == len(raw); ok {
		sum = sha256.Sum256(text)
	}
	if cap(text) <= hashBufKeep {
		*bp = text[:0]
		hashBufs.Put(bp)
	}
	if !ok {
		return "", false
	}
	return hex.EncodeToString(sum[:]), true
}

// hashWholeMax is the longest literal hashString decodes whole;
// hashBufKeep the biggest buffer it gives back to hashBufs.
const (
	hashWholeMax = 1 << 20
	hashBufKeep  = 64 << 10
)

var hashBufs = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}
