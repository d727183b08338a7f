package model

import (
	"testing"
	"unsafe"
)

func TestIssueString(t *testing.T) {
	cases := []struct {
		is   Issue
		want string
	}{
		{Errorf("bad-json", "a.jsonl", 3, "", "line is not JSON"), "a.jsonl:3: error: line is not JSON"},
		{Warnf("x", "run.zip!samples/1.json", 0, "7", "odd"), "run.zip!samples/1.json: warning: [7] odd"},
		{Issue{Severity: SeverityError, File: "f", Line: 2, Record: "r", Message: "m", Path: "$.a"}, "f:2: error: [r] m (at $.a)"},
	}
	for _, c := range cases {
		if got := c.is.String(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestRecomputeMetrics(t *testing.T) {
	mv := func(v float64) []MetricValue { return []MetricValue{{Name: "acc", Value: v}} }
	recs := []*Record{
		{Summary: Summary{ID: "0", Outcomes: []Outcome{{Present: true, Metrics: mv(1)}, {Present: true, Metrics: mv(0)}}}},
		{Summary: Summary{ID: "1", Outcomes: []Outcome{{Present: true, Metrics: mv(0)}, {}}}},
	}
	d := &Dataset{Filters: []string{"a", "b"}, Records: NewMemIndex(recs),
		Metrics: []Metric{{Filter: "b", Name: "acc", Value: 0.5, Stderr: 0.1, HasStderr: true}}}
	got := RecomputeMetrics(d)
	if len(got) != 2 {
		t.Fatalf("%d comparisons: %+v", len(got), got)
	}
	// Reported metrics come first; b has one row, with acc 0, against 0.5.
	if b := got[0]; b.Filter != "b" || b.Samples != 0 || b.N != 1 || !b.Differs() || !b.HasStderr {
		t.Errorf("b = %+v", b)
	}
	if a := got[1]; a.Filter != "a" || a.Samples != 0.5 || a.N != 2 || a.HasReport || a.Differs() {
		t.Errorf("a = %+v", a)
	}
	r := Report(d)
	if r.Records != 2 || r.Metrics["a"]["acc"].Reported != nil || *r.Metrics["b"]["acc"].Reported != 0.5 {
		t.Errorf("report = %+v", r)
	}
}

func TestStatusRoundTrip(t *testing.T) {
	for _, s := range []Status{StatusUnscored, StatusPass, StatusFail, StatusError} {
		if got, ok := ParseStatus(s.String()); !ok || got != s {
			t.Errorf("%v did not round-trip", s)
		}
	}
	if _, ok := ParseStatus("maybe"); ok {
		t.Error("unknown status accepted")
	}
}

// TestOutcomeValues: values set are read back, none leaves no pointer,
// and the struct keeps the size an index's memory counts on (issue 17).
func TestOutcomeValues(t *testing.T) {
	var o Outcome
	if o.Values() != nil {
		t.Fatalf("zero outcome has values %v", o.Values())
	}
	vs := []RowValue{{Name: "f1", Labels: []string{"1", "0"}, Text: "[1, 0]"}}
	o.SetValues(vs)
	if got := o.Values(); len(got) != 1 || got[0].Name != "f1" || got[0].Labels[1] != "0" {
		t.Errorf("Values() = %v after SetValues(%v)", got, vs)
	}
	o.SetValues([]RowValue{})
	if o.values != nil {
		t.Error("SetValues of none kept a pointer")
	}
	if size := unsafe.Sizeof(Outcome{}); size != 64 {
		t.Errorf("Outcome takes %d bytes, not 64: an index holds one per record and filter", size)
	}
}
