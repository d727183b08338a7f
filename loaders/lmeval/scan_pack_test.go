package lmeval

import (
	"reflect"
	"strconv"
	"testing"

	"evalview/model"
)

// TestPackKeepsSummaries packs a scan's summaries and reads each back:
// the same model.Summary as before packing, found again by its doc_id.
func TestPackKeepsSummaries(t *testing.T) {
	s := newScanned("x.jsonl", nil)
	s.filters = []string{"strict-match", "flexible-extract"}
	want := make([]model.Summary, 0, 5)
	for i := 0; i < 5; i++ {
		outs := []model.Outcome{
			{Answer: strconv.Itoa(i), Present: true, Score: float64(i % 2), HasScore: true, Status: model.StatusPass + model.Status(i%2),
				Metrics: []model.MetricValue{{Name: "exact_match", Value: float64(i % 2)}}},
			{Answer: "[invalid]", Present: i != 3},
		}
		sum := model.Summary{
			ID: strconv.Itoa(10 - i), Title: "question " + strconv.Itoa(i),
			Labels:   model.NewLabels("target", strconv.Itoa(i)),
			Outcomes: outs, Attempts: i + 1, Errors: i % 2, Warnings: i, Line: 3*i + 1,
			Status: outs[0].Status, Score: outs[0].Score, HasScore: true,
		}
		want = append(want, sum)
		s.sums = append(s.sums, sum)
		s.docs[sum.ID] = i
	}
	s.pack()
	if s.sums != nil || s.docs != nil || s.count() != len(want) {
		t.Fatalf("after pack: sums %v, docs %v, count %d", s.sums, s.docs, s.count())
	}
	for i, w := range want {
		if got := s.summary(i); !reflect.DeepEqual(got, w) {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, got, w)
		}
		if j, ok := s.recordOf(w.ID); !ok || j != i {
			t.Errorf("recordOf(%q) = %d, %v; want %d", w.ID, j, ok, i)
		}
	}
	if _, ok := s.recordOf("11"); ok {
		t.Error("recordOf found a doc_id no record has")
	}
	s.addWarnings(2, 3)
	if got := s.summary(2).Warnings; got != want[2].Warnings+3 {
		t.Errorf("warnings after addWarnings: %d, want %d", got, want[2].Warnings+3)
	}
	// A reader appending to a record's outcomes leaves the next record's.
	_ = append(s.summary(0).Outcomes, model.Outcome{Answer: "appended"})
	if got := s.summary(1).Outcomes[0].Answer; got != "1" {
		t.Errorf("record 1's first answer is %q after an append to record 0's", got)
	}
}
