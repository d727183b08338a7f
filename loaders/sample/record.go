package sample

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// specKeys are the top-level fields the spec defines; anything else is
// shown as a source field (legacy keys, extensions).
var specKeys = map[string]bool{
	"schema_version": true, "id": true, "task_type": true, "messages": true,
	"options": true, "references": true, "label": true, "few_shot_examples": true,
	"golden_trajectories": true, "sandbox": true, "metadata": true, "data_tag": true,
	"raw_assets": true, "tools": true, "tool_choice": true, "sampling_params": true,
	"generation_params": true, "eval_config": true, "unconditioned_input": true,
	"predict_result": true, "eval_result": true,
}

// titleRunes caps list titles; the TUI cuts them to the pane anyway.
const titleRunes = 200

// parser builds one record from one line and collects its issues.
type parser struct {
	file string // path named in issues
	dir  string // absolute folder media paths resolve against
	line int
	id   string
	// light skips work only display needs (pretty JSON, the raw copy)
	// while a file is indexed: summaries need the issues, not the views.
	light bool
	// issues are the record's issues, in the order found.
	issues []model.Issue
}

// pretty indents JSON for display, or skips it in light mode.
func (p *parser) pretty(raw []byte) string {
	if p.light {
		return ""
	}
	return jsonl.Pretty(raw)
}

func (p *parser) add(sev model.Severity, code, path, format string, args ...any) {
	p.issues = append(p.issues, model.Issue{
		Severity: sev, Code: code, File: p.file, Line: p.line, Record: p.id,
		Path: path, Message: fmt.Sprintf(format, args...),
	})
}

func (p *parser) errorf(code, path, format string, args ...any) {
	p.add(model.SeverityError, code, path, format, args...)
}

func (p *parser) warnf(code, path, format string, args ...any) {
	p.add(model.SeverityWarning, code, path, format, args...)
}

// parseLine turns one line into a record. When the line holds no Sample
// object at all, rec is nil and lineIssue says why; the caller reports it
// as a dataset issue, since there is no record to hang it on. light builds
// the summary and issues only (see parser.light).
func parseLine(file, dir string, n int, data []byte, light bool) (rec *model.Record, lineIssue *model.Issue) {
	data = bytes.TrimSpace(data)
	doubled := false
	if jsonl.KindOf(data) == jsonl.KindString {
		s, ok := jsonl.String(data)
		if !ok {
			return nil, badJSON(file, n, data)
		}
		inner := bytes.TrimSpace([]byte(s))
		if jsonl.KindOf(inner) != jsonl.KindObject {
			is := model.Errorf("not-object", file, n, "", "line is a JSON string, not a Sample object")
			return nil, &is
		}
		data, doubled = inner, true
	}
	// Validate once here: parseObject and asArray then only split.
	// Python's NaN and Infinity are read as jsonl.Float reads them.
	if q, n := jsonl.QuoteNonFinite(data); n > 0 && json.Valid(q) {
		data = q
	}
	if !json.Valid(data) {
		return nil, badJSON(file, n, data)
	}
	o, ok := jsonl.ParseObject(data)
	if !ok {
		is := model.Errorf("not-object", file, n, "", "line holds %s, not a Sample object", jsonl.KindName(data))
		return nil, &is
	}
	p := &parser{file: file, dir: dir, line: n, light: light}
	rec = p.build(o)
	for _, od := range jsonl.FindOddities(data, "$") {
		p.warnf(od.Code, od.Path, "%s", od.Msg)
	}
	if doubled {
		p.warnf("double-encoded", "", "line is a JSON string holding the Sample jsonl.Object (double-encoded); decoded it")
	}
	if !light {
		rec.Raw = []model.RawPart{{Label: "line " + strconv.Itoa(n), File: file, Line: n, JSON: bytes.Clone(data)}}
	}
	rec.Issues = p.issues
	rec.Errors, rec.Warnings = model.CountIssues(rec.Issues)
	return rec, nil
}

func badJSON(file string, n int, data []byte) *model.Issue {
	var v any
	err := json.Unmarshal(data, &v)
	msg := "line is not valid JSON"
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		msg = fmt.Sprintf("line is not valid JSON: %v (at byte %d)", se, se.Offset)
	case err != nil:
		msg = "line is not valid JSON: " + err.Error()
	}
	is := model.Errorf("bad-json", file, n, "", "%s", msg)
	return &is
}

// build maps a decoded Sample object into a record.
func (p *parser) build(o jsonl.Object) *model.Record {
	rec := &model.Record{}
	rec.Line = p.line
	p.id = p.recordID(o)
	rec.ID = p.id

	if v, ok := o.Get("schema_version"); !ok {
		p.warnf("missing-field", "$.schema_version", "schema_version is missing")
	} else if _, isStr := jsonl.String(v); !isStr {
		p.warnf("bad-type", "$.schema_version", "schema_version is %s, not a string", jsonl.KindName(v))
	}
	taskType := p.taskType(o)

	main := p.mainMessages(o)
	calls := newThread(true)
	msgs := p.messages(main, "$.messages", calls, true)

	rec.Options = p.recordOptions(o)
	p.groundTruth(o, rec, msgs)
	markCorrect(rec.Options, rec.References, o)

	few := p.fewShot(o)
	rec.Messages = append(few, msgs...)

	preds := p.predictions(o)
	ev := p.evalResult(o)
	applyEval(rec, preds, ev)

	// Authored blocks in the spec's order, then the runtime results.
	rec.Sections = append(rec.Sections, p.trajectories(o, calls)...)
	rec.Sections = append(rec.Sections, p.sections(o)...)
	rec.Sections = append(rec.Sections, ev.sections...)

	for _, key := range []string{"model_prompt_tmpl", "model_prompt_placeholder"} {
		if o.Has(key) {
			p.warnf("deprecated-field", "$."+key, "%s is deprecated: prompts are rendered from messages", key)
		}
	}
	rec.Fields = fields(o)
	rec.Title = title(rec.Messages)
	rec.Labels = model.LabelsOf(labels(o, taskType))
	return rec
}

// recordID returns the id as text, or "line N" when it is missing.
func (p *parser) recordID(o jsonl.Object) string {
	fallback := "line " + strconv.Itoa(p.line)
	v, ok := o.Get("id")
	if !ok || jsonl.KindOf(v) == jsonl.KindNull {
		p.id = fallback
		p.warnf("missing-field", "$.id", "id is missing; the record is called %q", fallback)
		return fallback
	}
	switch jsonl.KindOf(v) {
	case jsonl.KindString, jsonl.KindNumber:
		id := jsonl.ScalarText(v)
		if strings.TrimSpace(id) == "" {
			p.id = fallback
			p.warnf("missing-field", "$.id", "id is empty; the record is called %q", fallback)
			return fallback
		}
		return id
	}
	id := jsonl.Compact(v)
	p.id = id
	p.warnf("bad-type", "$.id", "id is %s, not a string", jsonl.KindName(v))
	return id
}

// taskType returns task_type, falling back to the legacy question_type and
// to metadata.task_type (where the runtime keeps it).
func (p *parser) taskType(o jsonl.Object) string {
	if v, ok := o.Get("task_type"); ok && jsonl.KindOf(v) != jsonl.KindNull {
		s, isStr := jsonl.String(v)
		if !isStr {
			p.warnf("bad-type", "$.task_type", "task_type is %s, not a string", jsonl.KindName(v))
			return jsonl.ScalarText(v)
		}
		return s
	}
	if s, ok := o.Str("question_type"); ok && s != "" {
		p.warnf("legacy-mapped", "$.question_type", "legacy question_type %q used as task_type", s)
		return s
	}
	if md, ok := o.Get("metadata"); ok {
		if mo, ok := jsonl.ParseObject(md); ok {
			if s, ok := mo.Str("task_type"); ok {
				return s
			}
		}
	}
	return ""
}

// mainMessages returns the raw messages list, building one user turn
// from a legacy prompt/question/text field when messages is missing.
func (p *parser) mainMessages(o jsonl.Object) json.RawMessage {
	if v, ok := o.Get("messages"); ok && jsonl.KindOf(v) != jsonl.KindNull {
		return v
	}
	for _, key := range []string{"prompt", "question", "text"} {
		if s, ok := o.Str(key); ok && s != "" {
			p.warnf("legacy-mapped", "$."+key, "messages is missing: legacy %s shown as the user turn", key)
			b, _ := json.Marshal([]map[string]string{{"role": "user", "content": s}})
			return b
		}
	}
	p.errorf("missing-field", "$.messages", "messages is missing")
	return nil
}

// title is the first line of the first user turn that is not a few-shot
// example (its text first, so an image question is titled by its
// question), falling back to the first turn with any content.
func title(msgs []model.Message) string {
	for _, m := range msgs {
		if m.Role == model.RoleUser && !m.FewShot {
			if t := jsonl.FirstLine(m.Text(), titleRunes); t != "" {
				return t
			}
			if t := jsonl.FirstLine(segmentsText(m.Segments), titleRunes); t != "" {
				return t
			}
		}
	}
	for _, m := range msgs {
		if !m.FewShot {
			if t := jsonl.FirstLine(segmentsText(m.Segments), titleRunes); t != "" {
				return t
			}
		}
	}
	return ""
}

// segmentsText renders segments as one text: text as is, media as
// "[image] path", so a media-only question still has a title.
func segmentsText(segs []model.Segment) string {
	var parts []string
	for _, s := range segs {
		switch s.Type {
		case model.SegText, model.SegToolResult:
			if s.Text != "" {
				parts = append(parts, s.Text)
			}
		case model.SegImage, model.SegAudio, model.SegVideo, model.SegFile:
			parts = append(parts, "["+s.Type.String()+"] "+s.URL)
		case model.SegToolCall:
			parts = append(parts, "[tool call] "+s.ToolName)
		}
	}
	return strings.Join(parts, "\n")
}

// labels are the list facets: task_type and every data_tag key.
func labels(o jsonl.Object, taskType string) map[string]string {
	out := map[string]string{}
	if taskType != "" {
		out["task_type"] = taskType
	}
	if v, ok := o.Get("data_tag"); ok {
		if dt, ok := jsonl.ParseObject(v); ok {
			for _, m := range dt.Members {
				out["data_tag."+m.Key] = jsonl.ScalarText(m.Value)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// fields lists schema_version and task_type, then every top-level key the
// spec does not define (legacy keys, extensions), in file order.
func fields(o jsonl.Object) []model.Field {
	var out []model.Field
	add := func(key string, v json.RawMessage) {
		f := model.Field{Name: key}
		if s, ok := jsonl.String(v); ok {
			f.Value = s
		} else {
			f.Value, f.IsJSON = jsonl.Compact(v), true
		}
		out = append(out, f)
	}
	for _, key := range []string{"schema_version", "task_type"} {
		if v, ok := o.Get(key); ok {
			add(key, v)
		}
	}
	for _, m := range o.Members {
		if !specKeys[m.Key] {
			add(m.Key, m.Value)
		}
	}
	return out
}
