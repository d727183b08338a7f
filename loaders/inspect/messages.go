package inspect

import (
	"encoding/json"
	"fmt"
	"strings"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// attachmentPrefix marks text condensed into the sample's attachments
// (log/_condense.py: ATTACHMENT_PROTOCOL).
const attachmentPrefix = "attachment://"

// rawMessage is a ChatMessage (model/_chat_message.py).
type rawMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Source     string          `json:"source"`
	ToolCalls  []rawToolCall   `json:"tool_calls"`
	ToolCallID json.RawMessage `json:"tool_call_id"`
	Function   string          `json:"function"`
	Model      string          `json:"model"`
	Error      *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

type rawToolCall struct {
	ID         string          `json:"id"`
	Function   string          `json:"function"`
	Arguments  json.RawMessage `json:"arguments"`
	ParseError string          `json:"parse_error"`
}

// rawContent is one part of a list content (_util/content.py).
type rawContent struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	Refusal   *bool  `json:"refusal"`
	Reasoning string `json:"reasoning"`
	Summary   string `json:"summary"`
	Redacted  bool   `json:"redacted"`
	Image     string `json:"image"`
	Detail    string `json:"detail"`
	Audio     string `json:"audio"`
	Video     string `json:"video"`
	Format    string `json:"format"`
	Document  string `json:"document"`
	Filename  string `json:"filename"`
	MimeType  string `json:"mime_type"`
	// tool_use parts (server-side tools: web search, MCP).
	ToolType  string          `json:"tool_type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Result    string          `json:"result"`
	Error     string          `json:"error"`
	Data      json.RawMessage `json:"data"`
}

// resolver replaces attachment:// references with the attachment's text.
type resolver struct {
	m map[string]string
	// cut is set when attachments were left out for evalview's caps: a
	// reference that does not resolve may then be in the sample.
	cut bool
}

func newResolver() resolver { return resolver{m: map[string]string{}} }

func (r resolver) text(s string) string {
	if h, ok := strings.CutPrefix(s, attachmentPrefix); ok {
		if t, ok := r.m[h]; ok {
			return t
		}
		if r.cut {
			return s + " (attachment not kept: the sample's attachments are over evalview's cap)"
		}
		return s + " (attachment not in the sample)"
	}
	return s
}

// contentText is a content's text parts joined (for titles).
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []rawContent
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b []string
	for _, p := range parts {
		if p.Type == "text" {
			b = append(b, p.Text)
		}
	}
	return strings.Join(b, "\n")
}

// convertMessages maps Inspect messages to the view's.
func convertMessages(raw json.RawMessage, res resolver) []model.Message {
	var msgs []rawMessage
	if json.Unmarshal(raw, &msgs) != nil {
		return nil
	}
	out := make([]model.Message, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, convertMessage(m, res))
	}
	return out
}

func convertMessage(m rawMessage, res resolver) model.Message {
	msg := model.Message{Role: model.Role(m.Role)}
	if m.Source != "" && m.Source != "generate" {
		msg.Label = m.Source
	}
	if m.Model != "" {
		msg.Name = m.Model
	}
	if m.Role == "tool" {
		var id string
		_ = json.Unmarshal(m.ToolCallID, &id)
		msg.ToolCallID = id
		msg.Name = m.Function
		text := res.text(contentText(m.Content))
		if m.Error != nil {
			text = strings.TrimSpace(text + "\n[error " + m.Error.Type + "] " + m.Error.Message)
		}
		msg.Segments = append(msg.Segments, model.Segment{Type: model.SegToolResult, Text: text, ToolName: m.Function, ToolCallID: id})
		return msg
	}
	msg.Segments = contentSegments(m.Content, res)
	for _, tc := range m.ToolCalls {
		args := string(compactJSON(tc.Arguments))
		if tc.ParseError != "" {
			args += " (parse error: " + tc.ParseError + ")"
		}
		msg.Segments = append(msg.Segments, model.Segment{Type: model.SegToolCall, ToolName: tc.Function, ToolCallID: tc.ID, Arguments: res.text(args)})
	}
	return msg
}

// contentSegments maps a string or a list of content parts.
func contentSegments(raw json.RawMessage, res resolver) []model.Segment {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []model.Segment{{Type: model.SegText, Text: res.text(s)}}
	}
	var parts []rawContent
	if json.Unmarshal(raw, &parts) != nil {
		if len(raw) > 0 && string(raw) != "null" {
			return []model.Segment{{Type: model.SegText, Text: jsonl.Compact(raw)}}
		}
		return nil
	}
	var out []model.Segment
	for _, p := range parts {
		switch p.Type {
		case "text":
			seg := model.Segment{Type: model.SegText, Text: res.text(p.Text)}
			if p.Refusal != nil && *p.Refusal {
				seg.Meta = []model.Fact{{Key: "refusal", Value: "yes"}}
			}
			out = append(out, seg)
		case "reasoning":
			text := res.text(p.Reasoning)
			if p.Redacted {
				text = "(redacted reasoning)"
				if p.Summary != "" {
					text += "\n" + p.Summary
				}
			}
			out = append(out, model.Segment{Type: model.SegText, Text: text, Meta: []model.Fact{{Key: "type", Value: "reasoning"}}})
		case "image":
			out = append(out, model.Segment{Type: model.SegImage, URL: mediaRef(res.text(p.Image)), Meta: metaOf("detail", p.Detail)})
		case "audio":
			out = append(out, model.Segment{Type: model.SegAudio, URL: mediaRef(res.text(p.Audio)), Meta: metaOf("format", p.Format)})
		case "video":
			out = append(out, model.Segment{Type: model.SegVideo, URL: mediaRef(res.text(p.Video)), Meta: metaOf("format", p.Format)})
		case "document":
			out = append(out, model.Segment{Type: model.SegFile, URL: mediaRef(res.text(p.Document)), Meta: append(metaOf("name", p.Filename), metaOf("type", p.MimeType)...)})
		case "tool_use":
			out = append(out, model.Segment{Type: model.SegToolCall, ToolName: p.Name, ToolCallID: p.ID, Arguments: res.text(p.Arguments), Meta: metaOf("tool", p.ToolType)})
			result := res.text(p.Result)
			if p.Error != "" {
				result = strings.TrimSpace(result + "\n[error] " + p.Error)
			}
			out = append(out, model.Segment{Type: model.SegToolResult, Text: result, ToolName: p.Name, ToolCallID: p.ID})
		default:
			out = append(out, model.Segment{Type: model.SegText, Text: jsonl.Compact(p.Data), Meta: metaOf("type", p.Type)})
		}
	}
	return out
}

// mediaRef shortens an inline data: URI (base64 images run to megabytes)
// to its type and size; file paths and URLs stay as written.
func mediaRef(s string) string {
	if rest, ok := strings.CutPrefix(s, "data:"); ok {
		kind := rest
		if i := strings.IndexByte(rest, ','); i >= 0 {
			kind = rest[:i]
		}
		return fmt.Sprintf("data:%s,… (%d bytes inline)", kind, len(s))
	}
	return s
}

func metaOf(k, v string) []model.Fact {
	if v == "" {
		return nil
	}
	return []model.Fact{{Key: k, Value: v}}
}
