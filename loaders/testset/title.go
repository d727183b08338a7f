package testset

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"

	"evalview/loaders/jsonl"
)

// title is the first meaningful text of the record on one line, whole
// (the list's title is cut to maxTitle by the caller), looked for in its
// inputs, then (v2) its custom fields, its first batch item, its expected
// outputs and its expected aggregation. Prose (a string with a space, or
// an input's only string) wins over a source shown as compact JSON, which
// in turn beats nothing: `{"text": ""}` says more than a blank title.
func (b *caseBuilder) title() string {
	type source struct {
		raw json.RawMessage
		// single: an object's only string is its text ("OK"). That holds
		// for inputs; an expectation's only string ("empty_input") says
		// less than the inputs' JSON.
		single bool
	}
	var sources []source
	if b.isV2() {
		sources = append(sources, source{b.fields[keyInputs], true})
		if custom := b.customMembers(); len(custom) > 0 {
			sources = append(sources, source{objectJSON(custom), true})
		}
	} else {
		var inputs, expected []jsonl.Member
		for _, m := range b.members {
			switch {
			case v1ExpectationKeys[m.Key]:
				expected = append(expected, m)
			case m.Key != keyID && m.Key != keyTags:
				inputs = append(inputs, m)
			}
		}
		sources = append(sources, source{objectJSON(inputs), true}, source{objectJSON(expected), false})
	}
	if v := b.fields[keyBatchItems]; jsonl.KindOf(v) == jsonl.KindArray {
		if items, _ := parseArray(v); len(items) > 0 {
			sources = append(sources, source{items[0], false})
		}
	}
	sources = append(sources, source{b.fields[keyExpectedOutputs], false}, source{b.fields[keyExpectedAgg], false})
	fallback := ""
	for _, src := range sources {
		s, prose := meaningfulText(src.raw, src.single)
		if prose {
			return oneLine(s, 0)
		}
		if fallback == "" {
			fallback = s
		}
	}
	return oneLine(fallback, 0)
}

// meaningfulText picks a title from one value: for an object, its first
// string holding a space, or (when single counts) its only string member:
// prose; otherwise the value as compact JSON (not prose), or "" when it is
// empty.
func meaningfulText(raw []byte, single bool) (text string, prose bool) {
	switch jsonl.KindOf(raw) {
	case jsonl.KindInvalid, jsonl.KindNull:
		return "", false
	case jsonl.KindString:
		s, _ := jsonl.String(raw)
		return s, strings.TrimSpace(s) != ""
	case jsonl.KindObject:
		ms := objectMembers(raw)
		if len(ms) == 0 {
			return "", false
		}
		for _, m := range ms {
			// Look at the raw bytes first: decoding every long string
			// of a big record only to find no space in it is slow.
			if jsonl.KindOf(m.Value) == jsonl.KindString && hasInnerSpace(m.Value) {
				s, _ := jsonl.String(m.Value)
				return s, true
			}
		}
		if single && len(ms) == 1 {
			if s, ok := jsonl.String(ms[0].Value); ok && strings.TrimSpace(s) != "" {
				return s, true
			}
		}
	}
	if t := compactJSON(raw); t != "[]" {
		return t, false
	}
	return "", false
}

// hasInnerSpace reports whether a raw JSON string holds white space (a
// space, or an escaped tab or line break) between other characters.
func hasInnerSpace(raw []byte) bool {
	t := bytes.Trim(raw, `"`)
	t = bytes.TrimSpace(t)
	for len(t) > 0 && t[len(t)-1] == 'n' && bytes.HasSuffix(t, []byte(`\n`)) {
		t = bytes.TrimSpace(t[:len(t)-2])
	}
	return bytes.IndexByte(t, ' ') >= 0 || bytes.Contains(t, []byte("\u3000")) ||
		bytes.Contains(t, []byte(`\n`)) || bytes.Contains(t, []byte(`\t`))
}

// oneLine folds white space (line breaks included) to single spaces and
// caps the length at max runes (0: no cap), for list titles and table
// cells. It stops reading past the cap, since values can be long.
func oneLine(s string, max int) string {
	var out []rune
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, r)
		if max > 0 && len(out) > max {
			return string(out[:max-1]) + "…"
		}
	}
	return string(out)
}
