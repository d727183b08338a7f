package jsonl

import (
	"bytes"
	"math"
)

// Python's json module writes NaN, Infinity and -Infinity for non-finite
// floats (allow_nan=True is its default), and lm-eval does for real
// metrics: a regression task's mae, a perplexity, a results file's mean
// over a row that held one. They are not JSON, so encoding/json refuses
// the whole document; evalview reads them as Python's json.loads does.

// NonFinite reads one of Python's three non-finite tokens; ok is false
// for anything else.
func NonFinite(raw []byte) (float64, bool) {
	switch string(bytes.TrimSpace(raw)) {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	return 0, false
}

// HasNonFinite reports whether data may hold a non-finite token outside
// strings: a cheap test before rewriting (a string saying "NaN" makes it
// true too; the rewrite then changes nothing).
func HasNonFinite(data []byte) bool {
	return bytes.Contains(data, []byte("NaN")) || bytes.Contains(data, []byte("Infinity"))
}

// QuoteNonFinite returns data with every non-finite token outside strings
// written as a JSON string ("NaN", "Infinity", "-Infinity"), so that
// encoding/json accepts the document, and how many it rewrote. Readers of
// numbers that accept those three strings (Float, NonFiniteString) get the
// values back. data is not modified; with nothing to rewrite it is
// returned as is.
func QuoteNonFinite(data []byte) ([]byte, int) {
	return rewriteNonFinite(data, func(out []byte, tok string) []byte {
		return append(append(append(out, '"'), tok...), '"')
	})
}

// MaskNonFinite returns a copy of data of the same length where every
// non-finite token outside strings is a JSON number of its length (NaN
// 0.0, Infinity 0.000000, -Infinity -0.000000): for a decoder that only
// finds where values start and end, so that offsets into data stay right.
func MaskNonFinite(data []byte) ([]byte, int) {
	return rewriteNonFinite(data, func(out []byte, tok string) []byte {
		switch tok {
		case "NaN":
			return append(out, "0.0"...)
		case "Infinity":
			return append(out, "0.000000"...)
		}
		return append(out, "-0.000000"...)
	})
}

// rewriteNonFinite copies data, passing each non-finite token outside
// strings to put.
func rewriteNonFinite(data []byte, put func(out []byte, tok string) []byte) ([]byte, int) {
	if !HasNonFinite(data) {
		return data, 0
	}
	var out []byte
	n, last := 0, 0
	inStr := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
			continue
		}
		tok := ""
		switch {
		case c == 'N' && bytes.HasPrefix(data[i:], []byte("NaN")):
			tok = "NaN"
		case c == 'I' && bytes.HasPrefix(data[i:], []byte("Infinity")):
			tok = "Infinity"
		case c == '-' && bytes.HasPrefix(data[i:], []byte("-Infinity")):
			tok = "-Infinity"
		}
		if tok == "" || (i > 0 && tokenByte(data[i-1])) || (i+len(tok) < len(data) && tokenByte(data[i+len(tok)])) {
			// Not a token of its own: "1NaN" or "NaNe5" would read as
			// the numbers 10.0 and 0.0e5 once masked.
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(data)+16)
		}
		out = put(append(out, data[last:i]...), tok)
		i += len(tok) - 1
		last = i + 1
		n++
	}
	if n == 0 {
		return data, 0
	}
	return append(out, data[last:]...), n
}

// tokenByte reports whether c may continue a bare token (a number, a
// literal): a non-finite token next to one is part of something else.
func tokenByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '+' || c == '-' || c == '_'
}

// NonFiniteString reads the strings QuoteNonFinite writes ("NaN",
// "Infinity", "-Infinity", quotes included); ok is false for anything
// else.
func NonFiniteString(raw []byte) (float64, bool) {
	t := bytes.TrimSpace(raw)
	if len(t) < 5 || t[0] != '"' || t[len(t)-1] != '"' {
		return 0, false
	}
	return NonFinite(t[1 : len(t)-1])
}
