package model

import (
	"encoding/json"
	"regexp"
	"strings"
)

// Chat messages reach some formats as JSON text rather than as a list:
// lighteval writes a chat prompt's messages into its details' prompt
// column (a list of {role, content} structs, or their JSON text in a
// string), which shown as text is one line of escapes ("\n"). These
// read them as messages.

// ChatMessagesJSON reads s as a JSON list of chat messages ([{"role":
// "user", "content": "…"}, …]); ok is false when s is not such a list
// (any other text stays text).
func ChatMessagesJSON(s string) ([]Message, bool) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "[") || !strings.HasSuffix(t, "]") {
		return nil, false
	}
	var v []any
	if json.Unmarshal([]byte(t), &v) != nil {
		return nil, false
	}
	return ChatMessagesValue(v)
}

// ChatMessagesValue reads a decoded value as chat messages: a list of
// objects each with a role (a string) and a content that is text, or a
// list of parts ({"type": "text", "text": …}; other parts are named by
// their type); a message's other keys are left out. A JSON string
// holding such a list is read too. ok is false for anything else.
func ChatMessagesValue(v any) ([]Message, bool) {
	if s, ok := v.(string); ok {
		return ChatMessagesJSON(s)
	}
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, false
	}
	out := make([]Message, 0, len(list))
	for _, e := range list {
		obj, ok := e.(map[string]any)
		if !ok {
			return nil, false
		}
		role, ok := obj["role"].(string)
		if !ok || strings.TrimSpace(role) == "" {
			return nil, false
		}
		m := Message{Role: Role(role)}
		if name, ok := obj["name"].(string); ok {
			m.Name = name
		}
		switch c := obj["content"].(type) {
		case string:
			m.Segments = []Segment{{Type: SegText, Text: c}}
		case nil:
		case []any:
			for _, p := range c {
				m.Segments = append(m.Segments, chatPart(p))
			}
		default:
			return nil, false
		}
		out = append(out, m)
	}
	return out, true
}

// chatPart is one part of a message's content: its text, or for a part
// that is not text (an image), its type in brackets.
func chatPart(p any) Segment {
	switch x := p.(type) {
	case string:
		return Segment{Type: SegText, Text: x}
	case map[string]any:
		if t, ok := x["text"].(string); ok {
			return Segment{Type: SegText, Text: t}
		}
		if typ, ok := x["type"].(string); ok {
			return Segment{Type: SegText, Text: "[" + typ + "]"}
		}
	}
	b, _ := json.Marshal(p)
	return Segment{Type: SegText, Text: string(b)}
}

// chatTemplates are the chat templates whose turns can be told apart in a rendered prompt. Each
// pattern captures the role; a turn runs to the next turn's start.
var chatTemplates = []struct {
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

// SplitChatTemplate splits a prompt rendered with a known chat template into
// turns. The raw prompt stays available in the Raw tab; the turns keep
// every character between the markers.
func SplitChatTemplate(s string) ([]Message, bool) {
	for _, t := range chatTemplates {
		locs := t.start.FindAllStringSubmatchIndex(s, -1)
		if len(locs) == 0 {
			continue
		}
		var out []Message
		if pre := strings.TrimSpace(stripBOS(s[:locs[0][0]])); pre != "" {
			out = append(out, TextMessage(RoleSystem, pre, "before the chat template"))
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
				role = string(RoleAssistant)
			}
			label := ""
			if i == len(locs)-1 && role == string(RoleAssistant) && strings.TrimSpace(body) == "" {
				label = "generation starts here"
			}
			out = append(out, TextMessage(Role(role), body, label))
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
