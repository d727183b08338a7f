package helm

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"evalview/loaders/source"
	"evalview/model"
)

// index holds a run's records: their sources and list rows. A record's
// detail is built when it is opened, its request states' JSON read from
// scenario_state.json then.
type index struct {
	dir       string
	rowMetric string
	binary    bool
	trials    int
	recs      []*rec
	sums      []model.Summary
}

// Len returns the number of records.
func (x *index) Len() int { return len(x.sums) }

// Summary returns record i's list row.
func (x *index) Summary(i int) model.Summary { return x.sums[i] }

// Done is true: a run is read whole when it opens.
func (x *index) Done() bool { return true }

// Record builds record i's detail.
func (x *index) Record(i int) (*model.Record, error) {
	r := x.recs[i]
	out := &model.Record{Summary: x.sums[i]}
	in := r.inst
	// The prompt: the first request's (trial 0), else the instance's input.
	if len(r.states) > 0 {
		out.Messages = requestMessages(r.states[0])
	}
	if len(out.Messages) == 0 {
		out.Messages = inputMessages(in)
	}
	// References, lettered as the output mapping letters them.
	letters := map[string]string{}
	for _, rs := range r.states {
		for l, t := range rs.OutputMapping {
			if _, ok := letters[t]; !ok {
				letters[t] = l
			}
		}
	}
	for ri, ref := range in.References {
		id := letters[ref.Output.Text]
		if id == "" {
			id = strconv.Itoa(ri)
		}
		text := ref.Output.Text
		if text == "" && ref.Output.MultimediaContent != nil {
			text = mediaText(ref.Output.MultimediaContent)
		}
		out.Options = append(out.Options, model.Option{ID: id, Text: text, Correct: ref.correct()})
		if ref.correct() {
			out.References = append(out.References, text)
		}
	}
	out.Target = strings.Join(out.References, " | ")

	// Attempts: each request's completions, in trial order.
	n := 0
	for _, rs := range r.states {
		for _, a := range x.attempts(r, rs) {
			n++
			a.Index = n
			out.Attempts = append(out.Attempts, a)
		}
	}

	// Fields: where the instance sits, and its extra data.
	field := func(name, v string, isJSON bool) {
		out.Fields = append(out.Fields, model.Field{Name: name, Value: v, IsJSON: isJSON})
	}
	field("id", in.ID, false)
	field("split", r.ctx.split, false)
	if r.ctx.subSplit != "" {
		field("sub_split", r.ctx.subSplit, false)
	}
	if r.key.perturbation != "" {
		field("perturbation", r.key.perturbation, true)
	}
	for _, k := range slices.Sorted(maps.Keys(in.ExtraData)) {
		v := in.ExtraData[k]
		var s string
		if json.Unmarshal(v, &s) == nil {
			field(k, s, false)
		} else {
			field(k, string(v), true)
		}
	}
	if len(r.states) > 0 {
		rs := r.states[0]
		if rs.NumTrainInstances != nil {
			field("num_train_instances", strconv.Itoa(*rs.NumTrainInstances), true)
		}
		if rs.PromptTruncated {
			field("prompt_truncated", "true", true)
		}
	}

	// The per-instance stats, every trial.
	if len(r.stats) > 0 {
		tr := slices.Sorted(maps.Keys(r.stats))
		tab := &model.Table{Columns: []string{"metric", "value"}}
		if len(tr) > 1 {
			tab.Columns = []string{"trial", "metric", "value"}
		}
		for _, t := range tr {
			for _, s := range r.stats[t] {
				v := "–"
				if s.Count > 0 && s.Mean != nil {
					v = strconv.FormatFloat(*s.Mean, 'g', -1, 64)
				}
				name := s.Name.Name
				row := []string{name, v}
				if len(tr) > 1 {
					row = append([]string{strconv.Itoa(t)}, row...)
				}
				tab.Rows = append(tab.Rows, row)
			}
		}
		out.Sections = append(out.Sections, model.Section{Title: "per-instance stats", Type: model.SectionTable, Tab: "Scores", Table: tab})
	}
	// The annotators' output (LLM judges), as written.
	for _, rs := range r.states {
		for _, name := range slices.Sorted(maps.Keys(rs.Annotations)) {
			var v any
			_ = json.Unmarshal(rs.Annotations[name], &v)
			b, _ := json.MarshalIndent(v, "", "  ")
			title := "annotation " + name
			if x.trials > 1 {
				title += " (trial " + strconv.Itoa(rs.Trial) + ")"
			}
			out.Sections = append(out.Sections, model.Section{Title: title, Type: model.SectionJSON, Tab: "Judge", JSON: string(b), Folded: true})
		}
	}
	// The request's parameters.
	if len(r.states) > 0 {
		q := r.states[0].Request
		var facts []model.Fact
		add := func(k, v string) {
			if v != "" {
				facts = append(facts, model.Fact{Key: k, Value: v})
			}
		}
		add("model", q.Model)
		if q.ModelDeployment != q.Model {
			add("deployment", q.ModelDeployment)
		}
		if q.Temperature != nil {
			add("temperature", strconv.FormatFloat(*q.Temperature, 'g', -1, 64))
		}
		if q.MaxTokens != nil {
			add("max_tokens", strconv.Itoa(*q.MaxTokens))
		}
		if q.NumCompletions != nil {
			add("num_completions", strconv.Itoa(*q.NumCompletions))
		}
		if q.TopKPerToken != nil {
			add("top_k_per_token", strconv.Itoa(*q.TopKPerToken))
		}
		if len(q.StopSequences) > 0 && string(q.StopSequences) != "null" && string(q.StopSequences) != "[]" {
			add("stop_sequences", string(q.StopSequences))
		}
		if q.EchoPrompt {
			add("echo_prompt", "true")
		}
		if len(facts) > 0 {
			out.Sections = append(out.Sections, model.Section{Title: "request", Type: model.SectionFacts, Facts: facts})
		}
	}
	// The source JSON, and the issues of failed requests.
	for j, rs := range r.states {
		if rs.Result == nil {
			out.Issues = append(out.Issues, model.Warnf("no-result", rs.file, rs.line, out.ID, "request %d (trial %d) has no result: it was never executed", j+1, rs.Trial))
		} else if !rs.Result.Success {
			msg := rs.Result.Error
			if msg == "" {
				msg = "no error message"
			}
			out.Issues = append(out.Issues, model.Warnf("request-failed", rs.file, rs.line, out.ID, "request %d (trial %d) failed: %s", j+1, rs.Trial, msg))
		}
		if rs.file == "" {
			continue
		}
		raw, err := rawOf(rs)
		if err != nil {
			return out, fmt.Errorf("%s: %w", rs.file, err)
		}
		out.Raw = append(out.Raw, model.RawPart{Label: "request state " + strconv.Itoa(j+1), File: rs.file, Line: rs.line, JSON: raw})
	}
	if len(out.Raw) == 0 {
		// Read from the display files: the instance as decoded (its
		// fields as instances.json names them).
		b, _ := json.MarshalIndent(in, "", "  ")
		out.Raw = append(out.Raw, model.RawPart{Label: "instance, as read", File: source.Join(x.dir, instancesJSON), JSON: b})
	}
	out.Errors, out.Warnings = model.CountIssues(out.Issues)
	return out, nil
}

// attempts are a request state's completions.
func (x *index) attempts(r *rec, rs *requestState) []model.Attempt {
	var scores []model.Score
	trialValue, hasValue := 0.0, false
	var a acc
	for _, s := range r.stats[rs.Trial] {
		if s.Count == 0 || s.Mean == nil || s.Name.context() != r.ctx {
			continue
		}
		if s.Name.Name == x.rowMetric {
			a.merge(s)
		}
		if !general[s.Name.Name] {
			scores = append(scores, model.Score{Name: s.Name.Name, Value: *s.Mean})
		}
	}
	if a.count > 0 {
		trialValue, hasValue = a.mean(), true
	}
	if len(scores) == 0 && rs.display != nil {
		for _, k := range slices.Sorted(maps.Keys(rs.display)) {
			if !general[k] {
				scores = append(scores, model.Score{Name: k, Value: rs.display[k]})
			}
		}
	}
	base := model.Attempt{Scores: scores}
	if hasValue {
		base.Weighted, base.HasWeighted = trialValue, true
		if x.binary {
			base.Status = model.StatusFail
			if trialValue == 1 {
				base.Status = model.StatusPass
			}
		}
	}
	var facts []model.Fact
	if x.trials > 1 {
		facts = append(facts, model.Fact{Key: "trial", Value: strconv.Itoa(rs.Trial)})
	}
	if rs.ReferenceIndex != nil {
		ref := strconv.Itoa(*rs.ReferenceIndex)
		if i := *rs.ReferenceIndex; i >= 0 && i < len(r.inst.References) {
			ref += ": " + r.inst.References[i].Output.Text
		}
		facts = append(facts, model.Fact{Key: "reference", Value: ref})
	}
	if rs.RequestMode != "" {
		facts = append(facts, model.Fact{Key: "request mode", Value: rs.RequestMode})
	}
	base.Judge = judgeOf(rs.Annotations)
	if x.trials > 1 {
		base.Messages = requestMessages(rs)
	}
	if rs.Result == nil {
		base.Status, base.StatusText = model.StatusError, "not executed"
		base.NoText = "the request was never executed: it has no result"
		base.Facts = facts
		return []model.Attempt{base}
	}
	if !rs.Result.Success {
		base.Status, base.StatusText = model.StatusError, "failed"
		base.Error = rs.Result.Error
	}
	if rs.Result.RequestTime != nil {
		base.DurationMS = *rs.Result.RequestTime * 1000
	}
	if rs.Result.Cached {
		facts = append(facts, model.Fact{Key: "cached", Value: "true"})
	}
	if len(rs.Result.Completions) == 0 {
		base.Facts = facts
		if rs.Result.Success {
			base.NoText = "the result holds no completion"
		}
		return []model.Attempt{base}
	}
	var out []model.Attempt
	for ci, c := range rs.Result.Completions {
		at := base
		at.Text = c.Text
		if c.MultimodalContent != nil {
			if t := mediaText(c.MultimodalContent); t != "" {
				at.Text = t + " " + at.Text // as run_display.py shows it
			}
		}
		f := append([]model.Fact(nil), facts...)
		if len(rs.Result.Completions) > 1 {
			f = append(f, model.Fact{Key: "completion", Value: strconv.Itoa(ci + 1)})
		}
		if m := mappedOutput(rs, c.Text); m != "" {
			f = append(f, model.Fact{Key: "mapped output", Value: m})
		}
		if c.Logprob != nil {
			f = append(f, model.Fact{Key: "logprob", Value: strconv.FormatFloat(*c.Logprob, 'g', -1, 64)})
		}
		if fr := finishReason(c.FinishReason); fr != "" {
			f = append(f, model.Fact{Key: "finish reason", Value: fr})
		}
		if c.Thinking != nil && c.Thinking.Text != "" {
			f = append(f, model.Fact{Key: "thinking", Value: c.Thinking.Text})
		}
		at.Facts = f
		out = append(out, at)
	}
	return out
}

// mappedOutput is the answer a completion maps to through the output
// mapping (multiple choice: "B" is the second choice), as run_display.py
// maps it (the stripped text; the adapter's output_mapping_pattern is
// not applied here).
func mappedOutput(rs *requestState, text string) string {
	if rs.mapped != nil {
		return *rs.mapped
	}
	if rs.OutputMapping == nil {
		return ""
	}
	return rs.OutputMapping[strings.TrimSpace(text)]
}

// finishReason is a completion's finish reason ({"reason": "stop"}).
func finishReason(raw json.RawMessage) string {
	var fr struct {
		Reason string `json:"reason"`
	}
	if json.Unmarshal(raw, &fr) == nil {
		return fr.Reason
	}
	return ""
}

// judgeOf writes the annotators' verdicts: every short field but the
// prompt they were given, "annotator.field: value", one a line.
func judgeOf(ann map[string]json.RawMessage) string {
	var lines []string
	for _, name := range slices.Sorted(maps.Keys(ann)) {
		var m map[string]any
		if json.Unmarshal(ann[name], &m) != nil {
			var list []map[string]any
			if json.Unmarshal(ann[name], &list) == nil && len(list) > 0 {
				m = list[0]
			}
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			if k == "prompt_text" || strings.HasSuffix(k, "_prompt") {
				continue
			}
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			var v string
			switch x := m[k].(type) {
			case string:
				v = x
			case nil:
				continue
			default:
				b, _ := json.Marshal(x)
				v = string(b)
			}
			lines = append(lines, name+"."+k+": "+v)
		}
	}
	return strings.Join(lines, "\n")
}

// requestMessages is a request's prompt as messages: its chat messages,
// its multimodal prompt, or its prompt text.
func requestMessages(rs *requestState) []model.Message {
	q := rs.Request
	if len(q.Messages) > 0 {
		var out []model.Message
		for _, m := range q.Messages {
			out = append(out, model.Message{Role: model.Role(m.Role), Segments: []model.Segment{{Type: model.SegText, Text: contentText(m.Content)}}})
		}
		return out
	}
	if q.MultimodalPrompt != nil {
		return []model.Message{{Role: model.RoleUser, Label: "prompt", Segments: mediaSegments(q.MultimodalPrompt)}}
	}
	if q.Prompt != "" {
		return []model.Message{{Role: model.RoleUser, Label: "prompt", Segments: []model.Segment{{Type: model.SegText, Text: q.Prompt}}}}
	}
	return nil
}

// inputMessages is an instance's input, for a record without requests.
func inputMessages(in instance) []model.Message {
	if len(in.Input.Messages) > 0 {
		var out []model.Message
		for _, m := range in.Input.Messages {
			out = append(out, model.Message{Role: model.Role(m.Role), Segments: []model.Segment{{Type: model.SegText, Text: contentText(m.Content)}}})
		}
		return out
	}
	if in.Input.MultimediaContent != nil {
		return []model.Message{{Role: model.RoleUser, Label: "input", Segments: mediaSegments(in.Input.MultimediaContent)}}
	}
	if in.Input.Text == "" {
		return nil
	}
	return []model.Message{{Role: model.RoleUser, Label: "input", Segments: []model.Segment{{Type: model.SegText, Text: in.Input.Text}}}}
}

// mediaSegments are a multimedia object's parts: text, and media by their
// location.
func mediaSegments(m *multimedia) []model.Segment {
	var out []model.Segment
	for _, o := range m.MediaObjects {
		typ := model.SegText
		switch {
		case strings.HasPrefix(o.ContentType, "image/"):
			typ = model.SegImage
		case strings.HasPrefix(o.ContentType, "audio/"):
			typ = model.SegAudio
		case strings.HasPrefix(o.ContentType, "video/"):
			typ = model.SegVideo
		case !strings.HasPrefix(o.ContentType, "text/") && o.Location != "":
			typ = model.SegFile
		}
		if typ == model.SegText {
			out = append(out, model.Segment{Type: typ, Text: o.Text})
			continue
		}
		out = append(out, model.Segment{Type: typ, URL: o.Location, Meta: []model.Fact{{Key: "type", Value: o.ContentType}}})
	}
	return out
}

// mediaText joins a multimedia object's text parts.
func mediaText(m *multimedia) string {
	var out []string
	for _, o := range m.MediaObjects {
		if o.Text != "" {
			out = append(out, o.Text)
		}
	}
	return strings.Join(out, " ")
}
