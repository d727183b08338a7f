package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readers gives the same bytes whole, one byte per read, and in odd
// chunks: every byte is a buffer boundary for the one-byte reader.
func readers(data []byte) map[string]io.Reader {
	return map[string]io.Reader{
		"whole":    bytes.NewReader(data),
		"one byte": iotest.OneByteReader(bytes.NewReader(data)),
		"halves":   iotest.HalfReader(bytes.NewReader(data)),
	}
}

var tricky = []string{
	`"plain"`,
	`"a \"quoted\" word"`,
	`"ends in a backslash \\"`,
	`"two \\\\ and a quote \\\" inside"`,
	`"\\\\\\\\"`,
	`"\u00e9 \n \t \/ \b"`,
	`{"a": "}", "b": ["]", "\"]"], "c": {"d": "{\\"}}`,
	`[1, -2.5e3, true, null, NaN, -Infinity, "x\\\\", {"k": [[], {}]}]`,
	`{"events": [` + strings.Repeat(`{"event":"info","data":"line\none \"q\" \\ end"},`, 50) + `{}]}`,
}

// TestCapture: each value is captured whole, and the same, however the
// bytes arrive.
func TestCapture(t *testing.T) {
	for _, doc := range tricky {
		for name, r := range readers([]byte(doc + " ,")) {
			sc := New(r)
			raw, cut, err := sc.Capture(1 << 20)
			if err != nil || cut || string(raw) != doc {
				t.Errorf("%s: Capture(%s) = %s, %v, %v", name, doc, raw, cut, err)
			}
			if sc.Offset() != int64(len(doc)) {
				t.Errorf("%s: offset %d after %s", name, sc.Offset(), doc)
			}
		}
	}
}

// TestUnclosed: a string or container the data ends inside is an error,
// not a value.
func TestUnclosed(t *testing.T) {
	for _, doc := range []string{`"abc`, `"abc\"`, `"abc\`, `{"a": "}`, `[1, "\\\"]`, `{"a": [`} {
		for name, r := range readers([]byte(doc)) {
			if n, err := New(r).Len(); err == nil {
				t.Errorf("%s: %s read as a value of %d bytes", name, doc, n)
			}
		}
	}
}

// FuzzCapture: on any bytes the scanner gives the same answer whether
// they arrive whole or one by one, and captures a valid JSON value whole.
func FuzzCapture(f *testing.F) {
	for _, doc := range tricky {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		raw1, cut1, err1 := New(bytes.NewReader(data)).Capture(1 << 20)
		raw2, cut2, err2 := New(iotest.OneByteReader(bytes.NewReader(data))).Capture(1 << 20)
		if !bytes.Equal(raw1, raw2) || cut1 != cut2 || (err1 == nil) != (err2 == nil) {
			t.Fatalf("whole: %q %v %v; one byte: %q %v %v", raw1, cut1, err1, raw2, cut2, err2)
		}
		if json.Valid(data) && (err1 != nil || !bytes.Equal(raw1, bytes.TrimSpace(data))) {
			t.Fatalf("valid JSON %q captured as %q, %v", data, raw1, err1)
		}
	})
}

// TestObjectKeysDecodedAsEncodingJSON: keys are decoded by jsonstr, with
// encoding/json's rules: invalid UTF-8 becomes U+FFFD (the old fast path
// kept the raw bytes, so a key of an Inspect log could differ from what
// every other reader of the file sees), escapes are decoded.
func TestObjectKeysDecodedAsEncodingJSON(t *testing.T) {
	doc := "{\"a\xff\": 1, \"caf\\u00e9\": 2, \"\\ud83d\": 3, \"plain\": 4}"
	var want map[string]int
	if err := json.Unmarshal([]byte(doc), &want); err != nil {
		t.Fatal(err)
	}
	var got []string
	sc := New(strings.NewReader(doc))
	err := sc.Object(func(key string) error {
		got = append(got, key)
		return sc.Skip()
	})
	if err != nil || len(got) != len(want) {
		t.Fatalf("keys %q, %v; want those of %v", got, err, want)
	}
	for _, k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("key %q is not one encoding/json reads (%v)", k, want)
		}
	}
}

// TestBracketKinds: a value that closes an array with a brace (or an
// object with a bracket) is an error at that byte, however deep, not a
// value that ends further on.
func TestBracketKinds(t *testing.T) {
	deep := strings.Repeat("[", 100) + strings.Repeat("]", 99) + "}"
	for doc, at := range map[string]int64{
		`[{"a": [1}, {"b": 2}]`: 9,
		`{"a": {"b": 1]}`:       13,
		`[[[]]}`:                5,
		`{"s": "]}", "t": [}`:   18,
		deep:                    199,
	} {
		for name, r := range readers([]byte(doc)) {
			_, err := New(r).Len()
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset != at {
				t.Errorf("%s: %.40s: %v, want a syntax error at byte %d", name, doc, err, at)
			}
		}
	}
	for _, doc := range []string{`[{"a": [1]}, {"b": {}}]`, strings.Repeat("[{\"k\":", 70) + "1" + strings.Repeat("}]", 70)} {
		if n, err := New(strings.NewReader(doc)).Len(); err != nil || n != int64(len(doc)) {
			t.Errorf("%.40s: %d, %v", doc, n, err)
		}
	}
}

// BenchmarkSkip skips a transcript-like array of objects (strings,
// nested objects and arrays): most of what a loader walks past.
func BenchmarkSkip(b *testing.B) {
	var doc strings.Builder
	doc.WriteString("[")
	for i := range 20_000 {
		if i > 0 {
			doc.WriteString(",")
		}
		doc.WriteString(`{"event": "model", "input": [{"role": "user", "content": "what is \"2\" + 2?"}], "output": {"choices": [{"message": {"content": "4"}}], "usage": {"in": 12, "out": 1}}, "scores": [1, 0.5, null, true]}`)
	}
	doc.WriteString("]")
	data := []byte(doc.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := New(bytes.NewReader(data)).Skip(); err != nil {
			b.Fatal(err)
		}
	}
}
