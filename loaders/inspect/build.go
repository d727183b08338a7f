package inspect

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"evalview/loaders/internal/nonfinite"
	"evalview/model"
)

// view is one score the header reports: a scorer's values (a dict
// value's key when the scorer returns dicts), reduced with one reducer.
type view struct {
	label   string
	scorer  string
	key     string // dict key, "" for scalar values
	reducer string // log name; "mean" when the header gives none
	named   bool   // the header names the reducer
	metrics []kv   // EvalMetric by key, as written; nil for a running log
	// continuous is set once an epoch's value under the view is a number
	// other than 0 and 1 (a winrate, a rating): a score, which passes or
	// fails no sample. C, I, P and N, yes and no, true and false, 0 and 1
	// are verdicts by nature (value_to_float).
	continuous bool
}

// group is one sample id's epochs, parsed.
type group struct {
	id     string
	rawID  json.RawMessage
	epochs []*sampleSummary
}

// stored is one sample id's epochs as the index keeps them: each
// summary's JSON, parsed again when its record is built. A log may
// summarise 50,000 samples; their parsed summaries and records took 3.5
// KB each, their JSON takes a few hundred bytes.
type stored struct {
	id     string
	rawID  json.RawMessage
	epochs []storedEpoch
}

type storedEpoch struct {
	epoch int
	// raw is the summary's JSON, NaN and Infinity sanitized.
	raw []byte
}

// parseSummary parses one summary's sanitized JSON, which it keeps as
// the summary's raw bytes (not copied: the index keeps raw as it is).
func parseSummary(raw []byte) (*sampleSummary, error) {
	type plain sampleSummary
	s := &sampleSummary{}
	if err := json.Unmarshal(raw, (*plain)(s)); err != nil {
		return nil, err
	}
	s.raw = raw
	return s, nil
}

// parse returns g's epochs parsed (each parsed when it was stored), cur
// standing for the epoch it was parsed from when not nil.
func (g *stored) parse(cur *sampleSummary) *group {
	p := &group{id: g.id, rawID: g.rawID, epochs: make([]*sampleSummary, 0, len(g.epochs))}
	for _, e := range g.epochs {
		if cur != nil && cur.Epoch == e.epoch {
			p.epochs = append(p.epochs, cur)
		} else if s, err := parseSummary(e.raw); err == nil {
			p.epochs = append(p.epochs, s)
		}
	}
	return p
}

// newDataset is a log's dataset as its header gives it, without records
// or issues.
func newDataset(ld *logData, views []view) *model.Dataset {
	h := &ld.header
	ds := &model.Dataset{
		Kind: model.KindInspect,
		Path: ld.path,
		Task: h.Eval.Task,
	}
	if h.Eval.DisplayName != "" && h.Eval.DisplayName != h.Eval.Task {
		ds.Task = h.Eval.DisplayName
	}
	if ds.Task == "" {
		ds.Task = strings.TrimSuffix(filepath.Base(ld.path), filepath.Ext(ld.path))
	}
	ds.Title = ds.Task
	// The run is the log's creation time: the overview and the picker
	// tell two runs of a task apart by it.
	ds.Origin.Run = h.Eval.Created
	ds.Origin.Config = originConfig(h)
	if d := shortDate(h.Eval.Created); d != "" {
		ds.Title += " " + d
	}
	for _, v := range views {
		ds.Filters = append(ds.Filters, v.label)
	}
	if len(views) > 0 {
		ds.MainMetric = views[0].label
	}
	ds.Facts = facts(ld)
	ds.Metrics = reportedMetrics(views)
	return ds
}

// datasetIssues are the log's findings that need every record: the
// archive's and the header's, metrics recomputed over the records'
// reduced values, and members no summary lists.
func datasetIssues(ld *logData, views []view, recs []model.Summary) []model.Issue {
	out := append([]model.Issue(nil), ld.issues...)
	out = append(out, logIssues(ld)...)
	reduced := make([][]float64, len(views))
	for _, r := range recs {
		if len(r.Outcomes) < len(views) {
			continue
		}
		for vi := range views {
			if o := r.Outcomes[vi]; o.Present {
				reduced[vi] = append(reduced[vi], o.Score)
			}
		}
	}
	out = append(out, metricIssues(ld, views, reduced, len(recs))...)
	for _, name := range ld.orphans {
		out = append(out, model.Warnf("orphan-member", ld.path+"!"+name, 0, "",
			"a sample member no summary lists; Inspect's list does not show it"))
	}
	return out
}

// viewsOf lists the header's scores, or for a running log the scorers its
// summaries name (reduced as the config says, mean by default).
func viewsOf(ld *logData) []view {
	var out []view
	if r := ld.header.Results; r != nil {
		scores := r.Scores
		if len(scores) == 0 && r.Scorer != nil {
			s := *r.Scorer
			s.Scorer, s.Metrics = s.Name, r.Metrics
			scores = []evalScore{s}
		}
		count := map[string]int{}
		for _, s := range scores {
			count[s.Name]++
		}
		for _, s := range scores {
			v := view{label: s.Name, scorer: s.Scorer, reducer: "mean", metrics: objectKeys(s.Metrics)}
			if v.scorer == "" {
				v.scorer = s.Name
			}
			if s.Name != v.scorer {
				v.key = s.Name
			}
			if s.Reducer != nil {
				v.reducer, v.named = *s.Reducer, true
				if count[s.Name] > 1 {
					v.label += "/" + *s.Reducer
				}
			}
			out = append(out, v)
		}
		if len(out) > 0 {
			return out
		}
	}
	reducer := "mean"
	if rs := ld.header.Eval.Config.EpochsReducer; len(rs) == 1 {
		reducer = rs[0]
	}
	seen := map[string]bool{}
	for _, s := range ld.summaries {
		for _, sc := range s.scores() {
			if !seen[sc.Name] {
				seen[sc.Name] = true
				out = append(out, view{label: sc.Name, scorer: sc.Name, reducer: reducer})
			}
		}
	}
	return out
}

// redKey locates a reduced score: scorer, reducer ("" when unnamed) and
// sample id.
type redKey struct{ scorer, reducer, id string }

func indexReductions(rs []reduction) map[redKey]json.RawMessage {
	out := map[redKey]json.RawMessage{}
	for _, r := range rs {
		red := ""
		if r.Reducer != nil {
			red = *r.Reducer
		}
		for _, s := range r.Samples {
			out[redKey{r.Scorer, red, memberID(s.SampleID)}] = s.Value
		}
	}
	return out
}

// epochValue is one epoch's value under a view: the scorer's value, or
// its dict value's key.
func epochValue(s *sampleSummary, v view) (json.RawMessage, *namedScore) {
	for _, sc := range s.scores() {
		if sc.Name != v.scorer {
			continue
		}
		if v.key == "" {
			return sc.Value, &sc
		}
		for _, e := range objectKeys(sc.Value) {
			if e.Key == v.key {
				return e.Value, &sc
			}
		}
		if isUnscored(sc.Value) {
			return sc.Value, &sc
		}
		return nil, &sc
	}
	return nil, nil
}

// statusOf gives pass at 1 and fail in [0, 1) under a view whose values
// are verdicts; a view whose values are scores (continuous), NaN and
// values outside [0, 1] are unscored.
func statusOf(f float64, v view) model.Status {
	switch {
	case v.continuous || math.IsNaN(f) || f < 0 || f > 1:
		return model.StatusUnscored
	case f == 1:
		return model.StatusPass
	}
	return model.StatusFail
}

// isScore reports whether an epoch's value is a number other than 0 and
// 1 (or a string of one, which value_to_float reads as that number): a
// score rather than a verdict.
func isScore(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] == '{' || raw[0] == '[' {
		return false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return false
		}
		switch strings.ToLower(s) {
		case "c", "i", "p", "n", "yes", "no", "true", "false":
			return false
		}
		f, err := strconv.ParseFloat(s, 64)
		return err == nil && f == f && f != 0 && f != 1
	}
	f, ok := toFloat(raw)
	return ok && isScalar(raw) && f == f && f != 0 && f != 1 && string(raw) != "true"
}

// scoresIn lists the views (not yet continuous) under which one of g's
// epochs has a score.
func scoresIn(views []view, g *group) []int {
	var out []int
	for vi := range views {
		if views[vi].continuous {
			continue
		}
		for _, s := range g.epochs {
			if raw, _ := epochValue(s, views[vi]); raw != nil && isScore(raw) {
				out = append(out, vi)
				break
			}
		}
	}
	return out
}

// shortDate turns "2024-11-05T20:04:20+00:00" into "2024-11-05T20:04".
func shortDate(s string) string {
	if len(s) >= 16 && s[10] == 'T' {
		return s[:16]
	}
	return s
}

// numText formats a float for facts and messages.
func numText(f float64) string { return nonfinite.Literal(f) }
