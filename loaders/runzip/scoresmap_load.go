package runzip

import (
	"strconv"

	"evalview/model"
)

// ScoresMapOf returns a run's scores_map.json beside the figures evalview
// computes, or nil when ds is no run or its run has no scores_map.json
// that is a JSON object.
func ScoresMapOf(ds *model.Dataset) *ScoresMapCheck {
	if x, ok := ds.Records.(*runIndex); ok {
		return x.scoresMap
	}
	return nil
}

// mapReportedFigures reads the figures scores_map.json gives (see
// MapFigures); a figure that is absent or not a number is left out.
func mapReportedFigures(root *node) MapFigures {
	out := MapFigures{}
	put := func(group, name string, v *node) {
		if f, ok := v.num(false); ok {
			out[[2]string{group, name}] = f
		}
	}
	for _, k := range []string{"total", "passed", "failed", "global_mean"} {
		put(MapGroupRun, k, root.get(k))
	}
	cs := root.get("category_summary")
	for _, c := range cs.keysOrNil() {
		for _, k := range []string{"count", "passed", "mean"} {
			put(mapCategoryPrefix+c, k, cs.get(c).get(k))
		}
	}
	for _, it := range root.get("items").itemsOrNil() {
		if i, ok := it.get("sample_index").integer(); ok {
			put(mapSamplePrefix+strconv.Itoa(i), "mean_score", it.get("mean_score"))
		}
	}
	return out
}

// mapCheck compares scores_map.json with the run's records, at the
// file's own pass_threshold (the run's threshold when it gives none).
func (l *loader) mapCheck() *ScoresMapCheck {
	if l.scoresMap == nil {
		return nil
	}
	return &ScoresMapCheck{
		File:      l.scoresMap.ref.display,
		Threshold: l.threshold,
		Figures:   CompareScoresMap(ComputeMapFigures(l.scored, l.threshold), l.mapReported),
	}
}

// mapRecomputed is the run's main metric, scores_map.json's global_mean,
// recomputed from the score files as its writer computes it, for the
// figures that put it beside the reported one (the overview), as
// summary's scores_map figures do; nil without a computed global_mean.
func mapRecomputed(c *ScoresMapCheck) []model.MetricComparison {
	if c == nil {
		return nil
	}
	for _, f := range c.Figures {
		if f.Filter == MapGroupRun && f.Name == "global_mean" && f.HasSamples {
			return []model.MetricComparison{{Name: "weighted_score", Samples: f.Samples, HasSamples: true, N: f.N,
				Aggregation: "mean of the samples' mean_score, as scores_map.json's writer computes it (exact, rounded half to even)"}}
		}
	}
	return nil
}
