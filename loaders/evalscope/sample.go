package evalscope

import (
	"encoding/json"
	"strings"

	"evalview/loaders/internal/nonfinite"
	"evalview/loaders/jsonl"
	"evalview/model"
)

// A sample's record from its prediction and review lines, in the current
// layout (1.x: ModelResult, ReviewResult) and the legacy one (0.8 to
// 0.17: chat completions with reviews in their choices).

// buildCurrent reads 1.x lines: a prediction's messages and model
// output, a review's target and sample_score.
func buildCurrent(sm *sample, p, r *line, mainKey string) {
	rec := sm.rec
	if p != nil {
		if m, ok := p.obj.Get("messages"); ok {
			rec.Messages = chatMessages(m, true)
		}
		if out, ok := p.obj.Get("model_output"); ok {
			rec.Attempts = outputAttempts(out)
		}
		if md, ok := p.obj.Get("metadata"); ok && !jsonl.IsEmpty(md) {
			rec.Fields = append(rec.Fields, fieldsOf(md)...)
		}
	}
	if r == nil {
		return
	}
	if len(rec.Messages) == 0 {
		if m, ok := r.obj.Get("messages"); ok {
			rec.Messages = chatMessages(m, true)
		} else if in, ok := r.obj.Str("input"); ok && in != "" {
			rec.Messages = []model.Message{{Role: model.RoleUser, Segments: []model.Segment{{Type: model.SegText, Text: in}}}}
		}
	}
	if t, ok := r.obj.Get("target"); ok && !jsonl.IsEmpty(t) {
		rec.References = textsOf(t)
	}
	ssRaw, ok := r.obj.Get("sample_score")
	if !ok {
		return
	}
	ss, _ := jsonl.ParseObject(ssRaw)
	scRaw, _ := ss.Get("score")
	sc, _ := jsonl.ParseObject(scRaw)
	valRaw, _ := sc.Get("value")
	vals, _ := jsonl.ParseObject(valRaw)
	var rows [][]string
	first := ""
	bools := map[string]bool{}
	for _, m := range vals.Members {
		if first == "" {
			first = m.Key
		}
		if b, ok := jsonl.Bool(m.Value); ok {
			bools[m.Key] = true
			sm.values[m.Key] = 0
			if b {
				sm.values[m.Key] = 1
			}
		} else if f, ok := nonfinite.Float(m.Value); ok {
			sm.values[m.Key] = f
		} else if f, ok := jsonl.Float(m.Value); ok {
			sm.values[m.Key] = f
		}
		rows = append(rows, []string{m.Key, jsonl.ScalarText(m.Value)})
	}
	main := mainKey
	if _, ok := sm.values[main]; !ok {
		main, _ = sc.Str("main_score_name")
		if _, ok := sm.values[main]; !ok {
			main = first
		}
	}
	if status, ok := sc.Str("status"); ok && status != "" && status != "success" {
		msg := "the review's score is not usable (status " + status + "): the sample drops out of the aggregation"
		if e, ok := sc.Str("explanation"); ok && e != "" {
			msg += ": " + jsonl.Clip(e, 300)
		}
		rec.Issues = append(rec.Issues, model.Warnf("review-error", r.file, r.n, rec.ID, "%s", msg))
		rec.Status = model.StatusError
	}
	if v, ok := sm.values[main]; ok {
		sm.main = main
		rec.Score, rec.HasScore = v, true
		sm.binary = bools[main]
	}
	if len(rec.Attempts) == 0 {
		a := model.Attempt{Index: 1}
		if t, ok := sc.Str("prediction"); ok {
			a.Text = t
		} else {
			a.NoText = "no prediction file for this sample: the review holds no answer"
		}
		rec.Attempts = append(rec.Attempts, a)
	}
	a := &rec.Attempts[0]
	if rec.HasScore {
		a.Weighted, a.HasWeighted = rec.Score, true
	}
	if e, ok := sc.Str("extracted_prediction"); ok && e != "" {
		a.Facts = append([]model.Fact{{Key: "extracted", Value: e}}, a.Facts...)
	}
	if e, ok := sc.Str("explanation"); ok && e != "" {
		a.Judge = e
	}
	for _, k := range []string{"judge_summary", "judge_detail"} {
		if j, ok := sc.Get(k); ok && !jsonl.IsEmpty(j) {
			rec.Sections = append(rec.Sections, model.Section{Title: "judge", Type: model.SectionJSON, Tab: scoresTab, JSON: jsonl.Pretty(j), Folded: true})
		}
	}
	if len(rows) > 0 {
		rec.Sections = append([]model.Section{{Title: "score", Type: model.SectionTable, Tab: scoresTab,
			Table: &model.Table{Columns: []string{"name", "value"}, Rows: rows}}}, rec.Sections...)
	}
	if md, ok := sc.Get("metadata"); ok && !jsonl.IsEmpty(md) {
		rec.Sections = append(rec.Sections, model.Section{Title: "score metadata", Type: model.SectionJSON, Tab: scoresTab, JSON: jsonl.Pretty(md), Folded: true})
	}
}

// buildLegacy reads 0.x lines: a chat completion with raw_input (and
// origin_prompt before 0.13), whose choices a review scores one by one.
func buildLegacy(sm *sample, p, r *line) {
	rec := sm.rec
	src := p
	if r != nil {
		src = r // a review is its prediction with the reviews added
	}
	if op, ok := src.obj.Get("origin_prompt"); ok {
		rec.Messages = legacyPrompt(op)
	}
	raw, _ := src.obj.Get("raw_input")
	if o, ok := jsonl.ParseObject(raw); ok {
		for _, m := range o.Members {
			rec.Fields = append(rec.Fields, model.Field{Name: m.Key, Value: jsonl.ScalarText(m.Value), IsJSON: jsonl.KindOf(m.Value) != jsonl.KindString})
		}
		if len(rec.Messages) == 0 {
			for _, k := range []string{"question", "query", "problem", "input", "prompt", "ctx", "text"} {
				if s, ok := o.Str(k); ok && s != "" {
					rec.Messages = []model.Message{{Role: model.RoleUser, Label: "raw_input." + k, Segments: []model.Segment{{Type: model.SegText, Text: s}}}}
					break
				}
			}
		}
	}
	choices, _ := src.obj.Get("choices")
	els, _ := jsonl.Array(choices)
	var results []float64
	for i, e := range els {
		c, _ := jsonl.ParseObject(e)
		a := model.Attempt{Index: i + 1}
		msg, _ := c.Get("message")
		if mo, ok := jsonl.ParseObject(msg); ok {
			if content, ok := mo.Get("content"); ok {
				a.Text = contentText(content)
			}
		}
		if fr, ok := c.Str("finish_reason"); ok && fr != "" {
			a.Facts = append(a.Facts, model.Fact{Key: "finish reason", Value: fr})
		}
		if rv, ok := c.Get("review"); ok {
			ro, _ := jsonl.ParseObject(rv)
			if g, ok := ro.Get("gold"); ok && len(rec.References) == 0 && !jsonl.IsEmpty(g) {
				rec.References = textsOf(g)
			}
			if pr, ok := ro.Get("pred"); ok && !jsonl.IsEmpty(pr) {
				a.Facts = append([]model.Fact{{Key: "extracted", Value: jsonl.ScalarText(pr)}}, a.Facts...)
			}
			if res, ok := ro.Get("result"); ok {
				if b, ok := jsonl.Bool(res); ok {
					v := 0.0
					if b {
						v = 1
					}
					a.Weighted, a.HasWeighted = v, true
					results = append(results, v)
				} else if f, ok := jsonl.Float(res); ok {
					a.Weighted, a.HasWeighted = f, true
					results = append(results, f)
				} else {
					a.Facts = append(a.Facts, model.Fact{Key: "result", Value: jsonl.Compact(res)})
				}
			}
		}
		rec.Attempts = append(rec.Attempts, a)
	}
	if len(results) > 0 {
		mean := 0.0
		for _, v := range results {
			mean += v
		}
		mean /= float64(len(results))
		sm.values["result"] = mean
		sm.main = "result"
		rec.Score, rec.HasScore = mean, true
	}
	if u, ok := src.obj.Get("usage"); ok && len(rec.Attempts) > 0 {
		rec.Attempts[0].Facts = append(rec.Attempts[0].Facts, usageFacts(u)...)
	}
}

// legacyPrompt reads 0.x's origin_prompt: {data: [prompt], system_prompt}
// or {messages: [...]}.
func legacyPrompt(raw json.RawMessage) []model.Message {
	o, ok := jsonl.ParseObject(raw)
	if !ok {
		if s := jsonl.ScalarText(raw); s != "" {
			return []model.Message{{Role: model.RoleUser, Segments: []model.Segment{{Type: model.SegText, Text: s}}}}
		}
		return nil
	}
	if m, ok := o.Get("messages"); ok {
		return chatMessages(m, false)
	}
	var out []model.Message
	if s, ok := o.Str("system_prompt"); ok && s != "" {
		out = append(out, model.Message{Role: model.RoleSystem, Segments: []model.Segment{{Type: model.SegText, Text: s}}})
	}
	if d, ok := o.Get("data"); ok {
		els, _ := jsonl.Array(d)
		for _, e := range els {
			out = append(out, model.Message{Role: model.RoleUser, Segments: []model.Segment{{Type: model.SegText, Text: contentText(e)}}})
		}
	}
	return out
}

// chatMessages reads a list of chat messages ({role, content}); with
// dropOutput, a last assistant message the model generated (source
// "generate") is left out: it is the attempt.
func chatMessages(raw json.RawMessage, dropOutput bool) []model.Message {
	els, ok := jsonl.Array(raw)
	if !ok {
		return nil
	}
	var out []model.Message
	for i, e := range els {
		o, ok := jsonl.ParseObject(e)
		if !ok {
			continue
		}
		role, _ := o.Str("role")
		if src, _ := o.Str("source"); dropOutput && i == len(els)-1 && role == "assistant" && src == "generate" {
			continue
		}
		content, _ := o.Get("content")
		m := model.Message{Role: model.Role(role), Segments: []model.Segment{{Type: model.SegText, Text: contentText(content)}}}
		if tc, ok := o.Get("tool_calls"); ok && !jsonl.IsEmpty(tc) {
			calls, _ := jsonl.Array(tc)
			for _, c := range calls {
				co, _ := jsonl.ParseObject(c)
				name, _ := co.Str("function")
				id, _ := co.Str("id")
				args, _ := co.Get("arguments")
				m.Segments = append(m.Segments, model.Segment{Type: model.SegToolCall, ToolName: name, ToolCallID: id, Arguments: jsonl.Compact(args)})
			}
		}
		if id, ok := o.Str("tool_call_id"); ok {
			m.ToolCallID = id
		}
		out = append(out, m)
	}
	return out
}

// outputAttempts reads a 1.x model_output: each choice an attempt, with
// the output's usage, time and error on the first.
func outputAttempts(raw json.RawMessage) []model.Attempt {
	o, ok := jsonl.ParseObject(raw)
	if !ok {
		return nil
	}
	var out []model.Attempt
	choices, _ := o.Get("choices")
	els, _ := jsonl.Array(choices)
	for i, e := range els {
		c, _ := jsonl.ParseObject(e)
		a := model.Attempt{Index: i + 1}
		msg, _ := c.Get("message")
		if mo, ok := jsonl.ParseObject(msg); ok {
			content, _ := mo.Get("content")
			a.Text = contentText(content)
			if rs := reasoningText(content); rs != "" {
				a.Facts = append(a.Facts, model.Fact{Key: "reasoning", Value: rs})
			}
		}
		for _, k := range []string{"stop_reason", "finish_reason"} {
			if s, ok := c.Str(k); ok && s != "" {
				a.Facts = append(a.Facts, model.Fact{Key: strings.ReplaceAll(k, "_", " "), Value: s})
			}
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		out = append(out, model.Attempt{Index: 1, NoText: "the model output has no choice"})
	}
	if u, ok := o.Get("usage"); ok {
		out[0].Facts = append(out[0].Facts, usageFacts(u)...)
	}
	if t, ok := o.Get("time"); ok {
		if f, ok := jsonl.Float(t); ok {
			out[0].DurationMS = f * 1000
		}
	}
	if e, ok := o.Str("error"); ok && e != "" {
		out[0].Error = e
		out[0].Status = model.StatusError
	}
	return out
}

// contentText is a message's content: a string, or its typed parts'
// text ("text" parts; an image, audio or video part by its kind).
func contentText(raw json.RawMessage) string {
	if s, ok := jsonl.String(raw); ok {
		return s
	}
	els, ok := jsonl.Array(raw)
	if !ok {
		return jsonl.ScalarText(raw)
	}
	var parts []string
	for _, e := range els {
		o, ok := jsonl.ParseObject(e)
		if !ok {
			parts = append(parts, jsonl.ScalarText(e))
			continue
		}
		t, _ := o.Str("type")
		switch t {
		case "text", "":
			if s, ok := o.Str("text"); ok {
				parts = append(parts, s)
			}
		case "reasoning":
			// shown beside the answer (reasoningText)
		default:
			parts = append(parts, "["+t+"]")
		}
	}
	return strings.Join(parts, "\n")
}

// reasoningText is a content list's reasoning parts.
func reasoningText(raw json.RawMessage) string {
	els, ok := jsonl.Array(raw)
	if !ok {
		return ""
	}
	var parts []string
	for _, e := range els {
		o, _ := jsonl.ParseObject(e)
		if t, _ := o.Str("type"); t == "reasoning" {
			if s, ok := o.Str("reasoning"); ok {
				parts = append(parts, s)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// usageFacts are a usage object's token counts.
func usageFacts(raw json.RawMessage) []model.Fact {
	o, ok := jsonl.ParseObject(raw)
	if !ok {
		return nil
	}
	var out []model.Fact
	for _, m := range o.Members {
		if jsonl.KindOf(m.Value) == jsonl.KindNumber {
			out = append(out, model.Fact{Key: strings.ReplaceAll(m.Key, "_", " "), Value: jsonl.ScalarText(m.Value)})
		}
	}
	return out
}

// fieldsOf lists an object's members as fields.
func fieldsOf(raw json.RawMessage) []model.Field {
	o, ok := jsonl.ParseObject(raw)
	if !ok {
		return nil
	}
	var out []model.Field
	for _, m := range o.Members {
		out = append(out, model.Field{Name: m.Key, Value: jsonl.ScalarText(m.Value), IsJSON: jsonl.KindOf(m.Value) != jsonl.KindString})
	}
	return out
}

// textsOf is a target: a string, or a list of them.
func textsOf(raw json.RawMessage) []string {
	if els, ok := jsonl.Array(raw); ok {
		var out []string
		for _, e := range els {
			out = append(out, jsonl.ScalarText(e))
		}
		return out
	}
	return []string{jsonl.ScalarText(raw)}
}

// scoresTab is the detail tab of a sample's scores.
const scoresTab = "Scores"
