package lmeval

import (
	"encoding/json"
	"regexp"
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

// chat templates whose turns can be told apart in a rendered prompt. Each
// pattern captures the role; a turn runs to the next turn's start.
var templates = []struct {
	start *regexp.Regexp
	end   string
}{
	// Phi-3 and Zephyr: <|user|>\n ... <|end|>
	{regexp.MustCompile(`<\|(system|user|assistant)\|>\n?`), "<|end|>"},
	// Gemma: <start_of_turn>user\n ... <end_of_turn>
	{regexp.MustCompile(`<start_of_turn>(user|model|system)\n?`), "<end_of_turn>"},
	// ChatML (Qwen...): <|im_start|>user\n ... <|im_end|>
	{regexp.MustCompile(`<\|im_start\|>(system|user|assistant)\n?`), "<|im_end|>"},
	// Llama 3: <|start_header_id|>user<|end_header_id|>\n\n ... <|eot_id|>
	{regexp.MustCompile(`<\|start_header_id\|>(system|user|assistant)<\|end_header_id\|>\n*`), "<|eot_id|>"},
}

// splitTemplate splits a prompt rendered with a known chat template into
// turns. The raw prompt stays available in the Raw tab; the turns keep
// every character between the markers.
func splitTemplate(s string) ([]model.Message, bool) {
	for _, t := range templates {
		locs := t.start.FindAllStringSubmatchIndex(s, -1)
		if len(locs) == 0 {
			continue
		}
		var out []model.Message
		if pre := strings.TrimSpace(stripBOS(s[:locs[0][0]])); pre != "" {
			out = append(out, textMessage(model.RoleSystem, pre, "before the chat template"))
		}
		for i, loc := range locs {
			end := len(s)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			body := s[loc[1]:end]
			body = strings.TrimRight(strings.TrimSuffix(strings.TrimRight(body, "\n"), t.end), "\n")
			role := s[loc[2]:loc[3]]
			if role == "model" {
				role = string(model.RoleAssistant)
			}
			label := ""
			if i == len(locs)-1 && role == string(model.RoleAssistant) && strings.TrimSpace(body) == "" {
				label = "generation starts here"
			}
			out = append(out, textMessage(model.Role(role), body, label))
		}
		return out, true
	}
	return nil, false
}

func stripBOS(s string) string {
	for _, bos := range []string{"<bos>", "<s>", "<|begin_of_text|>", "<|endoftext|>"} {
		s = strings.TrimPrefix(s, bos)
	}
	return s
}

// markFewShot marks the few-shot examples of a prompt (model.MarkFewShot,
// which lighteval's prompts share); question is the doc's question as
// the list shows it (its first line).
func markFewShot(msgs []model.Message, question string) []model.Message {
	return model.MarkFewShot(msgs, question)
}
