package sample

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"

	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// knownRoles are the OpenAI chat roles; others are shown with a warning.
var knownRoles = map[string]bool{
	"system": true, "user": true, "assistant": true, "tool": true,
	"developer": true, "function": true,
}

// mediaKinds maps the spec's media segment types to segment kinds.
var mediaKinds = map[string]model.SegmentType{
	"image_url": model.SegImage,
	"audio_url": model.SegAudio,
	"video_url": model.SegVideo,
	"file_url":  model.SegFile,
}

// mediaAliases are media segment types other tools write (Qwen-VL style
// "image", OpenAI "input_audio"); they render, with a warning.
var mediaAliases = map[string]model.SegmentType{
	"image": model.SegImage, "audio": model.SegAudio, "video": model.SegVideo,
	"file": model.SegFile, "input_audio": model.SegAudio, "input_image": model.SegImage,
}

// thread tracks the tool call ids made so far in one conversation, so a
// tool message can be tied to its call.
type thread struct {
	calls map[string]bool
	// check is false for model output, where a dangling tool message is the
	// model's problem, not the file's.
	check bool
}

func newThread(check bool) *thread { return &thread{calls: map[string]bool{}, check: check} }

// fork starts a conversation that continues this one (a golden
// trajectory continues the prompt).
func (t *thread) fork() *thread {
	n := newThread(t.check)
	for id := range t.calls {
		n.calls[id] = true
	}
	return n
}

// messages parses a messages list. strict turns on the checks meant for
// authored data (not model output).
func (p *parser) messages(raw json.RawMessage, path string, th *thread, strict bool) []model.Message {
	if raw == nil || jsonl.KindOf(raw) == jsonl.KindNull {
		return nil
	}
	arr, ok := jsonl.Array(raw)
	if !ok {
		p.errorf("bad-type", path, "messages is %s, not a list", jsonl.KindName(raw))
		return nil
	}
	out := make([]model.Message, 0, len(arr))
	for i, m := range arr {
		if msg, ok := p.message(m, jsonIndex(path, i), th, strict); ok {
			out = append(out, msg)
		}
	}
	return out
}

// message parses one chat turn.
func (p *parser) message(raw json.RawMessage, path string, th *thread, strict bool) (model.Message, bool) {
	o, ok := jsonl.ParseObject(raw)
	if !ok {
		sev := model.SeverityError
		if !strict {
			sev = model.SeverityWarning // model output: the model's problem
		}
		p.add(sev, "bad-type", path, "message is %s, not an object", jsonl.KindName(raw))
		return model.Message{}, false
	}
	var m model.Message
	if v, ok := o.Get("role"); !ok {
		p.errorf("missing-field", jsonPath(path, "role"), "message has no role")
	} else if r, isStr := jsonl.String(v); !isStr {
		p.errorf("bad-type", jsonPath(path, "role"), "role is %s, not a string", jsonl.KindName(v))
	} else {
		m.Role = model.Role(r)
		if strict && !knownRoles[r] {
			p.warnf("unknown-role", jsonPath(path, "role"), "unknown role %q", r)
		}
	}
	m.Name, _ = o.Str("name")
	isTool := m.Role == model.RoleTool
	if isTool {
		if id, ok := o.Str("tool_call_id"); ok && id != "" {
			m.ToolCallID = id
			if th != nil && th.check && !th.calls[id] {
				p.errorf("unknown-tool-call", jsonPath(path, "tool_call_id"),
					"tool message answers call %q, which no earlier assistant message makes", id)
			}
		} else if strict {
			p.errorf("missing-field", jsonPath(path, "tool_call_id"), "tool message has no tool_call_id")
		}
	}
	content, hasContent := o.Get("content")
	m.Segments = p.content(content, jsonPath(path, "content"), m.ToolCallID, isTool, strict)
	calls := 0
	if tc, ok := o.Get("tool_calls"); ok && !jsonl.IsEmpty(tc) {
		segs := p.toolCalls(tc, jsonPath(path, "tool_calls"), th, strict)
		calls = len(segs)
		m.Segments = append(m.Segments, segs...)
	}
	if fc, ok := o.Get("function_call"); ok && jsonl.KindOf(fc) == jsonl.KindObject {
		// The pre-tools OpenAI shape: one call, no id.
		m.Segments = append(m.Segments, p.toolCall(fc, jsonPath(path, "function_call"), "", strict))
		calls++
	}
	if strict && !hasContent && calls == 0 {
		p.warnf("missing-field", jsonPath(path, "content"), "message has no content")
	}
	return m, true
}

// content parses a message content: a string, or a list of typed segments.
func (p *parser) content(raw json.RawMessage, path, callID string, isTool, strict bool) []model.Segment {
	text := func(s string) model.Segment {
		if isTool {
			return model.Segment{Type: model.SegToolResult, Text: s, ToolCallID: callID}
		}
		return model.Segment{Type: model.SegText, Text: s}
	}
	switch jsonl.KindOf(raw) {
	case jsonl.KindInvalid, jsonl.KindNull:
		return nil
	case jsonl.KindString:
		s, _ := jsonl.String(raw)
		if s == "" {
			return nil // "content": "" beside tool calls says nothing
		}
		return []model.Segment{text(s)}
	case jsonl.KindObject:
		if strict {
			p.warnf("bad-type", path, "content is an jsonl.Object, not a string or a list of segments")
		}
		if seg, ok := p.segment(raw, path, text, strict); ok {
			return []model.Segment{seg}
		}
		return nil
	case jsonl.KindArray:
		arr, _ := jsonl.Array(raw)
		out := make([]model.Segment, 0, len(arr))
		for i, part := range arr {
			if seg, ok := p.segment(part, jsonIndex(path, i), text, strict); ok {
				out = append(out, seg)
			}
		}
		return out
	}
	if strict {
		p.warnf("bad-type", path, "content is %s, not a string or a list of segments", jsonl.KindName(raw))
	}
	return []model.Segment{text(jsonl.ScalarText(raw))}
}

// segment parses one typed content part.
func (p *parser) segment(raw json.RawMessage, path string, text func(string) model.Segment, strict bool) (model.Segment, bool) {
	if s, ok := jsonl.String(raw); ok {
		return text(s), true
	}
	o, ok := jsonl.ParseObject(raw)
	if !ok {
		if strict {
			p.errorf("bad-type", path, "segment is %s, not an object", jsonl.KindName(raw))
		}
		return model.Segment{}, false
	}
	typ, hasType := o.Str("type")
	if !hasType {
		typ = inferType(o)
		if strict {
			p.warnf("missing-field", jsonPath(path, "type"), "segment has no type; shown as %s", typ)
		}
	}
	switch typ {
	case "text", "input_text", "output_text":
		s, ok := o.Str("text")
		if !ok && strict {
			p.errorf("missing-field", jsonPath(path, "text"), "text segment has no text")
		}
		return text(s), true
	}
	if kind, ok := mediaKinds[typ]; ok {
		return p.media(o, path, typ, kind, strict), true
	}
	if kind, ok := mediaAliases[typ]; ok {
		if strict {
			p.warnf("unknown-segment-type", jsonPath(path, "type"),
				"segment type %q is not in the spec (use %s_url); shown as %s", typ, kind, kind)
		}
		return p.media(o, path, typ, kind, strict), true
	}
	if strict && typ != "unknown" {
		p.warnf("unknown-segment-type", jsonPath(path, "type"), "unknown segment type %q", typ)
	}
	return text("[" + typ + "] " + jsonl.Clip(jsonl.Compact(raw), 500)), true
}

// inferType guesses the type of a part that lacks one from its keys.
func inferType(o jsonl.Object) string {
	if o.Has("text") {
		return "text"
	}
	for _, m := range o.Members {
		if _, ok := mediaKinds[m.Key]; ok {
			return m.Key
		}
	}
	return "unknown"
}

// media parses a media segment, resolving a local path against the
// JSONL's folder and checking that the file is there.
func (p *parser) media(o jsonl.Object, path, typ string, kind model.SegmentType, strict bool) model.Segment {
	seg := model.Segment{Type: kind}
	urlPath := jsonPath(path, typ)
	used := map[string]bool{"type": true, typ: true}
	if v, ok := o.Get(typ); ok {
		if s, ok := jsonl.String(v); ok {
			seg.URL = s
		} else if vo, ok := jsonl.ParseObject(v); ok {
			seg.URL, _ = vo.Str("url")
			urlPath = jsonPath(urlPath, "url")
			if seg.URL == "" && typ == "input_audio" {
				f, _ := vo.Str("format")
				seg.URL = "(inline " + strings.TrimSpace(f+" audio") + ")"
			}
			seg.Meta = append(seg.Meta, metaFacts(vo, map[string]bool{"url": true, "data": true})...)
		}
	}
	if seg.URL == "" {
		// Some writers put the reference beside the type instead of under it.
		for _, key := range []string{"url", "path"} {
			if s, ok := o.Str(key); ok && s != "" {
				seg.URL, used[key] = s, true
				break
			}
		}
	}
	seg.Meta = append(seg.Meta, metaFacts(o, used)...)
	if seg.URL == "" {
		if strict {
			p.errorf("missing-url", urlPath, "%s segment has no url", typ)
		}
		return seg
	}
	seg.Resolved = resolveMedia(p.dir, seg.URL)
	if seg.Resolved != "" {
		exists := source.Exists(seg.Resolved)
		seg.Exists = &exists
		if !exists && strict {
			p.warnf("missing-media", urlPath, "%s %s not found (looked for %s)", kind, seg.URL, seg.Resolved)
		}
	}
	return seg
}

// maxMetaValue caps one media attribute: the reference is what matters,
// an inline base64 payload beside it is not worth a screen.
const maxMetaValue = 120

// metaFacts lists an object's members other than skip as facts, in file
// order (an image's detail, an audio's format, a file's name).
func metaFacts(o jsonl.Object, skip map[string]bool) []model.Fact {
	var out []model.Fact
	for _, m := range o.Members {
		if skip[m.Key] || jsonl.IsEmpty(m.Value) {
			continue
		}
		out = append(out, model.Fact{Key: m.Key, Value: jsonl.Clip(jsonl.ScalarText(m.Value), maxMetaValue)})
	}
	return out
}

// resolveMedia returns the local path a media reference points to: local
// paths resolve against dir, file:// URLs to their path; remote and data:
// URLs have none.
func resolveMedia(dir, ref string) string {
	if strings.HasPrefix(ref, "(inline ") {
		return ""
	}
	lower := strings.ToLower(ref)
	if strings.HasPrefix(lower, "file:") {
		u, err := url.Parse(ref)
		if err != nil {
			return ""
		}
		p := u.Path
		if u.Host != "" && u.Host != "localhost" {
			p = u.Host + p // file://relative/path, written by some tools
		}
		if u.Opaque != "" {
			p = u.Opaque
		}
		if p == "" {
			return ""
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		return filepath.Clean(p)
	}
	if strings.HasPrefix(lower, "data:") || strings.Contains(ref, "://") {
		return ""
	}
	if filepath.IsAbs(ref) {
		return filepath.Clean(ref)
	}
	return source.Join(dir, ref) // beside a remote file too
}

// toolCalls parses an assistant's tool_calls list.
func (p *parser) toolCalls(raw json.RawMessage, path string, th *thread, strict bool) []model.Segment {
	arr, ok := jsonl.Array(raw)
	if !ok {
		if strict {
			p.errorf("bad-type", path, "tool_calls is %s, not a list", jsonl.KindName(raw))
		}
		return nil
	}
	var out []model.Segment
	for i, c := range arr {
		cp := jsonIndex(path, i)
		o, ok := jsonl.ParseObject(c)
		if !ok {
			if strict {
				p.errorf("bad-type", cp, "tool call is %s, not an object", jsonl.KindName(c))
			}
			continue
		}
		id, _ := o.Str("id")
		if id == "" && strict {
			p.warnf("missing-field", jsonPath(cp, "id"), "tool call has no id")
		}
		if th != nil && id != "" {
			th.calls[id] = true
		}
		fn, ok := o.Get("function")
		if !ok {
			// Some writers flatten the call: {"id", "name", "arguments"}.
			fn = c
		}
		out = append(out, p.toolCall(fn, jsonPath(cp, "function"), id, strict))
	}
	return out
}

// toolCall parses {name, arguments}; arguments are pretty-printed, and a
// string holding JSON is decoded first.
func (p *parser) toolCall(raw json.RawMessage, path, id string, strict bool) model.Segment {
	seg := model.Segment{Type: model.SegToolCall, ToolCallID: id}
	o, ok := jsonl.ParseObject(raw)
	if !ok {
		if strict {
			p.errorf("bad-type", path, "function is %s, not an object", jsonl.KindName(raw))
		}
		return seg
	}
	seg.ToolName, _ = o.Str("name")
	if seg.ToolName == "" && strict {
		p.errorf("missing-field", jsonPath(path, "name"), "tool call has no function name")
	}
	args, ok := o.Get("arguments")
	if !ok {
		return seg
	}
	if s, isStr := jsonl.String(args); isStr {
		t := strings.TrimSpace(s)
		switch {
		case t == "":
		case json.Valid([]byte(t)):
			seg.Arguments = p.pretty([]byte(t))
			return seg
		case strict:
			p.warnf("bad-arguments", jsonPath(path, "arguments"), "tool call arguments are not valid JSON")
		}
		seg.Arguments = s
		return seg
	}
	if jsonl.KindOf(args) != jsonl.KindNull {
		seg.Arguments = p.pretty(args)
	}
	return seg
}
