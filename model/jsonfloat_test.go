package model

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestNonFiniteJSON: summary and export rows holding NaN and infinities
// stay valid JSON, with the documented spellings, and keep their other
// fields and field order.
func TestNonFiniteJSON(t *testing.T) {
	inf, nan, one := math.Inf(1), math.NaN(), 0.5
	p := MetricPair{Samples: &inf, Reported: &nan, Stderr: &one, N: 3}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"n":3,"differs":false,"samples":"Infinity","reported":"NaN","stderr":0.5}`; string(b) != want {
		t.Errorf("pair: %s, want %s", b, want)
	}
	neg := math.Inf(-1)
	row := ExportRow{ID: "1", Score: &neg, Filters: map[string]ExportFilter{"none": {Answer: "a", Metrics: map[string]float64{"mae": inf}}}}
	b, err = json.Marshal(row)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"score":"-Infinity"`, `"metrics":{"mae":"Infinity"}`, `"id":"1"`, `"answer":"a"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("export row %s lacks %s", b, want)
		}
	}
	if strings.Count(string(b), `"score"`) != 1 {
		t.Errorf("score written twice: %s", b)
	}
	if !json.Valid(b) {
		t.Errorf("not valid JSON: %s", b)
	}
	if got := FormatFloat(inf, 4) + FormatFloat(nan, 4) + FormatFloat(neg, 2) + FormatFloat(0.25, 2); got != "infnan-inf0.25" {
		t.Errorf("FormatFloat: %s", got)
	}
}

// TestFormatSignificant: check's differences and the loaders' own
// metric-differs write values with FormatSignificant, and spell the
// non-finite ones exactly as FormatFloat does (as Python prints them).
func TestFormatSignificant(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if a, b := FormatSignificant(f, 6), FormatFloat(f, 4); a != b {
			t.Errorf("%v: FormatSignificant %q, FormatFloat %q", f, a, b)
		}
	}
	for _, c := range []struct {
		f      float64
		digits int
		want   string
	}{
		{0.123456789, 6, "0.123457"}, {1234567, 6, "1.23457e+06"}, {0.5, 6, "0.5"}, {100, 6, "100"},
		{1e-05, -1, "1e-05"}, {0.30000000000000004, -1, "0.30000000000000004"}, {-2, 6, "-2"},
	} {
		if got := FormatSignificant(c.f, c.digits); got != c.want {
			t.Errorf("FormatSignificant(%v, %d) = %q, want %q", c.f, c.digits, got, c.want)
		}
	}
}
