package overview

import (
	"testing"

	"evalview/model"
)

// scoredRun is a run-like dataset: records scored on a judge's scale,
// the generation summary's counters as metrics, and mean of its scores
// 8.44 the site's way.
func scoredRun(scores []float64, metrics []model.Metric, recomputed []model.MetricComparison) *model.Dataset {
	var recs []*model.Record
	for _, s := range scores {
		recs = append(recs, &model.Record{Summary: model.Summary{Score: s, HasScore: true, Attempts: 1, ScoredAttempts: 1}})
	}
	return &model.Dataset{
		Kind: model.KindRun, MainMetric: "weighted_score", Metrics: metrics, Recomputed: recomputed,
		Records: model.NewMemIndex(recs), Scoring: &model.Scoring{Max: 10, Threshold: 8},
	}
}

// A run's progress counters are no figure of its task: a run with no
// score showed total_categories 8.0000 as its main figure in the
// overview while summary said its mean is -.
func TestEntryOfRunWithoutScores(t *testing.T) {
	ds := scoredRun(nil, []model.Metric{{Name: "total_categories", Value: 8}, {Name: "done_attempts", Value: 101}}, nil)
	e := EntryOf(0, ds, model.RecomputeMetrics(ds))
	if len(e.Tasks) != 1 || len(e.Tasks[0].Figures) != 0 {
		t.Fatalf("figures of a run without scores: %+v", e.Tasks)
	}
	tab := Build([]Entry{e}, Options{ShowEmpty: true})
	if c := tab.Rows[0].Cells[0]; c.HasFigure || c.ValueText(false) != "–" {
		t.Errorf("cell %+v", c)
	}
	ds = scoredRun([]float64{8.5, 7}, []model.Metric{{Name: "total_categories", Value: 8}}, nil)
	e = EntryOf(0, ds, model.RecomputeMetrics(ds))
	if fs := e.Tasks[0].Figures; len(fs) != 1 || fs[0].Name != "weighted_score" || fs[0].Value != 7.75 || fs[0].Reported {
		t.Errorf("figures of a scored run without a scores_map: %+v", fs)
	}
}

// A scores_map's global_mean is compared with the same figure computed
// its writer's way (Dataset.Recomputed), as summary compares them; it
// was compared with the site's mean, rounded another way, and the
// overview marked 8.43 ≠ where summary said the two agree.
func TestEntryOfRunScoresMap(t *testing.T) {
	scores := []float64{8.85, 7.38, 8.13, 9.68, 7.75, 8.82} // the site's mean: 8.44
	counters := []model.Metric{{Name: "total_samples", Value: 6}, {Name: "weighted_score", Value: 8.43}}
	for _, c := range []struct {
		computed float64
		differs  bool
	}{{8.43, false}, {8.2, true}} {
		ds := scoredRun(scores, counters, []model.MetricComparison{{Name: "weighted_score", Samples: c.computed, HasSamples: true, N: 6}})
		fs := EntryOf(0, ds, model.RecomputeMetrics(ds)).Tasks[0].Figures
		if len(fs) != 1 {
			t.Fatalf("figures %+v", fs)
		}
		f := fs[0]
		if f.Name != "weighted_score" || !f.Reported || f.Value != 8.43 || f.Recomputed != c.computed || f.Differs != c.differs {
			t.Errorf("computed %v: figure %+v", c.computed, f)
		}
	}
	// Without a recomputed value, the site's mean is shown beside the
	// reported one, never a difference.
	ds := scoredRun(scores, counters, nil)
	f := EntryOf(0, ds, model.RecomputeMetrics(ds)).Tasks[0].Figures[0]
	if f.Differs || f.Recomputed != 8.44 || f.Value != 8.43 {
		t.Errorf("without a recomputed value: %+v", f)
	}
}

// Two runs of the same scores, one with a scores_map (its global mean
// 8.43, rounded half to even from per-sample figures) and one without
// (the site's mean, 8.44, rounded half up): their delta is 0, from like
// figures, not the +0.01 between the two roundings. Two runs that both
// report, or neither, are compared by the values shown.
func TestDeltaOfRunsFromLikeFigures(t *testing.T) {
	scores := []float64{8.85, 7.38, 8.13, 9.68, 7.75, 8.82} // the site's mean: 8.44
	reported := []model.Metric{{Name: "weighted_score", Value: 8.43}}
	comps := []model.MetricComparison{{Name: "weighted_score", Samples: 8.43, HasSamples: true, N: 6}}
	withMap := scoredRun(scores, reported, comps)
	plain := scoredRun(scores, nil, nil)
	better := scoredRun([]float64{9.85, 8.38, 9.13, 10, 8.75, 9.82}, nil, nil) // the site's mean: 9.32
	entry := func(i int, ds *model.Dataset, m string) Entry {
		ds.Task = "chat"
		e := EntryOf(i, ds, model.RecomputeMetrics(ds))
		e.Model = m
		return e
	}
	tab := Build([]Entry{entry(0, withMap, "a"), entry(1, plain, "b"), entry(2, better, "c"), entry(3, scoredRun(scores, reported, comps), "d")}, Options{})
	if len(tab.Rows) != 1 || len(tab.Columns) != 4 {
		t.Fatalf("table %d rows × %d columns", len(tab.Rows), len(tab.Columns))
	}
	if v := tab.Rows[0].Cells[0].Figure.Value; v != 8.43 {
		t.Fatalf("the scores_map run shows %v, want its reported 8.43", v)
	}
	for _, c := range []struct {
		col, base int
		want      float64
	}{
		{1, 0, 0},    // site 8.44 − site 8.44, not 8.44 − 8.43
		{0, 1, 0},    // either way round
		{2, 0, 0.88}, // 9.32 − 8.44
		{3, 0, 0},    // both report: 8.43 − 8.43
		{2, 1, 0.88}, // neither reports
	} {
		d, ok := tab.Delta(0, c.col, c.base)
		if !ok || d < c.want-1e-9 || d > c.want+1e-9 {
			t.Errorf("Delta(col %d, base %d) = %v %v, want %v", c.col, c.base, d, ok, c.want)
		}
	}
	if w := tab.Worse(1, 0); w != 0 {
		t.Errorf("the same scores counted worse in %d tasks", w)
	}
}

// The line under the overview says when a delta compares site means.
func TestDeltaNote(t *testing.T) {
	scores := []float64{8.85, 7.38, 8.13, 9.68, 7.75, 8.82}
	withMap := scoredRun(scores, []model.Metric{{Name: "weighted_score", Value: 8.43}}, nil)
	plain := scoredRun(scores, nil, nil)
	var es []Entry
	for i, ds := range []*model.Dataset{withMap, plain, scoredRun(scores, nil, nil)} {
		ds.Task = "chat"
		e := EntryOf(i, ds, model.RecomputeMetrics(ds))
		e.Model = string(rune('a' + i))
		es = append(es, e)
	}
	tab := Build(es, Options{})
	if n := tab.DeltaNote(0, 1, 0); n != "Δ of the site means 8.44 − 8.44 (a scores_map mean rounds otherwise)" {
		t.Errorf("note %q", n)
	}
	if n := tab.DeltaNote(0, 2, 1); n != "" {
		t.Errorf("note between two site means %q", n)
	}
}
