package model

import "encoding/json"

// IssueCounts returns the dataset's errors and warnings: its own issues plus
// the counts every record's summary carries. It reads summaries only.
func (d *Dataset) IssueCounts() (errors, warnings int) {
	errors, warnings = CountIssues(d.Issues)
	for i := 0; i < d.Records.Len(); i++ {
		s := d.Records.Summary(i)
		errors += s.Errors
		warnings += s.Warnings
	}
	return errors, warnings
}

// MetricPair is one metric's recomputed and reported value, as `summary
// --json` prints it. Absent values are nil.
type MetricPair struct {
	Samples  *float64 `json:"samples"`
	Reported *float64 `json:"reported"`
	Stderr   *float64 `json:"stderr,omitempty"`
	// N is how many records the recomputed value averages.
	N int `json:"n"`
	// Differs is true when both exist and disagree.
	Differs bool `json:"differs"`
	// Aggregation names how samples was computed from the rows ("mean",
	// "f1", "weighted_perplexity"...), as the writer aggregates.
	Aggregation string `json:"aggregation,omitempty"`
	// Note says why there is no samples value (a corpus-level metric not
	// recomputed, a filter without rows), when there is none.
	Note string `json:"note,omitempty"`
}

// DatasetReport is one dataset's entry in `summary --json`. The field names
// kind, path, task, records, errors, warnings and metrics are a contract.
type DatasetReport struct {
	Kind     Kind   `json:"kind"`
	Path     string `json:"path"`
	Task     string `json:"task"`
	Title    string `json:"title"`
	Records  int    `json:"records"`
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
	// Notes counts check's notes: how a file was read, not findings.
	Notes   int                              `json:"notes,omitempty"`
	Metrics map[string]map[string]MetricPair `json:"metrics"`
	// Groups are, per group, filter and metric, the group's reported value
	// beside the one recomputed from its subtasks (lm-eval groups).
	Groups map[string]map[string]map[string]GroupPair `json:"groups,omitempty"`
	// Facts are the header facts, for humans; scripts should not parse them.
	Facts map[string]string `json:"facts,omitempty"`
	// Run are a scored run's figures (Dataset.Scoring: a run's attempts,
	// scores, statuses and category means), nil for other datasets.
	Run *RunFigures `json:"-"`
	// Agreement is an lm-eval dataset's filter agreement: per pair of
	// filters "A|B" (each unordered pair both ways), how many docs are
	// right under both, only one, or neither. Nil when not computed.
	Agreement map[string]Agreement `json:"-"`
	// PassAtK is, per filter and k ("1", "4"...), the unbiased pass@k
	// over each doc's repeats (the deep check). Nil when not computed.
	PassAtK map[string]map[string]float64 `json:"-"`
}

// RunFigures are a run's figures in `summary`: its attempts, scores,
// statuses and category means at a threshold (model/runstats), its
// generation summary's counters, and the scores_map.json its figures
// were compared with.
type RunFigures struct {
	Attempts       int
	ScoredAttempts int
	ScoredRecords  int
	// MeanWeightedScore is nil when nothing is scored.
	MeanWeightedScore *float64
	// Threshold is the one AboveThreshold and Statuses count at.
	Threshold      float64
	AboveThreshold int
	CategoryMeans  map[string]float64
	// Statuses counts the samples by status at Threshold ("pass", "fail",
	// "error", "unscored").
	Statuses map[string]int
	// Generation are the generation summary's counters (progress counts,
	// not metrics: completed_samples, done_attempts...).
	Generation map[string]float64
	// ScoresMap names scores_map.json and the pass_threshold its figures
	// count at, nil when the run has none.
	ScoresMap *ScoresMapRef
}

// ScoresMapRef is the scores_map.json a run's figures were compared with.
type ScoresMapRef struct {
	File          string  `json:"file"`
	PassThreshold float64 `json:"pass_threshold"`
}

// Agreement is a 2x2 table of two filters' verdicts on the same docs.
type Agreement struct {
	Both    int `json:"both"`
	OnlyA   int `json:"only_a"`
	OnlyB   int `json:"only_b"`
	Neither int `json:"neither"`
}

// extra is the report's format-specific figures as `summary --json`
// writes them: further top-level fields of the entry, by name.
func (r DatasetReport) extra() map[string]any {
	out := map[string]any{}
	if f := r.Run; f != nil {
		out["attempts"], out["scored_attempts"], out["scored_records"] = f.Attempts, f.ScoredAttempts, f.ScoredRecords
		out["mean_weighted_score"], out["threshold"], out["above_threshold"] = f.MeanWeightedScore, f.Threshold, f.AboveThreshold
		out["category_means"], out["statuses"], out["generation"] = f.CategoryMeans, f.Statuses, f.Generation
		if f.ScoresMap != nil {
			out["scores_map"] = f.ScoresMap
		}
	}
	if r.Agreement != nil {
		out["agreement"] = r.Agreement
	}
	if r.PassAtK != nil {
		out["pass_at_k"] = r.PassAtK
	}
	return out
}

// MarshalJSON writes the report's fields followed by its format-specific
// figures (Run, Agreement, PassAtK), flat and in name order, as `summary
// --json` promises them.
func (r DatasetReport) MarshalJSON() ([]byte, error) {
	type plain DatasetReport // no MarshalJSON: avoids recursion
	base, err := json.Marshal(plain(r))
	extra := r.extra()
	if err != nil || len(extra) == 0 {
		return base, err
	}
	more, err := json.Marshal(extra)
	if err != nil {
		return nil, err
	}
	// Join {"a":1} and {"b":2} into {"a":1,"b":2}.
	return append(append(base[:len(base)-1], ','), more[1:]...), nil
}

// GroupPair is one group metric in `summary --json`: reported, and
// recomputed from its subtasks' reported values the harness's way.
type GroupPair struct {
	Reported   float64  `json:"reported"`
	Recomputed *float64 `json:"recomputed"`
	// WeightBySize tells which aggregation recomputed is (the one that
	// reproduces the reported value, when one does).
	WeightBySize bool `json:"weight_by_size"`
	Subtasks     int  `json:"subtasks"`
	Differs      bool `json:"differs"`
	// Stderr is the reported stderr; PooledStderr the harness's pooled
	// stderr from the subtasks' (when they all report one).
	Stderr       *float64 `json:"stderr,omitempty"`
	PooledStderr *float64 `json:"pooled_stderr,omitempty"`
	Note         string   `json:"note,omitempty"`
}

// MarshalJSON writes the pair with non-finite values as strings.
func (g GroupPair) MarshalJSON() ([]byte, error) {
	type plain GroupPair
	if finite(&g.Reported, g.Recomputed, g.Stderr, g.PooledStderr) {
		return json.Marshal(plain(g))
	}
	return json.Marshal(struct {
		plain
		Reported     any `json:"reported"`
		Recomputed   any `json:"recomputed"`
		Stderr       any `json:"stderr,omitempty"`
		PooledStderr any `json:"pooled_stderr,omitempty"`
	}{plain(g), JSONNumber(g.Reported), jsonNumPtr(g.Recomputed), jsonNumPtr(g.Stderr), jsonNumPtr(g.PooledStderr)})
}

func groupPairs(gs []GroupComparison) map[string]map[string]map[string]GroupPair {
	if len(gs) == 0 {
		return nil
	}
	out := map[string]map[string]map[string]GroupPair{}
	for _, g := range gs {
		p := GroupPair{Reported: g.Reported, WeightBySize: g.WeightBySize, Subtasks: g.Subtasks, Differs: g.Differs(), Note: g.Note}
		if g.HasRecomputed {
			v := g.Recomputed
			p.Recomputed = &v
		}
		if g.HasStderr {
			v := g.Stderr
			p.Stderr = &v
		}
		if g.HasPooledStderr {
			v := g.PooledStderr
			p.PooledStderr = &v
		}
		if out[g.Group] == nil {
			out[g.Group] = map[string]map[string]GroupPair{}
		}
		if out[g.Group][g.Filter] == nil {
			out[g.Group][g.Filter] = map[string]GroupPair{}
		}
		out[g.Group][g.Filter][g.Name] = p
	}
	return out
}

// Report summarises a dataset for `summary`: counts, and per filter and
// metric the value recomputed from the records beside the reported one.
func Report(d *Dataset) DatasetReport {
	e, w := d.IssueCounts()
	r := DatasetReport{
		Kind: d.Kind, Path: d.Path, Task: d.Task, Title: d.Title,
		Records: d.Records.Len(), Errors: e, Warnings: w,
		Metrics: map[string]map[string]MetricPair{},
		Facts:   map[string]string{},
		Groups:  groupPairs(d.Groups),
	}
	for _, f := range d.Facts {
		if _, ok := r.Facts[f.Key]; !ok {
			r.Facts[f.Key] = f.Value
		}
	}
	for _, c := range RecomputeMetrics(d) {
		p := PairOf(c)
		f := c.Filter
		if f == "" {
			f = "none" // formats without filters, named as lm-eval names its own
		}
		if r.Metrics[f] == nil {
			r.Metrics[f] = map[string]MetricPair{}
		}
		r.Metrics[f][c.Name] = p
	}
	return r
}

// PairOf is a comparison as `summary --json` writes it.
func PairOf(c MetricComparison) MetricPair {
	p := MetricPair{N: c.N, Differs: c.Differs(), Aggregation: c.Aggregation, Note: c.Note}
	if c.HasSamples {
		v := c.Samples
		p.Samples = &v
	}
	if c.HasReport {
		v := c.Reported
		p.Reported = &v
	}
	if c.HasStderr {
		v := c.Stderr
		p.Stderr = &v
	}
	return p
}
