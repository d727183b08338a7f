package chat

import (
	"encoding/json"
	"testing"
)

// TestText: HELM's and promptfoo's messages are read alike: a string, or
// the text parts of a list of parts joined by line breaks (an image's
// part adds nothing); anything else is not a content Text reads.
func TestText(t *testing.T) {
	for in, want := range map[string]string{
		`"Bonjour\n"`: "Bonjour\n",
		`[{"type": "text", "text": "a"}, {"type": "image_url", "image_url": {"url": "x"}}, {"type": "text", "text": "b"}]`: "a\nb",
		`[]`:                      "",
		`[{"type": "image_url"}]`: "",
		`null`:                    "", // as encoding/json reads null into a string
	} {
		got, ok := Text(json.RawMessage(in))
		if !ok || got != want {
			t.Errorf("Text(%s) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{`{"text": "a"}`, `["a", "b"]`, `3`, `[{"text": 1}, "x"]`, ``} {
		if got, ok := Text(json.RawMessage(in)); ok {
			t.Errorf("Text(%s) = %q, true; want false", in, got)
		}
	}
}
