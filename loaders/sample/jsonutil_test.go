package sample

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"evalview/model"
)

func TestResolveMedia(t *testing.T) {
	dir := "/data/set"
	cases := []struct{ ref, want string }{
		{"inputs/a.png", "/data/set/inputs/a.png"},
		{"./inputs/../b.png", "/data/set/b.png"},
		{"/abs/c.png", "/abs/c.png"},
		{"file:///abs/d.png", "/abs/d.png"},
		{"file://localhost/abs/e.png", "/abs/e.png"},
		{"file:rel/f.png", "/data/set/rel/f.png"},
		{"FILE:///abs/g.png", "/abs/g.png"},
		{"https://example.com/x.png", ""},
		{"http://example.com/x.png", ""},
		{"s3://bucket/x.wav", ""},
		{"data:image/png;base64,AAAA", ""},
		{"(inline wav audio)", ""},
	}
	for _, c := range cases {
		if got := resolveMedia(dir, c.ref); got != filepath.FromSlash(c.want) {
			t.Errorf("resolveMedia(%q) = %q, want %q", c.ref, got, c.want)
		}
	}
}

func TestLabelMatches(t *testing.T) {
	opts := []model.Option{{ID: "A", Text: "Shark"}, {ID: "B", Text: "Dolphin"}}
	cases := []struct {
		label string // JSON
		ref   string
		opts  []model.Option
		want  bool
	}{
		{`"B"`, "B", opts, true},
		{`" b "`, "B", opts, true}, // normalized: space and case
		{`"Paris  is sunny"`, "paris is sunny", nil, true},
		{`1`, "B", opts, true}, // an index into the options
		{`0`, "A", nil, true},  // an index, options unknown: a letter
		{`1`, "A", opts, false},
		{`"B"`, "Dolphin", opts, true}, // id and content of one option
		{`"Dolphin"`, "B", opts, true},
		{`"A"`, "Dolphin", opts, false},
		{`"refs/a.png"`, "refs/a.png", nil, true},
	}
	for _, c := range cases {
		if got := labelMatches(json.RawMessage(c.label), c.ref, c.opts); got != c.want {
			t.Errorf("labelMatches(%s, %q) = %v, want %v", c.label, c.ref, got, c.want)
		}
	}
}
