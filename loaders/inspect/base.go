package inspect

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"evalview/loaders/internal/nonfinite"
	"evalview/loaders/jsonl"
	"evalview/model"
)

// baseRecord builds a sample's list row and the detail the summaries give
// (epochs as attempts with their scores); the member adds the rest when
// the record is opened.
func baseRecord(ld *logData, g *group, views []view, red map[redKey]json.RawMessage) *model.Record {
	return recordOf(ld, g, views, red, true)
}

// recordOf is baseRecord; with full unset it builds only what the list
// row and its issues need (no target, facts, texts or raw JSON): listing
// tens of thousands of samples made that much garbage per row, which set
// the peak memory of opening a large log.
func recordOf(ld *logData, g *group, views []view, red map[redKey]json.RawMessage, full bool) *model.Record {
	first := g.epochs[0]
	r := &model.Record{}
	r.ID = g.id
	in := inputText(first.Input)
	r.Title = firstLine(in)
	if full {
		r.Target, r.References = targetOf(first.Target)
		for i, c := range first.Choices {
			r.Options = append(r.Options, model.Option{ID: string(rune('A' + i%26)), Text: c})
		}
	}
	labels := map[string]string{}
	r.Attempts = make([]model.Attempt, len(g.epochs))
	r.AttemptsWanted = wantedEpochs(ld)
	errored := 0
	var limits []string
	for i, s := range g.epochs {
		a := &r.Attempts[i]
		a.Index = s.Epoch
		a.Error = s.Error
		if s.Error != "" {
			errored++
			a.Status, a.StatusText = model.StatusError, "error"
		}
		if s.Limit != "" {
			limits = append(limits, s.Limit)
			if full {
				a.Facts = append(a.Facts, model.Fact{Key: "limit", Value: s.Limit})
			}
		}
		scores := s.scores()
		for si, sc := range scores {
			if f, ok := toFloat(sc.Value); ok && isScalar(sc.Value) && !math.IsNaN(f) && !math.IsInf(f, 0) {
				a.Scores = append(a.Scores, model.Score{Name: sc.Name, Value: f, Max: maxOf(f)})
			}
			if si == 0 && full {
				if a.StatusText == "" {
					a.StatusText = valueText(sc.Value)
				}
				if sc.Answer != nil {
					a.Text = *sc.Answer
				}
				if sc.Explanation != nil {
					a.Judge = *sc.Explanation
				}
			}
		}
		if len(views) > 0 && a.Status != model.StatusError {
			if raw, _ := epochValue(s, views[0]); raw != nil {
				if f, ok := toFloat(raw); ok {
					a.Weighted, a.HasWeighted = f, !math.IsNaN(f)
					a.Status = statusOf(f, views[0])
				}
			}
		}
		if s.TotalTime != nil {
			a.DurationMS = *s.TotalTime * 1000
		}
		if !full {
			continue
		}
		if len(scores) > 0 {
			a.Facts = append(a.Facts, model.Fact{Key: "scores", Value: scoresLine(scores)})
		}
		if s.Retries != nil && *s.Retries > 0 {
			a.Facts = append(a.Facts, model.Fact{Key: "retries", Value: fmt.Sprint(*s.Retries)})
		}
		if s.MessageCount != nil {
			a.Facts = append(a.Facts, model.Fact{Key: "messages", Value: fmt.Sprint(*s.MessageCount)})
		}
	}
	r.Summary.Attempts = len(r.Attempts)
	for _, a := range r.Attempts {
		if a.HasWeighted {
			r.ScoredAttempts++
		}
	}
	r.Outcomes = make([]model.Outcome, len(views))
	for vi, v := range views {
		r.Outcomes[vi] = outcomeOf(g, v, red, ld.path, &r.Issues)
	}
	if len(views) > 0 {
		o := r.Outcomes[0]
		r.Status, r.Score, r.HasScore = o.Status, o.Score, o.HasScore
	}
	if errored == len(g.epochs) {
		r.Status = model.StatusError
	}
	if errored > 0 {
		labels["errored"] = "yes"
	} else {
		labels["errored"] = "no"
	}
	if len(limits) > 0 {
		labels["limit"] = limits[0]
	}
	for _, e := range objectKeys(first.Metadata) {
		if jsonl.IsScalar(e.Value) {
			if t := jsonl.ScalarText(e.Value); len(t) <= 64 {
				labels["metadata."+e.Key] = t
			}
		}
	}
	r.Labels = model.LabelsOf(labels)
	r.Issues = append(r.Issues, sampleIssues(ld, g)...)
	r.Errors, r.Warnings = model.CountIssues(r.Issues)
	for _, s := range g.epochs {
		if full {
			r.Raw = append(r.Raw, model.RawPart{Label: fmt.Sprintf("summary, epoch %d", s.Epoch), File: summaryFile(ld), JSON: nonfinite.Restore(s.raw)})
		}
	}
	return r
}

// outcomeOf reduces a sample's epochs under one view. The reduction is
// recomputed when the reducer is a standard one and every epoch value is
// a scalar; otherwise reductions.json gives it. A logged reduction that
// disagrees with the recomputed one is a reduction-mismatch.
func outcomeOf(g *group, v view, red map[redKey]json.RawMessage, path string, issues *[]model.Issue) model.Outcome {
	var vals []json.RawMessage
	scalar := true
	var answers []string
	for _, s := range g.epochs {
		raw, sc := epochValue(s, v)
		if raw == nil {
			continue
		}
		if !isScalar(raw) {
			scalar = false
		}
		vals = append(vals, raw)
		if sc != nil && sc.Answer != nil {
			answers = append(answers, *sc.Answer)
		}
	}
	o := model.Outcome{}
	if len(answers) > 0 {
		o.Answer = answers[0]
	}
	redName := ""
	if v.named {
		redName = v.reducer
	}
	logged, hasLogged := red[redKey{v.scorer, redName, g.id}]
	if hasLogged && v.key != "" {
		hasLogged = false
		for _, e := range objectKeys(logged) {
			if e.Key == v.key {
				logged, hasLogged = e.Value, true
			}
		}
	}
	value, ok := 0.0, false
	if scalar && len(vals) > 0 {
		value, ok = reduceScalar(v.reducer, vals)
	}
	if ok && hasLogged {
		if lf, lok := toFloat(logged); lok && !closeEnough(lf, value) {
			*issues = append(*issues, model.Errorf("reduction-mismatch", path+"!"+reductionsJSON, 0, g.id,
				"scorer %s: reductions.json gives %s, but the %d epoch score(s) reduce with %s to %s",
				v.label, valueText(logged), len(vals), v.reducer, numText(value)))
		}
	}
	if !ok && hasLogged {
		value, ok = toFloat(logged)
	}
	if !ok || math.IsNaN(value) {
		return o
	}
	o.Present, o.Score, o.HasScore = true, value, true
	o.Status = statusOf(value, v)
	for _, m := range v.metrics {
		if name := metricName(m); name == "accuracy" || name == "mean" {
			o.Metrics = append(o.Metrics, model.MetricValue{Name: m.Key, Value: value})
		}
	}
	return o
}

// metricName is an EvalMetric's name ("accuracy"), falling back to its key.
func metricName(m kv) string {
	var em evalMetric
	if json.Unmarshal(m.Value, &em) == nil && em.Name != "" {
		return strings.TrimPrefix(em.Name, "inspect_ai/")
	}
	return m.Key
}

// sampleIssues are a sample's findings known from the summaries.
func sampleIssues(ld *logData, g *group) []model.Issue {
	var out []model.Issue
	for _, s := range g.epochs {
		where := ld.path + "!" + sampleName(g.id, s.Epoch)
		if ld.has != nil && !ld.has(g.id, s.Epoch) {
			out = append(out, model.Errorf("missing-member", where, 0, g.id,
				"epoch %d is in the summaries but its member is not in the log; Inspect's viewer cannot open it", s.Epoch))
		}
		if s.Error != "" {
			out = append(out, model.Errorf("sample-error", where, 0, g.id, "epoch %d errored: %s", s.Epoch, jsonl.Clip(firstLine(s.Error), 200)))
		}
		if s.Limit != "" {
			out = append(out, model.Warnf("sample-limit", where, 0, g.id, "epoch %d hit the %s limit", s.Epoch, s.Limit))
		}
	}
	return out
}

// wantedEpochs is the configured epoch count, 0 when unknown.
func wantedEpochs(ld *logData) int {
	if e := ld.header.Eval.Config.Epochs; e != nil {
		return *e
	}
	return 0
}

func summaryFile(ld *logData) string {
	if ld.format == "json" {
		return ld.path
	}
	if ld.running {
		return ld.path + "!" + journalSummary
	}
	return ld.path + "!" + summariesJSON
}

// maxOf is a score's scale top: 1 for values in [0, 1], unknown else.
func maxOf(f float64) float64 {
	if f >= 0 && f <= 1 {
		return 1
	}
	return 0
}

// scoresLine renders an epoch's scores: "match C, includes 1".
func scoresLine(ss []namedScore) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = s.Name + " " + jsonl.Clip(valueText(s.Value), 80)
	}
	return strings.Join(parts, ", ")
}

// inputText is a sample input's text: the string, or the text of its
// messages.
func inputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var msgs []rawMessage
	if json.Unmarshal(raw, &msgs) == nil {
		for i := len(msgs) - 1; i >= 0; i-- {
			if msgs[i].Role == "user" {
				return contentText(msgs[i].Content)
			}
		}
		if len(msgs) > 0 {
			return contentText(msgs[0].Content)
		}
	}
	return ""
}

// targetOf reads a target: a string, or a list of strings.
func targetOf(raw json.RawMessage) (string, []string) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, []string{s}
	}
	var l []string
	if json.Unmarshal(raw, &l) == nil {
		return strings.Join(l, " | "), l
	}
	return "", nil
}

func firstLine(s string) string {
	whole := s
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return jsonl.Own(jsonl.Clip(s, 200), whole)
}
