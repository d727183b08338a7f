package jsonstr

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// reference decodes lit as encoding/json does: the rule every output here
// follows.
func reference(lit []byte) (string, bool) {
	var s string
	if json.Unmarshal(lit, &s) != nil {
		return "", false
	}
	return s, true
}

// checkLiteral holds every output to encoding/json on lit, a literal
// candidate with nothing around it: Unquote, Append, Share, Check, Write
// and InPlace give encoding/json's text where it decodes lit, and refuse
// lit where it does not.
func checkLiteral(t *testing.T, lit []byte) {
	t.Helper()
	want, wantOK := reference(lit)
	if len(lit) > 0 && lit[0] != '"' {
		want, wantOK = "", false // encoding/json reads past leading space; a literal starts at its quote
	}
	if n := len(lit); n > 0 && wantOK && lit[n-1] != '"' {
		want, wantOK = "", false // nor past trailing space
	}
	got, ok := Unquote(lit)
	if ok != wantOK || got != want {
		t.Fatalf("Unquote(%q) = %q, %v; encoding/json %q, %v", lit, got, ok, want, wantOK)
	}
	out, end, ok := Append([]byte("pre"), lit, 0)
	if wantOK && (!ok || end != len(lit) || string(out) != "pre"+want) {
		t.Fatalf("Append(%q) = %q, %d, %v; want %q", lit, out, end, ok, want)
	}
	if !wantOK && ok && end == len(lit) {
		t.Fatalf("Append(%q) accepted it whole as %q", lit, out)
	}
	text, out2, end2, ok := Share([]byte("pre"), lit, 0)
	if wantOK && (!ok || string(text) != want || end2 != len(lit)) || !wantOK && ok && end2 == len(lit) {
		t.Fatalf("Share(%q) = %q, %v at %d; want %q, %v", lit, text, ok, end2, want, wantOK)
	}
	if ok && !bytes.HasPrefix(out2, []byte("pre")) {
		t.Fatalf("Share(%q) changed what dst held: %q", lit, out2)
	}
	end3, res := Check(lit, 0)
	if (res&Done != 0 && end3 == len(lit)) != wantOK {
		t.Fatalf("Check(%q) = %d, %b; encoding/json ok %v", lit, end3, res, wantOK)
	}
	h := sha256.New()
	if Write(h, lit) != wantOK || wantOK && !bytes.Equal(h.Sum(nil), sum(want)) {
		t.Fatalf("Write(%q) hashed another text than %q (or refused it)", lit, want)
	}
	buf := bytes.Clone(lit)
	got, ok = InPlace(buf)
	switch {
	case !ok && !bytes.Equal(buf, lit):
		t.Fatalf("InPlace(%q) declined but changed the bytes to %q", lit, buf)
	case ok && (!wantOK || got != want):
		t.Fatalf("InPlace(%q) = %q; encoding/json %q, %v", lit, got, want, wantOK)
	case !ok && wantOK && utf8.Valid(lit):
		t.Fatalf("InPlace(%q) declined valid text", lit)
	}
}

func sum(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:] }

// checkPrefix holds Append on b, a literal followed by more bytes: the
// end it finds is where a literal encoding/json reads as the same text
// ends.
func checkPrefix(t *testing.T, b []byte) {
	t.Helper()
	out, end, ok := Append(nil, b, 0)
	if !ok {
		return
	}
	want, wantOK := reference(b[:end])
	if !wantOK || string(out) != want {
		t.Fatalf("Append(%q) = %q up to %d; encoding/json on %q: %q, %v", b, out, end, b[:end], want, wantOK)
	}
}

var cases = []string{
	`""`, `"plain"`, `"a\"b"`, `"back\\slash"`, `"sl\/ash"`, `"\n\t\r\b\f"`,
	`"caf\u00e9"`, `"café"`, `"\ud83d\ude00 smile"`, `"lone \ud83d here"`, `"\udc00"`,
	`"\ud83d\u0041"`, `"\ud83d\ud83d\ude00"`, `"\ud83d\u12"`, `"\uDBFF\uDFFF"`, `"\u0000"`,
	"\"bad \xff utf8\"", "\"cut \xe4\xb8\"", "\"\xe4\xb8\\n\"", "\"\xed\xa0\x80 surrogate bytes\"",
	"\"\xf4\x90\x80\x80 past U+10FFFF\"", "\"\xc0\xaf overlong\"", `"raw` + "\n" + `newline"`,
	`"bad \x escape"`, `"\u12"`, `"\u12g4"`, `"unterminated`, `"inner " quote"`, `"end\\"`,
	`"end\"`, `"我们一步一步"`, `"tab` + "\t" + `raw"`, "\"del \x7f ok\"", `"\`, `"`, ``, `x"`,
	` "lead"`, `"trail" `, `"a" "b"`, `"\u2028\u2029"`,
}

func TestMatchesEncodingJSON(t *testing.T) {
	for _, c := range cases {
		checkLiteral(t, []byte(c))
		checkPrefix(t, []byte(c+`, "next"`))
	}
}

// TestLongRuns: runs of escapes and invalid bytes longer than the 64
// bytes a Write buffers, at every alignment of the eight-byte steps.
func TestLongRuns(t *testing.T) {
	for _, piece := range []string{`\n`, `\u00e9`, `\ud83d\ude00`, "\xff", "\xe4\xb8", "a\xff", "é\\t", "\x80\x80\\\\"} {
		for n := range 70 {
			for pad := range 9 {
				checkLiteral(t, []byte(`"`+strings.Repeat("x", pad)+strings.Repeat(piece, n)+`"`))
			}
		}
	}
}

// TestRandom compares with encoding/json on random literals of every
// length around the eight-byte steps, valid and broken.
func TestRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 8))
	pieces := []string{`\n`, `\"`, `\\`, `\/`, `\t`, `\u0041`, `\u00e9`, `\u4e2d`, `\ud83d\ude00`, `\ud800`, `\udc00x`, `\u0000`,
		"é", "中", "\xff", "\xc3", "\x1f", "\"", `\x`, `\u12`, "a", " ", "The answer is 42.", "\u202e", "\x9b"}
	for range 30000 {
		var b strings.Builder
		b.WriteByte('"')
		for k := rng.IntN(12); k > 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		if rng.IntN(20) > 0 {
			b.WriteByte('"')
		}
		checkLiteral(t, []byte(b.String()))
		checkPrefix(t, []byte(b.String()+`"tail\u0041"`))
	}
}

// TestShareSharesPlainText: a literal without escapes is its own text (no
// copy); one with escapes is decoded after what dst held.
func TestShareSharesPlainText(t *testing.T) {
	b := []byte(`["no escapes here", "one\nescape"]`)
	text, out, end, ok := Share(nil, b, 1)
	if !ok || string(text) != "no escapes here" || &text[0] != &b[2] || len(out) != 0 || b[end] != ',' {
		t.Fatalf("plain: %q %q %d %v", text, out, end, ok)
	}
	dst := make([]byte, 0, 64)
	text, out, end, ok = Share(append(dst, "x"...), b, 20)
	if !ok || string(text) != "one\nescape" || string(out) != "xone\nescape" || b[end] != ']' {
		t.Fatalf("escaped: %q %q %d %v", text, out, end, ok)
	}
}

// TestInPlaceDecodesOverItself: the text shares the literal's bytes.
func TestInPlaceDecodesOverItself(t *testing.T) {
	lit := []byte(`"a\nb\u00e9\ud83d\ude00c"`)
	s, ok := InPlace(lit)
	if !ok || s != "a\nbé😀c" || unsafe.StringData(s) != &lit[1] {
		t.Fatalf("InPlace: %q %v", s, ok)
	}
}

// TestManyInvalidBytesLinear: a long run of alternating invalid and valid
// bytes decodes (each segment starts where the last ended; a walk that
// rescanned the run from each invalid byte would take minutes here).
func TestManyInvalidBytesLinear(t *testing.T) {
	lit := []byte(`"` + strings.Repeat("a\xff", 1<<20) + `"`)
	s, ok := Unquote(lit)
	if !ok || len(s) != 4<<20 || strings.Count(s, "\uFFFD") != 1<<20 {
		t.Fatalf("%d bytes, %v", len(s), ok)
	}
}

// FuzzDecode holds every output to encoding/json on any bytes: as the
// body of a literal, and as bytes after an opening quote.
func FuzzDecode(f *testing.F) {
	for _, c := range cases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		lit := append(append([]byte{'"'}, body...), '"')
		checkLiteral(t, lit)
		checkLiteral(t, body)
		checkPrefix(t, lit)
		checkPrefix(t, append([]byte{'"'}, body...))
	})
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
