package model

import "testing"

func TestSummaryAgreement(t *testing.T) {
	row := func(st Status) Outcome { return Outcome{Present: true, Status: st} }
	cases := []struct {
		name     string
		outcomes []Outcome
		want     string
	}{
		{"no filters", nil, ""},
		{"no rows", []Outcome{{}, {}}, ""},
		{"all pass", []Outcome{row(StatusPass), row(StatusPass)}, "pass"},
		{"all fail, one missing", []Outcome{row(StatusFail), {}, row(StatusFail)}, "fail"},
		{"mixed", []Outcome{row(StatusPass), row(StatusFail)}, "mixed"},
		{"unscored counts as its own", []Outcome{row(StatusUnscored), row(StatusPass)}, "mixed"},
		{"one row", []Outcome{{}, row(StatusError)}, StatusError.String()},
	}
	for _, c := range cases {
		s := &Summary{Outcomes: c.outcomes}
		if got := s.Agreement(); got != c.want {
			t.Errorf("%s: Agreement = %q, want %q", c.name, got, c.want)
		}
	}
}
