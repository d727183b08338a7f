// Package runstats computes the figures of a scored dataset (model.Scoring:
// a run zip's samples and their average weighted scores) from its
// summaries alone, as the eval site computes them: the mean of the scored
// samples, how many reach the high-score threshold, the mean per
// category and a histogram. `summary --json` and the browser's header and
// distribution sheet read the same figures from here, so the two cannot
// disagree.
package runstats

import (
	"math"

	"evalview/model"
)

// DefaultThreshold is the site's default passThreshold: the minimum
// average weighted score of a "high score" sample.
const DefaultThreshold = 8.5

// ScoreMax is the top of a run judge's scale, for dimensions and the
// weighted score: the scale of a dataset whose Scoring names none.
const ScoreMax = 10.0

// NoCategory is the category of samples without one.
const NoCategory = "(none)"

// Bins is the number of histogram bins over a scale (0.5 wide on 0..10).
const Bins = 20

// Threshold is ds's own pass threshold: its Scoring's, else
// DefaultThreshold.
func Threshold(ds *model.Dataset) float64 {
	if ds != nil && ds.Scoring != nil && ds.Scoring.Threshold > 0 {
		return ds.Scoring.Threshold
	}
	return DefaultThreshold
}

// Max is the top of ds's scale: its Scoring's, else ScoreMax.
func Max(ds *model.Dataset) float64 {
	if ds != nil && ds.Scoring != nil && ds.Scoring.Max > 0 {
		return ds.Scoring.Max
	}
	return ScoreMax
}

// HighScore reports whether a sample is on the site's high-score list at
// threshold: it is scored and its average is at or above the threshold.
func HighScore(s model.Summary, threshold float64) bool {
	return s.HasScore && s.Score >= threshold
}

// Round2 rounds half up to 2 decimals, as the site's Math.round does.
func Round2(v float64) float64 { return math.Floor(v*100+0.5) / 100 }

// Bin is the histogram bin of a score on a 0..top scale: on 0..10,
// [0,0.5) is bin 0; a perfect top falls in the last bin; scores off the
// scale are clamped to it.
func Bin(v, top float64) int {
	b := int(math.Floor(v / top * Bins))
	return max(0, min(b, Bins-1))
}

// Category is one category's figures.
type Category struct {
	Name string
	// Mean is the mean average score of the category's scored samples,
	// rounded to 2 decimals (0 when none is scored).
	Mean float64
	// Scored and All count the category's scored samples and all of
	// them; Above those at or above the threshold.
	Scored, All, Above int
}

// Figures are a dataset's figures at one threshold.
type Figures struct {
	// Max is the top of the scale; Threshold the high-score threshold.
	Max       float64
	Threshold float64
	// Records counts samples; Attempts and ScoredAttempts their attempts
	// and those with a weighted score; Scored the samples with a score.
	Records, Attempts, ScoredAttempts, Scored int
	// Above counts the samples on the site's high-score list.
	Above int
	// Statuses counts the samples by status at the threshold
	// (model.StatusAt): what the browser's header counts ✓, ✗, ! and ·.
	// A sample that errored with a score is on the high-score list
	// (Above) but counts as an error here.
	Statuses [4]int
	// Mean is the mean of the scored samples' averages (each sample
	// counts once, like the site's lists), rounded to 2 decimals; HasMean
	// is false when nothing is scored.
	Mean    float64
	HasMean bool
	// Categories are in Scoring.Categories order, then in the order the
	// records first use them; NoCategory gathers samples without one.
	Categories []Category
	// Hist counts the scored samples per Bin.
	Hist [Bins]int
}

// Compute reads every summary of ds once. A threshold <= 0 means ds's own
// (see Threshold): a command's --threshold left at its default.
func Compute(ds *model.Dataset, threshold float64) Figures {
	if threshold <= 0 {
		threshold = Threshold(ds)
	}
	return ComputeAt(ds, threshold)
}

// ComputeAt is Compute at exactly threshold, 0 included (everything
// scored is then a high score): the browser's threshold, which t, + and
// - move down to 0.
func ComputeAt(ds *model.Dataset, threshold float64) Figures {
	f := Figures{Max: Max(ds), Threshold: threshold}
	type acc struct {
		sum              float64
		scored, n, above int
	}
	byCat := map[string]*acc{}
	var order []string
	if ds.Scoring != nil {
		for _, c := range ds.Scoring.Categories {
			if byCat[c] == nil {
				byCat[c] = &acc{}
				order = append(order, c)
			}
		}
	}
	sum := 0.0
	n := ds.Records.Len()
	for i := 0; i < n; i++ {
		s := ds.Records.Summary(i)
		f.Records++
		f.Attempts += s.Attempts
		f.ScoredAttempts += s.ScoredAttempts
		c := s.Labels.Get("category")
		if c == "" {
			c = NoCategory
		}
		a := byCat[c]
		if a == nil {
			a = &acc{}
			byCat[c] = a
			order = append(order, c)
		}
		a.n++
		if st := model.StatusAt(s.Status, s.Score, s.HasScore, threshold); st >= model.StatusUnscored && st <= model.StatusError {
			f.Statuses[st]++
		}
		if !s.HasScore {
			continue
		}
		f.Scored++
		sum += s.Score
		a.sum += s.Score
		a.scored++
		if HighScore(s, threshold) {
			f.Above++
			a.above++
		}
		f.Hist[Bin(s.Score, f.Max)]++
	}
	if f.Scored > 0 {
		f.Mean, f.HasMean = Round2(sum/float64(f.Scored)), true
	}
	for _, c := range order {
		a := byCat[c]
		cm := Category{Name: c, Scored: a.scored, All: a.n, Above: a.above}
		if a.scored > 0 {
			cm.Mean = Round2(a.sum / float64(a.scored))
		}
		f.Categories = append(f.Categories, cm)
	}
	return f
}

// Stats is one run's entry in `summary --json`. The field names are a
// contract for scripts.
type Stats struct {
	// Records counts samples; Attempts and ScoredAttempts count their
	// attempts and those with a weighted_score.
	Records        int `json:"records"`
	Attempts       int `json:"attempts"`
	ScoredAttempts int `json:"scored_attempts"`
	// ScoredRecords counts samples with at least one scored attempt.
	ScoredRecords int `json:"scored_records"`
	// MeanWeightedScore is Figures.Mean; nil when nothing is scored.
	MeanWeightedScore *float64 `json:"mean_weighted_score"`
	// Threshold is the threshold AboveThreshold was counted at.
	Threshold float64 `json:"threshold"`
	// AboveThreshold counts samples whose average is at or above the
	// threshold: what the site's high-score list would return.
	AboveThreshold int `json:"above_threshold"`
	// CategoryMeans is the mean of the scored samples' averages per
	// category with a scored sample (NoCategory for samples without
	// one), rounded to 2 decimals.
	CategoryMeans map[string]float64 `json:"category_means"`
	// Statuses counts the samples by status at Threshold ("pass",
	// "fail", "error", "unscored"; every one, zeros included), as the
	// browser's header and `export` read them.
	Statuses map[string]int `json:"statuses"`
}

// Stats returns the figures as `summary --json` writes them.
func (f Figures) Stats() Stats {
	st := Stats{
		Records: f.Records, Attempts: f.Attempts, ScoredAttempts: f.ScoredAttempts, ScoredRecords: f.Scored,
		Threshold: f.Threshold, AboveThreshold: f.Above, CategoryMeans: map[string]float64{},
		Statuses: map[string]int{},
	}
	for k, n := range f.Statuses {
		st.Statuses[model.Status(k).String()] = n
	}
	if f.HasMean {
		m := f.Mean
		st.MeanWeightedScore = &m
	}
	for _, c := range f.Categories {
		if c.Scored > 0 {
			st.CategoryMeans[c.Name] = c.Mean
		}
	}
	return st
}

// StatsOf computes ds's `summary` figures at threshold (<= 0: its own).
func StatsOf(ds *model.Dataset, threshold float64) Stats {
	return Compute(ds, threshold).Stats()
}
