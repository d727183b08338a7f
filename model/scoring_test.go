package model

import (
	"math"
	"testing"
)

func TestStatusAt(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		st       Status
		score    float64
		hasScore bool
		t        float64
		want     Status
	}{
		{StatusPass, 8.85, true, 9, StatusFail}, // raised over it: no longer a pass
		{StatusFail, 7.7, true, 7.5, StatusPass},
		{StatusPass, 8.5, true, 8.5, StatusPass}, // at the threshold passes, as the site's minScore
		{StatusFail, 3, true, 0, StatusPass},     // 0 is a threshold, not "the default"
		{StatusError, 9.5, true, 1, StatusError}, // an error stays one
		{StatusUnscored, 0, false, 1, StatusUnscored},
		{StatusFail, 0, false, 0, StatusFail}, // no score: nothing to decide again
		{StatusPass, nan, true, 1, StatusPass},
	} {
		if got := StatusAt(c.st, c.score, c.hasScore, c.t); got != c.want {
			t.Errorf("StatusAt(%v, %v, %v, %v) = %v, want %v", c.st, c.score, c.hasScore, c.t, got, c.want)
		}
	}
}

func TestScoringRecordAt(t *testing.T) {
	r := &Record{Summary: Summary{ID: "1", Status: StatusPass, Score: 8.85, HasScore: true},
		Attempts: []Attempt{
			{Index: 1, Status: StatusPass, Weighted: 9.35, HasWeighted: true},
			{Index: 2, Status: StatusFail, Weighted: 8.35, HasWeighted: true},
			{Index: 3, Status: StatusError},
		}}
	var none *Scoring
	if got := none.RecordAt(r, 9); got != r {
		t.Fatal("a dataset without Scoring: the record itself")
	}
	sc := &Scoring{Max: 10, Threshold: 8.5}
	got := sc.RecordAt(r, 9)
	if got.Status != StatusFail {
		t.Errorf("record at 9: %v, want fail", got.Status)
	}
	want := []Status{StatusPass, StatusFail, StatusError}
	for i, a := range got.Attempts {
		if a.Status != want[i] {
			t.Errorf("attempt %d at 9: %v, want %v", i+1, a.Status, want[i])
		}
	}
	got = sc.RecordAt(r, 8)
	if got.Status != StatusPass || got.Attempts[1].Status != StatusPass {
		t.Errorf("at 8: record %v, attempt 2 %v; want both pass", got.Status, got.Attempts[1].Status)
	}
	if r.Status != StatusPass || r.Attempts[1].Status != StatusFail {
		t.Error("RecordAt changed the record it was given")
	}
	s := Summary{Status: StatusPass, Score: 8.6, HasScore: true,
		Outcomes: []Outcome{{Present: true, Status: StatusPass, Score: 8.6, HasScore: true}}}
	at := sc.SummaryAt(s, 9)
	if at.Status != StatusFail || at.Outcome(0).Status != StatusFail || s.Outcomes[0].Status != StatusPass {
		t.Errorf("SummaryAt(9): %v, outcome %v; the given outcome %v must stay pass", at.Status, at.Outcome(0).Status, s.Outcomes[0].Status)
	}
}
