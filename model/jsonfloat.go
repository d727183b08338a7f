package model

import (
	"encoding/json"
	"math"
	"strconv"
)

// JSON has no NaN or infinity, which lm-eval metrics can be (a regression
// task's mae, a perplexity over a row that overflowed). `summary --json`
// and `export` must stay valid JSON, so they write a non-finite number as
// the JSON string Python's json would have spelled it with: "NaN",
// "Infinity" or "-Infinity" (the convention of protobuf's JSON mapping
// too). Every finite number stays a JSON number.

// JSONNumber returns f as encoding/json should write it: f itself when
// finite, else its string spelling.
func JSONNumber(f float64) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return f
}

// finite reports whether every non-nil value is finite: the JSON writers
// then write their type as encoding/json does, field order included, and
// take the slower path only for NaN and infinities.
func finite(ps ...*float64) bool {
	for _, p := range ps {
		if p != nil && (math.IsNaN(*p) || math.IsInf(*p, 0)) {
			return false
		}
	}
	return true
}

// jsonNumPtr is JSONNumber of *p, nil for nil.
func jsonNumPtr(p *float64) any {
	if p == nil {
		return nil
	}
	return JSONNumber(*p)
}

// FormatFloat formats a metric value for people with prec decimals, and
// a non-finite one as Python prints it: "inf", "-inf", "nan".
func FormatFloat(f float64, prec int) string {
	if s, ok := pyNonFinite(f); ok {
		return s
	}
	return strconv.FormatFloat(f, 'f', prec, 64)
}

// FormatSignificant formats a value for people with at most digits
// significant digits (-1: the fewest that read back as f), and a
// non-finite one as FormatFloat does: how check and the loaders write a
// reported value beside a recomputed one.
func FormatSignificant(f float64, digits int) string {
	if s, ok := pyNonFinite(f); ok {
		return s
	}
	return strconv.FormatFloat(f, 'g', digits, 64)
}

// pyNonFinite spells a non-finite f as Python prints it.
func pyNonFinite(f float64) (string, bool) {
	switch {
	case math.IsNaN(f):
		return "nan", true
	case math.IsInf(f, 1):
		return "inf", true
	case math.IsInf(f, -1):
		return "-inf", true
	}
	return "", false
}

// MarshalJSON writes the pair with non-finite values as strings.
func (p MetricPair) MarshalJSON() ([]byte, error) {
	type plain MetricPair
	if finite(p.Samples, p.Reported, p.Stderr) {
		return json.Marshal(plain(p))
	}
	return json.Marshal(struct {
		plain
		Samples  any `json:"samples"`
		Reported any `json:"reported"`
		Stderr   any `json:"stderr,omitempty"`
	}{plain(p), jsonNumPtr(p.Samples), jsonNumPtr(p.Reported), jsonNumPtr(p.Stderr)})
}

// MarshalJSON writes the filter's metrics with non-finite values as
// strings.
func (f ExportFilter) MarshalJSON() ([]byte, error) {
	type plain ExportFilter
	ok := true
	for _, v := range f.Metrics {
		ok = ok && finite(&v)
	}
	if ok {
		return json.Marshal(plain(f))
	}
	ms := make(map[string]any, len(f.Metrics))
	for k, v := range f.Metrics {
		ms[k] = JSONNumber(v)
	}
	return json.Marshal(struct {
		plain
		Metrics map[string]any `json:"metrics"`
	}{plain(f), ms})
}

// MarshalJSON writes the row with a non-finite score as a string.
func (r ExportRow) MarshalJSON() ([]byte, error) {
	type plain ExportRow
	if finite(append([]*float64{r.Score}, r.AttemptScores...)...) {
		return json.Marshal(plain(r))
	}
	var scores []any
	if r.AttemptScores != nil {
		scores = make([]any, len(r.AttemptScores))
		for i, s := range r.AttemptScores {
			scores[i] = jsonNumPtr(s)
		}
	}
	return json.Marshal(struct {
		plain
		Score         any   `json:"score"`
		AttemptScores []any `json:"attempt_scores,omitempty"`
	}{plain(r), jsonNumPtr(r.Score), scores})
}
