package jsonstr

import (
	"crypto/sha256"
	"encoding/json"
	"strings"
	"testing"
)

// benchTexts are the strings the loaders decode most, as writers spell
// them: model responses in plain ASCII, with a newline every line (the
// lm-eval harness writes ensure_ascii=False), CJK text as it stands, and
// the same text as Python's default json.dumps writes it (every
// character a \u escape).
func benchTexts() []struct {
	name string
	lit  []byte
} {
	prose := strings.Repeat("Natalia sold clips to 48 of her friends in April, and then she sold half as many clips in May. ", 40)
	lines := strings.Repeat("Let's think step by step.\nShe sold 48/2 = 24 clips in May.\n", 60)
	cjk := strings.Repeat("我们一步一步地思考这个问题。答案是四十二。", 80)
	lit := func(s string) []byte { b, _ := json.Marshal(s); return b }
	var ascii strings.Builder
	ascii.WriteByte('"')
	for _, r := range cjk {
		ascii.WriteString(`\u` + hex4String(r))
	}
	ascii.WriteByte('"')
	return []struct {
		name string
		lit  []byte
	}{
		{"ascii", lit(prose)}, {"lines", lit(lines)}, {"cjk", lit(cjk)}, {"u-escaped", []byte(ascii.String())},
	}
}

func hex4String(r rune) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[r>>12&15], digits[r>>8&15], digits[r>>4&15], digits[r&15]})
}

// decoders are what BenchmarkDecode measures: jsonstr appending to a
// reused buffer, and encoding/json; a build with GOEXPERIMENT=jsonv2 adds
// encoding/json/jsontext's AppendUnquote (jsontext_bench_test.go).
var decoders = []struct {
	name string
	fn   func(dst, lit []byte) []byte
}{
	{"jsonstr", func(dst, lit []byte) []byte { out, _, _ := Append(dst, lit, 0); return out }},
	{"encoding-json", func(dst, lit []byte) []byte {
		var s string
		json.Unmarshal(lit, &s)
		return append(dst, s...)
	}},
}

// BenchmarkDecode decodes each text with each decoder into a reused
// buffer (scripts/bench -decoder prints the table).
func BenchmarkDecode(b *testing.B) {
	for _, t := range benchTexts() {
		for _, d := range decoders {
			b.Run(t.name+"/"+d.name, func(b *testing.B) {
				b.SetBytes(int64(len(t.lit)))
				buf := make([]byte, 0, len(t.lit)*2)
				for b.Loop() {
					buf = d.fn(buf[:0], t.lit)
				}
			})
		}
	}
}

// TestBenchDecodersAgree: every decoder measured gives jsonstr's text.
func TestBenchDecodersAgree(t *testing.T) {
	for _, text := range benchTexts() {
		want, ok := Unquote(text.lit)
		if !ok {
			t.Fatalf("%s: not a literal", text.name)
		}
		for _, d := range decoders {
			if got := string(d.fn(nil, text.lit)); got != want {
				t.Errorf("%s: %s gives another text", text.name, d.name)
			}
		}
	}
}

// BenchmarkWriteHash hashes each text as the lm-eval loader checks a
// row's prompt_hash and target_hash: decoded into SHA-256 (Write),
// against decoding it whole first and hashing that.
func BenchmarkWriteHash(b *testing.B) {
	for _, t := range benchTexts() {
		b.Run(t.name+"/write", func(b *testing.B) {
			b.SetBytes(int64(len(t.lit)))
			h := sha256.New()
			for b.Loop() {
				h.Reset()
				Write(h, t.lit)
			}
		})
		b.Run(t.name+"/decode-then-hash", func(b *testing.B) {
			b.SetBytes(int64(len(t.lit)))
			h := sha256.New()
			buf := make([]byte, 0, len(t.lit)*2)
			for b.Loop() {
				h.Reset()
				buf, _, _ = Append(buf[:0], t.lit, 0)
				h.Write(buf)
			}
		})
	}
}
