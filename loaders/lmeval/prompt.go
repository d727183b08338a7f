package lmeval

import (
	"encoding/json"
	"strings"

	"evalview/model"
)

// promptMessages turns arg_0 into chat turns: JSON-encoded chat messages
// (local-chat-completions logs them as a list holding one JSON string),
// a prompt rendered with a known chat template, or else one user turn.
func promptMessages(arg0 json.RawMessage) []model.Message {
	text := promptText(arg0)
	if msgs, ok := chatJSON(text); ok {
		return msgs
	}
	if msgs, ok := splitTemplate(text); ok {
		return msgs
	}
	return []model.Message{textMessage(model.RoleUser, text, "prompt")}
}

func textMessage(role model.Role, text, label string) model.Message {
	return model.Message{Role: role, Label: label, Segments: []model.Segment{{Type: model.SegText, Text: text}}}
}

// chatJSON decodes `[{"role": ..., "content": ...}, ...]`.
func chatJSON(s string) ([]model.Message, bool) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "[") || !strings.HasSuffix(t, "]") {
		return nil, false
	}
	var raw []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal([]byte(t), &raw) != nil || len(raw) == 0 {
		return nil, false
	}
	out := make([]model.Message, 0, len(raw))
	for _, m := range raw {
		if m.Role == "" {
			return nil, false
		}
		msg := model.Message{Role: model.Role(m.Role)}
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(m.Content, &parts) == nil {
			for _, p := range parts {
				msg.Segments = append(msg.Segments, model.Segment{Type: model.SegText, Text: p.Text})
			}
		} else {
			msg.Segments = []model.Segment{{Type: model.SegText, Text: scalarText(m.Content)}}
		}
		out = append(out, msg)
	}
	return out, true
}

// splitTemplate splits a prompt rendered with a known chat template into
// turns (model.SplitChatTemplate, which lighteval's prompts share).
func splitTemplate(s string) ([]model.Message, bool) { return model.SplitChatTemplate(s) }

// markFewShot marks the few-shot examples of a prompt (model.MarkFewShot,
// which lighteval's prompts share); question is the doc's question as
// the list shows it (its first line).
func markFewShot(msgs []model.Message, question string) []model.Message {
	return model.MarkFewShot(msgs, question)
}
