package tui

import (
	"math"
	"strconv"

	"evalview/model"
)

// defaultRunThreshold is the site's default high-score threshold
// (loaders/runzip.DefaultThreshold; the browser cannot import loaders).
const defaultRunThreshold = 8.5

// runScoreMax is the top of a run judge's scale (runzip.ScoreMax).
const runScoreMax = 10.0

// thresholdStep is how far t and T move the high-score threshold.
const thresholdStep = 0.5

// Dataset.Extra keys set by the run loader (loaders/runzip).
const (
	extraRunCategories    = "run.categories"
	extraRunCategoryNames = "run.category_names"
	extraRunThreshold     = "run.threshold"
)

// runSettings is the state of the run views, shared by the root model and
// the header: the high-score threshold of each run dataset, and whether
// its list shows only the high scores.
type runSettings struct {
	// flag is Options.Threshold: when > 0 it is every run's starting
	// threshold; else each run starts at its own pass threshold.
	flag       float64
	thresholds map[*model.Dataset]float64
	// high is, per dataset, the high-score term H added to its query.
	high map[*model.Dataset]string
	figs runFigures
}

func newRunSettings(flag float64) *runSettings {
	return &runSettings{flag: flag, thresholds: map[*model.Dataset]float64{}, high: map[*model.Dataset]string{}}
}

// threshold is ds's high-score threshold: set by t/T, else --threshold,
// else the run's scores_map pass_threshold, else the site's 8.5.
func (r *runSettings) threshold(ds *model.Dataset) float64 {
	if r == nil || ds == nil {
		return defaultRunThreshold
	}
	if t, ok := r.thresholds[ds]; ok {
		return t
	}
	if r.flag > 0 {
		return r.flag
	}
	if t, ok := ds.Extra[extraRunThreshold].(float64); ok && t > 0 {
		return t
	}
	return defaultRunThreshold
}

// set sets ds's threshold, kept on the 0..10 scale, and returns it.
func (r *runSettings) set(ds *model.Dataset, t float64) float64 {
	if math.IsNaN(t) { // math.Max/Min keep NaN: it would pass nothing and print as "NaN"
		t = r.threshold(nil)
	}
	t = math.Max(0, math.Min(runScoreMax, t))
	r.thresholds[ds] = t
	return t
}

// moveRunState hands a reloaded dataset the state the user gave the old
// one: its threshold (t/T) and high-score filter (H). The old dataset's
// deep pass is not moved: its report is about the records as they were,
// and the new dataset gets its own pass once its index is complete
// (replaceDataset cancels the old one, dropDeep).
func (m *Model) moveRunState(old, ds *model.Dataset) {
	if m.run != nil {
		if t, ok := m.run.thresholds[old]; ok {
			m.run.thresholds[ds] = t
			delete(m.run.thresholds, old)
		}
		if h, ok := m.run.high[old]; ok {
			m.run.high[ds] = h
			delete(m.run.high, old)
		}
	}
}

// figures returns ds's figures at its threshold, recomputed only when the
// dataset, its length or the threshold changed.
func (r *runSettings) figures(ds *model.Dataset) runFigures {
	t := r.threshold(ds)
	if r == nil {
		return computeRunFigures(ds, t)
	}
	if f := r.figs; f.ds == ds && f.n == ds.Records.Len() && f.threshold == t {
		return f
	}
	r.figs = computeRunFigures(ds, t)
	return r.figs
}

// histBins is the number of histogram bins over 0..10 (0.5 wide).
const histBins = 20

// categoryMean is the mean average score of one category's scored samples.
type categoryMean struct {
	name   string
	mean   float64
	scored int
	all    int
	// above counts the category's samples at or above the threshold.
	above int
}

// runFigures are a run's figures from its summaries alone, as the site
// and `summary --json` compute them (loaders/runzip.Stats).
type runFigures struct {
	ds        *model.Dataset
	n         int
	threshold float64
	// records, attempts, scoredAttempts and scored (samples with a score).
	records, attempts, scoredAttempts, scored int
	// above counts the samples on the site's high-score list: scored,
	// average at or above the threshold.
	above   int
	mean    float64
	hasMean bool
	cats    []categoryMean
	hist    [histBins]int
}

// highScore reports whether a sample is on the site's high-score list
// (runzip.HighScore).
func highScore(s model.Summary, threshold float64) bool {
	return s.HasScore && s.Score >= threshold
}

// computeRunFigures reads every summary of ds once.
func computeRunFigures(ds *model.Dataset, threshold float64) runFigures {
	f := runFigures{ds: ds, n: ds.Records.Len(), threshold: threshold}
	type acc struct {
		sum              float64
		scored, n, above int
	}
	byCat := map[string]*acc{}
	var order []string
	if cs, ok := ds.Extra[extraRunCategories].([]string); ok {
		for _, c := range cs {
			if byCat[c] == nil {
				byCat[c] = &acc{}
				order = append(order, c)
			}
		}
	}
	sum := 0.0
	for i := 0; i < f.n; i++ {
		s := ds.Records.Summary(i)
		f.records++
		f.attempts += s.Attempts
		f.scoredAttempts += s.ScoredAttempts
		c := s.Labels["category"]
		if c == "" {
			c = "(none)"
		}
		a := byCat[c]
		if a == nil {
			a = &acc{}
			byCat[c] = a
			order = append(order, c)
		}
		a.n++
		if !s.HasScore {
			continue
		}
		f.scored++
		sum += s.Score
		a.sum += s.Score
		a.scored++
		if highScore(s, threshold) {
			f.above++
			a.above++
		}
		f.hist[histBin(s.Score)]++
	}
	if f.scored > 0 {
		f.mean, f.hasMean = round2(sum/float64(f.scored)), true
	}
	for _, c := range order {
		a := byCat[c]
		cm := categoryMean{name: c, scored: a.scored, all: a.n, above: a.above}
		if a.scored > 0 {
			cm.mean = round2(a.sum / float64(a.scored))
		}
		f.cats = append(f.cats, cm)
	}
	return f
}

// histBin is the bin of a score: [0,0.5) is bin 0; a perfect 10 falls in
// the last bin; scores off the scale are clamped to it.
func histBin(v float64) int {
	b := int(math.Floor(v / runScoreMax * histBins))
	return max(0, min(b, histBins-1))
}

// round2 rounds half up to 2 decimals, as the site's Math.round does.
func round2(v float64) float64 { return math.Floor(v*100+0.5) / 100 }

// thresholdText prints a threshold without trailing zeros ("8.5", "9").
func thresholdText(t float64) string { return strconv.FormatFloat(t, 'f', -1, 64) }
