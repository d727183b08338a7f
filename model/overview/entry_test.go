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
	tab := Build([]Entry{e})
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
