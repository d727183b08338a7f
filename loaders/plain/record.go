package plain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// titleKeys are the fields a title is taken from first, in this order:
// the names records of questions, prompts and documents usually give
// their text.
var titleKeys = []string{"title", "name", "question", "prompt", "input", "query", "instruction", "text",
	"content", "message", "user_input", "raw_text", "description"}

const (
	// maxTitle caps list titles.
	maxTitle = 200
	// maxLabel is the longest string a label takes: longer text is not a
	// value to group or filter by.
	maxLabel = 40
)

// build maps one line to a record, or says why it is no record; full
// asks for its fields' values and its raw JSON, which a list row (its
// summary) does without.
func build(path string, line int, data []byte, full bool) (*model.Record, *model.Issue) {
	v := bytes.TrimSpace(data)
	if !json.Valid(v) {
		is := model.Errorf("bad-json", path, line, "", "line is not JSON: %s", jsonError(v))
		return nil, &is
	}
	var members []member
	var dups []string
	if o, ok := jsonl.ParseObject(v); ok && jsonl.KindOf(v) == jsonl.KindObject {
		members = make([]member, len(o.Members))
		for i, m := range o.Members {
			members[i] = member{Member: m}
		}
		dups = o.Dups
	} else {
		// A line that is JSON but not an object is a record of one value.
		members = []member{{Member: jsonl.Member{Key: "value", Value: v}}}
	}
	r := fill(path, line, members, dups, full, func() string { return jsonl.Clip(jsonl.Compact(v), maxTitle) })
	if full {
		r.Raw = []model.RawPart{{Label: "line " + strconv.Itoa(line), File: path, Line: line, JSON: v}}
	}
	return r, nil
}

// member is a record's top-level member; more counts the bytes of its
// value not read (a long line's member keeps its head only).
type member struct {
	jsonl.Member
	more int64
}

// text is a member's value as text: a string decoded (its head, for a
// member cut short), else its JSON.
func (m member) text() (string, bool) {
	if m.more == 0 {
		if s, ok := jsonl.String(m.Value); ok {
			return s, true
		}
		return jsonl.Compact(m.Value), false
	}
	if jsonl.KindOf(m.Value) == jsonl.KindString {
		return headString(m.Value), true
	}
	return string(m.Value), false
}

// fill builds a record from its members (dups: keys given twice), its
// title falling back on whole (see the package doc); without full, its
// fields are named but hold no value.
func fill(path string, line int, members []member, dups []string, full bool, whole func() string) *model.Record {
	r := &model.Record{}
	r.Line = line
	r.Status = model.StatusUnscored
	for _, k := range dups {
		r.Issues = append(r.Issues, model.Warnf("duplicate-key", path, line, "", "key %q is given twice; the last value is used", k))
	}
	r.ID = "line " + strconv.Itoa(line)
	for _, m := range members {
		if m.Key == "id" && m.more == 0 {
			if k := jsonl.KindOf(m.Value); k == jsonl.KindString || k == jsonl.KindNumber {
				if id := jsonl.ScalarText(m.Value); strings.TrimSpace(id) != "" {
					r.ID = id
				}
			}
		}
	}
	for i := range r.Issues {
		r.Issues[i].Record = r.ID
	}
	var labels []string // key, value, ...: one model.Labels at the end
	for _, m := range members {
		f := model.Field{Name: m.Key}
		if full {
			var isText bool
			f.Value, isText = m.text()
			f.IsJSON = !isText && m.more == 0
			if m.more > 0 {
				f.Value += fmt.Sprintf(" … (%d more bytes not read)", m.more)
			}
		}
		r.Fields = append(r.Fields, f)
		if m.Key != "id" && m.Key != "" {
			// A field that is no label (a long or multi-line text, an
			// object) is one with no value: queries read it from the
			// record (Presentation.FieldLabels).
			lv := ""
			if m.more == 0 {
				lv, _ = labelValue(m.Value)
			}
			labels = append(labels, m.Key, lv)
		}
	}
	// Built at once, a repeated key's last value kept: With, for each
	// field, copied all the labels before it (64 MB for 2,000 fields).
	r.Labels = model.NewLabels(labels...)
	r.Title = title(members, whole)
	r.Errors, r.Warnings = model.CountIssues(r.Issues)
	return r
}

// labelValue is a field's value as a label: a short one-line string, a
// number as written, a boolean; anything else is no label.
func labelValue(raw []byte) (string, bool) {
	switch jsonl.KindOf(raw) {
	case jsonl.KindString:
		s, _ := jsonl.String(raw)
		if s == "" || utf8.RuneCountInString(s) > maxLabel || strings.ContainsAny(s, "\n\r") {
			return "", false
		}
		return s, true
	case jsonl.KindNumber, jsonl.KindBool:
		return string(bytes.TrimSpace(raw)), true
	}
	return "", false
}

// title picks the record's title (see the package doc).
func title(members []member, whole func() string) string {
	text := func(m member) string {
		s, ok := m.text()
		if !ok {
			return ""
		}
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				return jsonl.Clip(l, maxTitle)
			}
		}
		return ""
	}
	for _, k := range titleKeys {
		for _, m := range members {
			if strings.EqualFold(m.Key, k) {
				if t := text(m); t != "" {
					return t
				}
			}
		}
	}
	for _, m := range members {
		if m.Key != "id" {
			if t := text(m); t != "" {
				return t
			}
		}
	}
	return whole()
}

// jsonError says what is wrong with a line that is not JSON, the byte
// counted from the line's first (1).
func jsonError(v []byte) string { return jsonErrorAt(v, 1) }
