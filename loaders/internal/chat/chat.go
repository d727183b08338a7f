// Package chat reads the content of a chat message as OpenAI's chat API
// takes it and as the tools that log their requests keep it (HELM's
// Request.messages and instances, promptfoo's prompts rendered as JSON
// lists of messages): a string, or a list of typed parts.
package chat

import (
	"encoding/json"
	"strings"
)

// Text is a content's text: the string, or the "text" of each part of a
// list joined by line breaks (a part without text, an image's, adds
// nothing); ok is false for any other value, which each caller shows in
// its own way.
func Text(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var parts []map[string]any
	if json.Unmarshal(raw, &parts) != nil {
		return "", false
	}
	var out []string
	for _, p := range parts {
		if t, ok := p["text"].(string); ok {
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n"), true
}
