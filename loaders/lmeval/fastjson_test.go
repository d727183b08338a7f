package lmeval

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestUnquoteMatchesEncodingJSON: the fast string decoder agrees with
// encoding/json on what it accepts and what it returns.
func TestUnquoteMatchesEncodingJSON(t *testing.T) {
	cases := []string{
		`""`, `"plain"`, `"a\"b"`, `"back\\slash"`, `"sl\/ash"`, `"\n\t\r\b\f"`,
		`"caf\u00e9"`, `"café"`, `"\ud83d\ude00 smile"`, `"lone \ud83d here"`, `"\udc00"`,
		"\"bad \xff utf8\"", `"raw` + "\n" + `newline"`, `"bad \x escape"`, `"\u12"`,
		`"unterminated`, `"inner " quote"`, `"end\\"`, `"我们一步一步"`,
	}
	for _, c := range cases {
		var want string
		werr := json.Unmarshal([]byte(c), &want)
		got, ok := unquote([]byte(c))
		if ok != (werr == nil) {
			t.Errorf("%q: ok=%v, encoding/json error %v", c, ok, werr)
			continue
		}
		if ok && got != want {
			t.Errorf("%q: got %q, want %q", c, got, want)
		}
	}
}

func TestElements(t *testing.T) {
	if e := elements([]byte(`[]`)); e == nil || len(e) != 0 {
		t.Errorf("[] gives %v, want an empty non-nil list", e)
	}
	if e := elements([]byte(`"x"`)); e != nil {
		t.Errorf("a string gives %v, want nil", e)
	}
	if e := elements([]byte(`[["a", "b"], 1]`)); len(e) != 2 || string(e[0]) != `["a", "b"]` {
		t.Errorf("got %q", e)
	}
}

// TestUnquoteRandom compares with encoding/json on random strings of
// every length around the eight-byte steps, valid and broken.
func TestUnquoteRandom(t *testing.T) {
	alphabet := []rune("ab \"\\\n\t/é我\u0001\u007f\u2028😀")
	seed := uint32(1)
	next := func(n int) int { seed = seed*1664525 + 1013904223; return int(seed>>8) % n }
	for i := 0; i < 3000; i++ {
		var r []rune
		for n := next(40); n > 0; n-- {
			r = append(r, alphabet[next(len(alphabet))])
		}
		raw, _ := json.Marshal(string(r))
		if i%3 == 0 && len(raw) > 2 { // break it: a raw control byte or quote
			k := 1 + next(len(raw)-2)
			raw = append(append(append([]byte{}, raw[:k]...), []byte{"\n\"\x00"[next(3)]}...), raw[k:]...)
		}
		var want string
		werr := json.Unmarshal(raw, &want)
		got, ok := unquote(raw)
		if ok != (werr == nil) || ok && got != want {
			t.Fatalf("%q: got %q ok=%v, encoding/json %q err %v", raw, got, ok, want, werr)
		}
	}
}

// TestPyDumpsFastMatchesTokens: the skimming pyDumps writes what the
// token decoder does, or declines.
func TestPyDumpsFastMatchesTokens(t *testing.T) {
	cases := []string{
		`{"question": "How many?\nTwo.", "answer": "#### 2", "n": 3, "f": 1.50, "e": 1e3, "l": [1, "a", [], {}], "t": true, "x": null}`,
		`{"caf\u00e9": "é", "k": {"nested": {"deep": [1.0, -0.0, 2E-2]}}}`,
		`[]`, `{}`, `"s"`, `12345678901234567890`, `{"a": [ ] , "b" : { } }`,
		`{"esc\"key": 1}`, `{"bad": tru}`, `{"a": 1,}`, `{"dup": 1, "dup": 2}`,
	}
	for i, c := range cases {
		var fast bytes.Buffer
		ferr := pyDumpsFast([]byte(c), &fast, 0)
		if i < 7 && i != 1 && ferr != nil { // case 1 has an escaped key
			t.Errorf("%s: the fast path declined: %v", c, ferr)
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(c)))
		dec.UseNumber()
		var slow bytes.Buffer
		serr := pyValue(dec, &slow, 0)
		if ferr == nil && (serr != nil || fast.String() != slow.String()) {
			t.Errorf("%s:\nfast %q\nslow %q (%v)", c, fast.String(), slow.String(), serr)
		}
	}
}

// TestPlainRunMatchesNaive: plainRun's eight-byte steps stop at the same
// byte, and see the same non-ASCII bytes, as a byte-by-byte scan.
func TestPlainRunMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	alphabet := []byte{'a', ' ', '"', '\\', 0x00, 0x1f, 0x20, 0x7f, 0x80, 0xa0, 0xff, 0xc3, 'z', '!'}
	for range 20000 {
		b := make([]byte, rng.IntN(40))
		for k := range b {
			b[k] = 'a'
			if rng.IntN(6) == 0 {
				b[k] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		want, wantHigh := 0, false
		for want < len(b) && b[want] >= 0x20 && b[want] != '"' && b[want] != '\\' {
			wantHigh = wantHigh || b[want] >= 0x80
			want++
		}
		if got, high := plainRun(b); got != want || high != wantHigh {
			t.Fatalf("plainRun(%q) = %d, %v; want %d, %v", b, got, high, want, wantHigh)
		}
	}
}

// TestUnquoteInPlaceMatchesUnquote: decoding over the literal's own bytes
// gives unquote's text wherever it answers, answers for plain and escaped
// valid text, and leaves the bytes untouched where it does not.
func TestUnquoteInPlaceMatchesUnquote(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 8))
	pieces := []string{`\n`, `\"`, `\\`, `\/`, `\t`, `\u0041`, `\u00e9`, `\u4e2d`, `\ud83d\ude00`, `\ud800`, `\udc00x`, `\u0000`,
		"é", "中", "\xff", "\xc3", "\x1f", "\"", `\x`, `\u12`, "a", " ", "The answer is 42."}
	answered := 0
	for range 20000 {
		var b strings.Builder
		b.WriteByte('"')
		for k := rng.IntN(10); k > 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		if rng.IntN(20) > 0 {
			b.WriteByte('"')
		}
		lit := b.String()
		want, wantOK := unquote([]byte(lit))
		buf := []byte(lit)
		got, ok := unquoteInPlace(buf)
		if !ok {
			if string(buf) != lit {
				t.Fatalf("%q: declined but changed the bytes to %q", lit, buf)
			}
			if wantOK && utf8.ValidString(lit) {
				t.Errorf("%q: declined valid text unquote decodes", lit)
			}
			continue
		}
		answered++
		if !wantOK || got != want {
			t.Fatalf("%q: in place %q (ok), unquote %q (%v)", lit, got, want, wantOK)
		}
	}
	if answered < 5000 {
		t.Fatalf("only %d literals decoded in place", answered)
	}
}

// FuzzUnquoteInPlace: in place or not, the same text; declined, the
// bytes untouched.
func FuzzUnquoteInPlace(f *testing.F) {
	f.Add(`"a\nb\u00e9\ud83d\ude00"`)
	f.Add(`"plain"`)
	f.Fuzz(func(t *testing.T, lit string) {
		want, wantOK := unquote([]byte(lit))
		buf := []byte(lit)
		got, ok := unquoteInPlace(buf)
		switch {
		case !ok && string(buf) != lit:
			t.Fatalf("%q: declined but changed the bytes to %q", lit, buf)
		case ok && (!wantOK || got != want):
			t.Fatalf("%q: in place %q, unquote %q (%v)", lit, got, want, wantOK)
		}
	})
}

// TestPyDumpsNonFinite: a doc holding NaN or an infinity is dumped as
// Python's json.dumps(doc, indent=2) writes it, so that its doc_hash is
// checked rather than skipped (issue 14). The hash is Python's.
func TestPyDumpsNonFinite(t *testing.T) {
	raw := []byte(`{"x": NaN, "y": [Infinity, -Infinity], "label": 1}`)
	got, err := pyDumps(raw)
	want := "{\n  \"x\": NaN,\n  \"y\": [\n    Infinity,\n    -Infinity\n  ],\n  \"label\": 1\n}"
	if err != nil || string(got) != want {
		t.Fatalf("pyDumps: %q, %v; want %q", got, err, want)
	}
	// hashlib.sha256(json.dumps({"x": float("nan"), "y": [float("inf"),
	// -float("inf")], "label": 1}, indent=2, ensure_ascii=False).encode())
	if h := sha256Hex(got); h != "fbdbfbce3bfab823b51c99d3a6db4512e3af6dc9873d58092d52c290b89dad33" {
		t.Errorf("sha256 %s", h)
	}
}
