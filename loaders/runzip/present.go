package runzip

import (
	"strconv"
	"strings"
	"time"

	"evalview/model"
)

// Scoring is how a run's samples are scored: on the judge's 0..10 scale,
// passing at threshold; a sample's score is its attempts' average
// weighted score, and the samples at or above the threshold are what the
// eval site's high-score list returns.
func Scoring(threshold float64, cats []string, names map[string]string) *model.Scoring {
	return &model.Scoring{Max: ScoreMax, Threshold: threshold, Categories: cats, CategoryNames: names,
		ScoreName: "average weighted score", HighScores: "what the site's high-score list returns"}
}

// Present fills ds.Presentation from its facts: how the browser shows a
// run. The header is compact: the facts are many and short, so they are
// written without most of their keys, in the order a reader wants them
// (state, model, language and task, device, generation settings, times,
// endpoint); the figures line carries the progress and the categories.
func Present(ds *model.Dataset) {
	ds.Presentation = model.Presentation{
		Columns:      []string{"id", "category", "title", "sample_status", "attempts", "score"},
		QueryHint:    "category=… errored=yes sample_status=…",
		AttemptScore: "weighted",
		Header:       header(ds),
		Paths:        model.SourcePaths{Attempt: attemptPath},
	}
}

// attemptPath is where attempt i's text is: in its sample file, when
// known, `.attempts[i].response`.
func attemptPath(rec *model.Record, i int) string {
	p := ".attempts[" + strconv.Itoa(i) + "].response"
	if len(rec.Raw) > 0 && rec.Raw[0].File != "" {
		return rec.Raw[0].File + ": " + p
	}
	return p
}

// header composes the run's compact header from its facts.
func header(ds *model.Dataset) *model.Header {
	h := &model.Header{FactsTitle: "Run " + ds.Task, MetricsTitle: "generation summary"}
	used := map[string]bool{"run id": true, "status": true, "pass threshold": true, "samples": true, "attempts": true, "progress": true}
	get := func(k string) string {
		used[k] = true
		return ds.Fact(k)
	}
	val := func(v string) model.Item { return model.Item{{Text: v, Tone: model.ToneValue}} }
	kv := func(k, v string) model.Item {
		return model.Item{{Text: k + " ", Tone: model.ToneKey}, {Text: v, Tone: model.ToneValue}}
	}
	h.Status = statusItem(get("status"), get("score status"))
	req, rep := get("model requested"), get("model reported")
	if req == "" && rep == "" {
		rep = get("model") // a run written by other tools
	}
	switch {
	case req != "" && rep != "" && req != rep:
		h.Items = append(h.Items, kv("model", req+" → "+rep))
	case req != "" || rep != "":
		h.Items = append(h.Items, kv("model", req+rep))
	}
	if lt := strings.Join(nonBlank(get("language"), get("task type")), " · "); lt != "" {
		h.Items = append(h.Items, val(lt))
	}
	label, cpu, gpu := get("device"), get("cpu"), get("gpu")
	if gpu == cpu {
		gpu = ""
	}
	parts := nonBlank(cpu, gpu, get("memory"))
	if v := get("vram"); v != "" {
		parts = append(parts, v+" VRAM")
	}
	dev := label
	if len(parts) > 0 {
		inner := strings.Join(parts, ", ")
		if dev == "" {
			dev = inner
		} else {
			dev += " (" + inner + ")"
		}
	}
	if dev != "" {
		h.Items = append(h.Items, kv("device", dev))
	}
	for _, f := range []struct{ key, label string }{{"repeat count", "repeats"}, {"max tokens", "max tokens"}, {"seed", "seed"}} {
		if v := get(f.key); v != "" {
			h.Items = append(h.Items, kv(f.label, v))
		}
	}
	created, updated := get("created"), get("updated")
	if c, u := shortTime(created, ""), shortTime(updated, created); c != "" || u != "" {
		switch {
		case c != "" && u != "":
			h.Items = append(h.Items, kv("created", c+" → "+u))
		case c != "":
			h.Items = append(h.Items, kv("created", c))
		default:
			h.Items = append(h.Items, kv("updated", u))
		}
	}
	if e := get("endpoint"); e != "" {
		h.Items = append(h.Items, val(e))
	}
	for _, f := range ds.Facts {
		if !used[f.Key] && !strings.HasPrefix(f.Key, "category ") {
			h.Hidden++
		}
	}
	h.Groups = figureGroups(ds)
	return h
}

// statusItem is "completed" or "running, scoring pending", each state in
// its tone.
func statusItem(status, scoring string) model.Item {
	if status == "" {
		status = "status unknown"
	}
	out := model.Item{{Text: status, Tone: statusTone(status)}}
	if scoring != "" && scoring != status {
		out = append(out, model.Span{Text: ", scoring ", Tone: model.ToneMuted}, model.Span{Text: scoring, Tone: statusTone(scoring)})
	}
	return out
}

// statusTone is the tone of a run or sample status word.
func statusTone(s string) model.Tone {
	switch strings.ToLower(s) {
	case "completed", "complete", "done", "success":
		return model.ToneDone
	case "error", "failed", "partial":
		return model.ToneFailed
	case "running", "pending", "scoring":
		return model.TonePending
	}
	return model.ToneUnknown
}

// figureGroups are the figures line's groups after the scores: the
// progress ("completed 20/40 · attempts 101/200 · latest #20 career") and
// the samples per category ("creation 3/5 · career 4/7").
func figureGroups(ds *model.Dataset) [][]model.Item {
	fig := func(label, v string) model.Item {
		return model.Item{{Text: label + " ", Tone: model.ToneLabel}, {Text: v, Tone: model.ToneValue}}
	}
	var groups [][]model.Item
	var prog []model.Item
	if v := ds.Fact("samples"); v != "" {
		prog = append(prog, fig("completed", strings.TrimSuffix(v, " completed")))
	}
	if v := ds.Fact("attempts"); v != "" {
		prog = append(prog, fig("attempts", strings.TrimSuffix(v, " done")))
	}
	if v := ds.Fact("progress"); v != "" {
		v = strings.Replace(strings.TrimPrefix(v, "sample "), " (", " ", 1)
		prog = append(prog, fig("latest", "#"+strings.TrimSuffix(v, ")")))
	}
	if len(prog) > 0 {
		groups = append(groups, prog)
	}
	var cats []model.Item
	for _, f := range ds.Facts {
		c, ok := strings.CutPrefix(f.Key, "category ")
		if !ok {
			continue
		}
		v := f.Value
		if i := strings.Index(v, " samples"); i >= 0 {
			v = v[:i]
		}
		cats = append(cats, fig(c, v))
	}
	if len(cats) > 0 {
		groups = append(groups, cats)
	}
	return groups
}

// shortTime writes an ISO time as "2026-03-24 04:18" (with its offset
// unless it is UTC); when it falls on the same day as ref, only the time.
// Text that is not such a time is returned as it is.
func shortTime(s, ref string) string {
	t, err := parseRunTime(s)
	if err != nil {
		return s
	}
	zone := t.Format("-07:00")
	if zone == "+00:00" {
		zone = ""
	} else {
		zone = " " + zone
	}
	if r, err := parseRunTime(ref); err == nil && r.Format("2006-01-02") == t.Format("2006-01-02") {
		return t.Format("15:04") + zone
	}
	return t.Format("2006-01-02 15:04") + zone
}

// parseRunTime reads the runners' timestamps: RFC 3339, with or without
// fractions and offset.
func parseRunTime(s string) (time.Time, error) {
	var err error
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05"} {
		var t time.Time
		if t, err = time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, err
}

// nonBlank returns the non-empty strings of ss, in order.
func nonBlank(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
