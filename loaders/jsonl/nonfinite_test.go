package jsonl

import (
	"encoding/json"
	"math"
	"testing"
)

// TestNonFinite: Python's NaN and Infinity are rewritten outside strings
// only, quoted (readable by Float) or masked at the same length.
func TestNonFinite(t *testing.T) {
	in := []byte(`{"mae": Infinity, "r": -Infinity, "x": NaN, "s": "NaN and Infinity", "e": "\"NaN", "n": [NaN, 1]}`)
	q, n := QuoteNonFinite(in)
	if n != 4 || !json.Valid(q) {
		t.Fatalf("quoted %d: %s", n, q)
	}
	want := `{"mae": "Infinity", "r": "-Infinity", "x": "NaN", "s": "NaN and Infinity", "e": "\"NaN", "n": ["NaN", 1]}`
	if string(q) != want {
		t.Errorf("quoted\n%s\nwant\n%s", q, want)
	}
	m, n := MaskNonFinite(in)
	if n != 4 || len(m) != len(in) || !json.Valid(m) {
		t.Errorf("masked %d (len %d of %d): %s", n, len(m), len(in), m)
	}
	var got []float64
	_ = Skim(q, func(f Field) error {
		if v, ok := Float(f.Value); ok {
			got = append(got, v)
		}
		return nil
	})
	if len(got) != 3 || !math.IsInf(got[0], 1) || !math.IsInf(got[1], -1) || !math.IsNaN(got[2]) {
		t.Errorf("floats read back: %v", got)
	}
	if v, ok := Float([]byte("Infinity")); !ok || !math.IsInf(v, 1) {
		t.Errorf("bare Infinity: %v %v", v, ok)
	}
	if _, ok := Float([]byte(`"Inf"`)); ok {
		t.Error(`"Inf" is not a spelling Python writes`)
	}
	plain := []byte(`{"a": 1}`)
	if out, n := QuoteNonFinite(plain); n != 0 || &out[0] != &plain[0] {
		t.Error("a document without non-finite numbers is not copied")
	}
}

// TestNonFiniteOnlyWholeTokens: a non-finite word that is part of another
// token is left alone, so that masking never turns invalid JSON into a
// number ("1NaN" into 10.0, "NaNe5" into 0.0e5); found by FuzzParseJSON.
func TestNonFiniteOnlyWholeTokens(t *testing.T) {
	for _, in := range []string{`[1NaN]`, `NaNe5`, `[NaN5]`, `[-NaN]`, `[xInfinity]`, `[Infinity.5]`, `{"a":-Infinityy}`, `[1-Infinity]`} {
		if m, n := MaskNonFinite([]byte(in)); n != 0 || json.Valid(m) {
			t.Errorf("%s: masked %d tokens: %s", in, n, m)
		}
		if _, n := QuoteNonFinite([]byte(in)); n != 0 {
			t.Errorf("%s: quoted %d tokens", in, n)
		}
	}
	for _, in := range []string{`NaN`, `[NaN,Infinity,-Infinity]`, "{\"a\":\tNaN\n}", `[ -Infinity ]`} {
		if m, n := MaskNonFinite([]byte(in)); n == 0 || !json.Valid(m) {
			t.Errorf("%s: masked %d tokens: %s", in, n, m)
		}
	}
}
