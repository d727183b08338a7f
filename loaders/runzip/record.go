package runzip

import (
	"strings"

	"evalview/model"
	"evalview/model/runstats"
)

// Dimensions are the judge's four score dimensions, in display order.
var Dimensions = []string{"relevance", "quality", "fluency", "satisfaction"}

// ScoreMax is the top of the judge's scale for dimensions and the weighted
// score. The spec does not state it; every real score file uses 0-10.
const ScoreMax = runstats.ScoreMax

// recCtx is what building a record needs besides its two files.
type recCtx struct {
	threshold float64
	// wanted is the manifest's repeat_count, for samples without a target.
	wanted int
}

// attemptKeys are the attempt fields mapped to model.Attempt fields; the
// others become facts.
var attemptKeys = map[string]bool{
	"attempt": true, "status": true, "response": true, "duration_ms": true, "response_chars": true,
	"started_at": true, "ended_at": true, "error_type": true, "error_message": true, "error_body": true,
}

// buildRecord maps a sample file and its score file (sc may be nil) to a
// record. It checks nothing: the loader has done that.
func buildRecord(ctx recCtx, id string, s, sc *doc) *model.Record {
	root := s.root
	r := &model.Record{}
	r.ID = id
	r.Title = sampleTitle(root, s.ref.name)

	evals := map[int]*node{}
	if sc != nil {
		for _, e := range sc.root.get("attempt_evals").itemsOrNil() {
			if n, ok := e.get("attempt").integer(); ok && evals[n] == nil {
				evals[n] = e
			}
		}
	}
	var weights []float64
	errored := 0
	used := map[int]bool{}
	for _, a := range root.get("attempts").itemsOrNil() {
		if a.kind != jsonObject {
			continue
		}
		n, ok := a.get("attempt").integer()
		var e *node
		if ok && !used[n] {
			e, used[n] = evals[n], true
		}
		at := buildAttempt(ctx, s.data, a, sc, e)
		if at.Status == model.StatusError {
			errored++
		}
		if at.HasWeighted {
			weights = append(weights, at.Weighted)
		}
		r.Attempts = append(r.Attempts, at)
	}

	status := text(root, "status")
	labels := map[string]string{"sample_status": status, "errored": "no"}
	if errored > 0 {
		labels["errored"] = "yes"
	}
	if cat := category(root); cat != "" {
		labels["category"] = cat
	}
	r.Labels = model.LabelsOf(labels)
	scoreSummary(ctx, r, weights, strings.EqualFold(status, "error") || (errored > 0 && errored == len(r.Attempts)))
	if t, ok := root.get("repeat_count_target").integer(); ok && t > 0 {
		r.AttemptsWanted = t
	}
	promptAndFields(r, s, "attempts")
	r.Raw = append(r.Raw, model.RawPart{Label: s.ref.name, File: s.ref.display, Line: 1, JSON: s.data})
	if sc != nil {
		r.Raw = append(r.Raw, model.RawPart{Label: sc.ref.name, File: sc.ref.display, Line: 1, JSON: sc.data})
	}
	return r
}

// scoreSummary sets a record's counts, average weighted score and status
// from its attempts and their weights; failed tells that the sample itself
// failed (its status, or every attempt, is an error).
func scoreSummary(ctx recCtx, r *model.Record, weights []float64, failed bool) {
	r.ScoredAttempts = len(weights)
	r.Summary.Attempts = len(r.Attempts)
	r.AttemptsWanted = ctx.wanted
	r.Score, r.HasScore = AverageWeightedScore(weights)
	switch {
	case failed:
		r.Status = model.StatusError
	case !r.HasScore:
		r.Status = model.StatusUnscored
	default:
		r.Status = model.StatusAt(model.StatusFail, r.Score, true, ctx.threshold)
	}
}

// promptAndFields sets the record's prompt (a user message) and lists the
// file's other top-level fields, but skip (the attempts).
func promptAndFields(r *model.Record, d *doc, skip string) {
	root := d.root
	if p, ok := root.get("prompt").str(); ok {
		r.Messages = []model.Message{{Role: model.RoleUser, Segments: []model.Segment{{Type: model.SegText, Text: p}}}}
	}
	for _, k := range root.keys {
		if k == skip || k == "prompt" {
			continue
		}
		v, isJSON := root.fields[k].display(d.data)
		r.Fields = append(r.Fields, model.Field{Name: k, Value: v, IsJSON: isJSON})
	}
}

// buildAttempt maps one attempt and its eval (e may be nil).
func buildAttempt(ctx recCtx, data []byte, a *node, sc *doc, e *node) model.Attempt {
	at := model.Attempt{
		Text:      text(a, "response"),
		ErrorType: text(a, "error_type"),
		Error:     text(a, "error_message"),
	}
	at.Index, _ = a.get("attempt").integer()
	at.DurationMS, _ = a.get("duration_ms").num(true)
	if b := a.get("error_body"); !b.isNull() {
		at.ErrorBody, _ = b.display(data)
	}
	at.StatusText = text(a, "status")
	if a.get("status").isNull() {
		at.StatusText = "completed" // the importer's default
	}
	addFact := func(key string, v *node, d []byte) {
		if !v.isNull() {
			s, _ := v.display(d)
			at.Facts = append(at.Facts, model.Fact{Key: key, Value: s})
		}
	}
	addFact("characters", a.get("response_chars"), data)
	addFact("started", a.get("started_at"), data)
	addFact("ended", a.get("ended_at"), data)
	for _, k := range a.keys {
		if !attemptKeys[k] {
			addFact(k, a.fields[k], data)
		}
	}
	if e != nil {
		dims := e.get("scores")
		for _, name := range Dimensions {
			if v, ok := dims.get(name).num(true); ok {
				at.Scores = append(at.Scores, model.Score{Name: name, Value: v, Max: ScoreMax})
			}
		}
		for _, k := range dims.keysOrNil() {
			if v, ok := dims.fields[k].num(false); ok && !isDimension(k) {
				at.Scores = append(at.Scores, model.Score{Name: k, Value: v})
			}
		}
		at.Weighted, at.HasWeighted = e.get("weighted_score").num(true)
		at.Judge = text(e, "brief_note")
		for _, k := range e.keys {
			if k != "attempt" && k != "scores" && k != "weighted_score" && k != "brief_note" {
				addFact("judge "+k, e.fields[k], sc.data)
			}
		}
	}
	switch {
	case strings.EqualFold(at.StatusText, "error"):
		at.Status = model.StatusError
	case !at.HasWeighted:
		at.Status = model.StatusUnscored
	default:
		at.Status = model.StatusAt(model.StatusFail, at.Weighted, true, ctx.threshold)
	}
	return at
}

func isDimension(k string) bool {
	for _, d := range Dimensions {
		if d == k {
			return true
		}
	}
	return false
}

// sampleTitle is the rendering name, else the older runners' "display",
// else the prompt's first line, else the file name.
func sampleTitle(root *node, name string) string {
	for _, k := range []string{"rendering_name", "display"} {
		if s := strings.TrimSpace(text(root, k)); s != "" {
			return s
		}
	}
	for _, line := range strings.Split(text(root, "prompt"), "\n") {
		if s := strings.TrimSpace(line); s != "" {
			return s
		}
	}
	return name
}

// category is source_category, or the older runners' source_category_name.
func category(root *node) string {
	if c := text(root, "source_category"); c != "" {
		return c
	}
	return text(root, "source_category_name")
}

// AverageWeightedScore is the site's averageWeightedScore: the arithmetic
// mean of the scored attempts' weighted_score, rounded to 2 decimals (half
// up, as JavaScript's Math.round). ok is false when nothing is scored.
func AverageWeightedScore(weights []float64) (avg float64, ok bool) {
	if len(weights) == 0 {
		return 0, false
	}
	sum := 0.0
	for _, w := range weights {
		sum += w
	}
	return runstats.Round2(sum / float64(len(weights))), true
}

// itemsOrNil returns an array's items, nil for anything else.
func (n *node) itemsOrNil() []*node {
	if n == nil || n.kind != jsonArray {
		return nil
	}
	return n.items
}

// keysOrNil returns an object's keys, nil for anything else.
func (n *node) keysOrNil() []string {
	if n == nil || n.kind != jsonObject {
		return nil
	}
	return n.keys
}
