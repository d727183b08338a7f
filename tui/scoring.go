package tui

import (
	"math"

	"evalview/model"
	"evalview/model/runstats"
)

// thresholdStep is how far t and T move the high-score threshold.
const thresholdStep = 0.5

// scoringState is the state of the views of scored datasets
// (model.Scoring: run zips), shared by the root and the header: the
// high-score threshold of each dataset, and whether
// its list shows only the high scores.
type scoringState struct {
	// flag is Options.Threshold: when > 0 it is every run's starting
	// threshold; else each run starts at its own pass threshold.
	flag       float64
	thresholds map[*model.Dataset]float64
	// high is, per dataset, the high-score term H added to its query.
	high map[*model.Dataset]string
	figs figuresCache
}

// figuresCache holds the figures of one dataset at one threshold, for
// one length of its index.
type figuresCache struct {
	ds   *model.Dataset
	n    int
	figs runstats.Figures
}

func newScoringState(flag float64) *scoringState {
	return &scoringState{flag: flag, thresholds: map[*model.Dataset]float64{}, high: map[*model.Dataset]string{}}
}

// threshold is ds's high-score threshold: set by t/T, else --threshold,
// else the run's own (scores_map pass_threshold, else the site's 8.5).
func (r *scoringState) threshold(ds *model.Dataset) float64 {
	if r == nil || ds == nil {
		return runstats.DefaultThreshold
	}
	if t, ok := r.thresholds[ds]; ok {
		return t
	}
	if r.flag > 0 {
		return r.flag
	}
	return runstats.Threshold(ds)
}

// at is the threshold ds's statuses are read at (query.Env.Threshold):
// ds's threshold when its records are scored on a judge's scale
// (model.Scoring), nil for other datasets, whose statuses are as loaded.
func (r *scoringState) at(ds *model.Dataset) *float64 {
	if ds == nil || ds.Scoring == nil {
		return nil
	}
	t := r.threshold(ds)
	return &t
}

// set sets ds's threshold, kept on its scale (0..10 for a run), and
// returns it.
func (r *scoringState) set(ds *model.Dataset, t float64) float64 {
	if math.IsNaN(t) { // math.Max/Min keep NaN: it would pass nothing and print as "NaN"
		t = r.threshold(nil)
	}
	t = math.Max(0, math.Min(runstats.Max(ds), t))
	r.thresholds[ds] = t
	return t
}

// move hands a reloaded dataset the state the user gave the old one: its
// threshold (t/T) and high-score filter (H). The old dataset's
// deep pass is not moved: its report is about the records as they were,
// and the new dataset gets its own pass once its index is complete
// (replaceDataset cancels the old one, deepState.drop).
func (r *scoringState) move(old, ds *model.Dataset) {
	if r == nil {
		return
	}
	if t, ok := r.thresholds[old]; ok {
		r.thresholds[ds] = t
		delete(r.thresholds, old)
	}
	if h, ok := r.high[old]; ok {
		r.high[ds] = h
		delete(r.high, old)
	}
}

// figures returns ds's figures at its threshold, recomputed only when the
// dataset, its length or the threshold changed.
func (r *scoringState) figures(ds *model.Dataset) runstats.Figures {
	t := r.threshold(ds)
	if r == nil {
		return runstats.ComputeAt(ds, t)
	}
	if c := r.figs; c.ds == ds && c.n == ds.Records.Len() && c.figs.Threshold == t {
		return c.figs
	}
	r.figs = figuresCache{ds: ds, n: ds.Records.Len(), figs: runstats.ComputeAt(ds, t)}
	return r.figs.figs
}
