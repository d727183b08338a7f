package model

// Scoring describes datasets whose records carry a judge's score on a
// fixed scale, with a pass threshold (run zips: the average weighted
// score of a sample, 0 to 10). A loader sets it when its records are
// scored that way; the browser then offers the threshold keys, the
// high-score filter and the score distribution sheet, and `summary`
// reports the figures of model/runstats. Nil for other datasets.
type Scoring struct {
	// Max is the top of the scale.
	Max float64
	// Threshold is the pass threshold the records' statuses were
	// computed at (a run's scores_map pass_threshold, else the site's
	// default); the browser's high-score threshold starts there.
	Threshold float64
	// Categories lists the categories in the artifact's order (a run's
	// generation summary), then any others its records use; the
	// distribution sheet keeps this order, categories without samples
	// included.
	Categories []string
	// CategoryNames maps a category to its display name, when the
	// artifact gives one.
	CategoryNames map[string]string
	// ScoreName says what a record's score is, for the distribution
	// sheet ("average weighted score"); "" says "score".
	ScoreName string
	// HighScores says what the records at or above the threshold are
	// ("what the site's high-score list returns"); "" says nothing.
	HighScores string
}

// StatusAt is the status, at pass threshold t, of a record or attempt
// scored on a judge's scale whose status as read is st: a score at or
// above t passes, one under it fails. Only a pass or a fail with a score
// is decided again: an error stays an error and an unscored record stays
// unscored, whatever the threshold. Loaders set statuses with it at the
// artifact's own threshold; the browser (t, +, -, --threshold), `summary`
// and `export --threshold` read them again with it at the one the user
// chose, so the list's glyphs, the header's counts and the exported
// statuses cannot disagree.
func StatusAt(st Status, score float64, hasScore bool, t float64) Status {
	if (st != StatusPass && st != StatusFail) || !hasScore || score != score {
		return st
	}
	if score >= t {
		return StatusPass
	}
	return StatusFail
}

// SummaryAt returns s with its status, and its outcomes' statuses, read at
// threshold t (StatusAt). A nil Scoring (a dataset not scored on a
// judge's scale) returns s as it is. s's outcomes are shared with the
// index and copied before they change.
func (sc *Scoring) SummaryAt(s Summary, t float64) Summary {
	if sc == nil {
		return s
	}
	s.Status = StatusAt(s.Status, s.Score, s.HasScore, t)
	if len(s.Outcomes) > 0 {
		os := make([]Outcome, len(s.Outcomes))
		for i, o := range s.Outcomes {
			o.Status = StatusAt(o.Status, o.Score, o.HasScore, t)
			os[i] = o
		}
		s.Outcomes = os
	}
	return s
}

// RecordAt returns r with its status and its attempts' statuses read at
// threshold t (an attempt's score is its weighted score). A nil Scoring
// or a nil record returns r itself; otherwise r is left as it is (it is
// shared with the record cache) and a copy is returned.
func (sc *Scoring) RecordAt(r *Record, t float64) *Record {
	if sc == nil || r == nil {
		return r
	}
	out := *r
	out.Summary = sc.SummaryAt(r.Summary, t)
	if len(r.Attempts) > 0 {
		out.Attempts = make([]Attempt, len(r.Attempts))
		for i, a := range r.Attempts {
			a.Status = StatusAt(a.Status, a.Weighted, a.HasWeighted, t)
			out.Attempts[i] = a
		}
	}
	return &out
}
