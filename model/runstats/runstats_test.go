package runstats

import (
	"reflect"
	"testing"

	"evalview/model"
)

func sample(cat string, score float64, scored bool, attempts, scoredAttempts int) *model.Record {
	r := &model.Record{}
	r.Summary = model.Summary{Score: score, HasScore: scored, Attempts: attempts, ScoredAttempts: scoredAttempts}
	if cat != "" {
		r.Summary.Labels = model.LabelsOf(map[string]string{"category": cat})
	}
	return r
}

func TestCompute(t *testing.T) {
	ds := &model.Dataset{
		Records: model.NewMemIndex([]*model.Record{
			sample("life", 8.85, true, 2, 2),
			sample("life", 7.7, true, 2, 1),
			sample("", 10, true, 1, 1),
			sample("math", 0, false, 1, 0),
		}),
		Scoring: &model.Scoring{Max: 10, Threshold: 9, Categories: []string{"art", "life"}},
	}
	f := Compute(ds, 0)
	if f.Threshold != 9 || f.Records != 4 || f.Attempts != 6 || f.ScoredAttempts != 4 || f.Scored != 3 || f.Above != 1 {
		t.Errorf("figures = %+v", f)
	}
	if !f.HasMean || f.Mean != Round2((8.85+7.7+10)/3) {
		t.Errorf("mean %v %v", f.Mean, f.HasMean)
	}
	want := []Category{
		{Name: "art"},
		{Name: "life", Mean: Round2((8.85 + 7.7) / 2), Scored: 2, All: 2},
		{Name: NoCategory, Mean: 10, Scored: 1, All: 1, Above: 1},
		{Name: "math", All: 1},
	}
	if !reflect.DeepEqual(f.Categories, want) {
		t.Errorf("categories = %+v", f.Categories)
	}
	if f.Hist[15] != 1 || f.Hist[17] != 1 || f.Hist[19] != 1 {
		t.Errorf("hist = %v", f.Hist)
	}
	st := f.Stats()
	if st.ScoredRecords != 3 || st.AboveThreshold != 1 || st.Threshold != 9 || *st.MeanWeightedScore != f.Mean ||
		!reflect.DeepEqual(st.CategoryMeans, map[string]float64{"life": 8.28, NoCategory: 10}) {
		t.Errorf("stats = %+v", st)
	}
	if st := StatsOf(ds, 7); st.AboveThreshold != 3 || st.Threshold != 7 {
		t.Errorf("at 7: %+v", st)
	}
}

func TestThresholdAndBins(t *testing.T) {
	if Threshold(&model.Dataset{}) != DefaultThreshold || Threshold(nil) != DefaultThreshold || Max(nil) != ScoreMax {
		t.Error("no scoring: want the default threshold and scale")
	}
	if Max(&model.Dataset{Scoring: &model.Scoring{Max: 5}}) != 5 || Bin(4.9, 5) != 19 || Bin(2.5, 5) != 10 {
		t.Error("a 0..5 scale")
	}
	for v, want := range map[float64]int{0: 0, 0.49: 0, 0.5: 1, 8.5: 17, 9.99: 19, 10: 19, 12: 19, -1: 0} {
		if got := Bin(v, ScoreMax); got != want {
			t.Errorf("Bin(%v) = %d, want %d", v, got, want)
		}
	}
	if Round2(1.234) != 1.23 || Round2(1.236) != 1.24 || Round2(8.125) != 8.13 {
		t.Errorf("Round2: %v %v %v", Round2(1.234), Round2(1.236), Round2(8.125))
	}
	empty := &model.Dataset{Records: model.NewMemIndex(nil)}
	if st := StatsOf(empty, 0); st.MeanWeightedScore != nil || st.Records != 0 || len(st.CategoryMeans) != 0 {
		t.Errorf("empty: %+v", st)
	}
}
