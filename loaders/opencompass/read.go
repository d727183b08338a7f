package opencompass

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"evalview/loaders/internal/nonfinite"
	"evalview/loaders/jsonl"
	"evalview/model"
)

// The sizes OpenCompass's files are read to (variables, so that tests
// can lower them). An output handler writes a dataset's predictions, and
// an evaluator its details, as one JSON object, which is read whole: up
// to 512 MB (the partitioner splits a large dataset's inference into
// files well below); a checkpoint line holds one record, as a Sample
// line does; a summary is a table of a few lines per dataset.
var (
	maxRecords = int64(512 << 20)
	maxLine    = 128 << 20
	maxSummary = int64(32 << 20)
)

// item is one record of an output handler's JSON (predictions, or an LLM
// judge's outputs), keyed "0", "1", ...
type item struct {
	key  string
	file string
	// line is the record's line in a tmp_ checkpoint (JSON Lines), 0 in
	// a JSON file.
	line int
	obj  jsonl.Object
	raw  []byte
}

// get returns member k of the item.
func (it item) get(k string) (json.RawMessage, bool) { return it.obj.Get(k) }

// readItems reads an output handler's JSON file: an object whose members
// are the records, in the order written. Members that are not records
// (a dataset's "_dataset_info") are reported and left out.
func readItems(path string) ([]item, []model.Issue, error) {
	data, err := jsonl.ReadRegular(path, maxRecords)
	if err != nil {
		return nil, nil, err
	}
	data = nonfinite.Sanitize(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	obj, ok := jsonl.ParseObject(data)
	if !ok {
		return nil, nil, fmt.Errorf("not the JSON object of records an OpenCompass inferencer writes: %v", jsonError(data))
	}
	var out []item
	var issues []model.Issue
	for _, k := range obj.Dups {
		issues = append(issues, model.Warnf("duplicate-id", path, 0, k,
			"record %q is written twice: the later is read, the earlier not, as Python's json reads the file", k))
	}
	for _, m := range obj.Members {
		rec, ok := jsonl.ParseObject(m.Value)
		if !ok {
			issues = append(issues, model.Warnf("bad-json", path, 0, m.Key, "member %q is %s, not a record: left out", m.Key, jsonl.KindName(m.Value)))
			continue
		}
		out = append(out, item{key: m.Key, file: path, obj: rec, raw: m.Value})
	}
	return out, issues, nil
}

// readCheckpoint reads an unfinished inference's tmp_ file: the JSON of
// an older version, or the JSON Lines ({"idx": N, ...}) of the current
// one, whose later line for an index wins, as restore_from_jsonl reads
// it.
func readCheckpoint(path string) ([]item, []model.Issue, error) {
	if !strings.HasSuffix(path, ".jsonl") {
		return readItems(path)
	}
	r, err := jsonl.OpenRegular(path)
	if err != nil {
		return nil, nil, jsonl.Bare(err)
	}
	defer r.Close()
	var out []item
	var issues []model.Issue
	at := map[string]int{}
	err = jsonl.ScanLinesMax(r, maxLine, func(l jsonl.Line) error {
		if l.Cut {
			issues = append(issues, jsonl.LineTooLong(path, l, "a checkpoint line", maxLine))
			return nil
		}
		if jsonl.IsBlank(l.Data) {
			return nil
		}
		data := nonfinite.Sanitize(append([]byte(nil), l.Data...))
		obj, ok := jsonl.ParseObject(data)
		if !ok {
			issues = append(issues, model.Errorf("bad-json", path, l.N, "", "not a JSON object: %v (the inferencer would set this checkpoint aside)", jsonError(data)))
			return nil
		}
		idx, ok := obj.Get("idx")
		if !ok {
			issues = append(issues, model.Errorf("bad-json", path, l.N, "", "a checkpoint line without idx"))
			return nil
		}
		key := jsonl.ScalarText(idx)
		it := item{key: key, file: path, line: l.N, obj: obj, raw: data}
		if i, dup := at[key]; dup {
			issues = append(issues, model.Warnf("duplicate-id", path, l.N, key,
				"idx %s again (line %d): this line is read, the earlier one not, as restore_from_jsonl reads the checkpoint", key, out[i].line))
			out[i] = it
			return nil
		}
		at[key] = len(out)
		out = append(out, it)
		return nil
	})
	return out, issues, err
}

// jsonError says where data stops being JSON.
func jsonError(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	return fmt.Errorf("not an object but %s", jsonl.KindName(data))
}

// text renders a value for reading: a string as it is, anything else as
// compact JSON.
func text(raw json.RawMessage) string {
	if s, ok := jsonl.String(raw); ok {
		return s
	}
	return jsonl.ScalarText(raw)
}

// texts renders a value that may be a list of strings (one per replica
// or returned sequence) as its elements, anything else as one text.
func texts(raw json.RawMessage) []string {
	if els, ok := jsonl.Array(raw); ok {
		out := make([]string, 0, len(els))
		for _, e := range els {
			out = append(out, text(e))
		}
		return out
	}
	if jsonl.KindOf(raw) == jsonl.KindNull {
		return nil
	}
	return []string{text(raw)}
}

// floatOf reads a number, Python's NaN included.
func floatOf(raw json.RawMessage) (float64, bool) {
	if f, ok := nonfinite.Float(raw); ok {
		return f, true
	}
	return jsonl.Float(raw)
}

// boolsOf reads a correctness value: a boolean, 0 or 1, or a list of
// them (one per replica).
func boolsOf(raw json.RawMessage) ([]bool, bool) {
	one := func(v json.RawMessage) (bool, bool) {
		if b, ok := jsonl.Bool(v); ok {
			return b, true
		}
		if f, ok := jsonl.Float(v); ok && (f == 0 || f == 1) {
			return f == 1, true
		}
		return false, false
	}
	if els, ok := jsonl.Array(raw); ok {
		out := make([]bool, 0, len(els))
		for _, e := range els {
			b, ok := one(e)
			if !ok {
				return nil, false
			}
			out = append(out, b)
		}
		return out, len(out) > 0
	}
	b, ok := one(raw)
	if !ok {
		return nil, false
	}
	return []bool{b}, true
}

// messagesOf turns an origin_prompt into messages: a string is the
// user's turn; a list holds turns as the model's template parser gives
// them ({"role": "HUMAN", "prompt": ...}) or as chat messages ({"role":
// "user", "content": ...}); a list of lists (a multi-round chat's
// prompt per round) gives its last round, which holds the others.
func messagesOf(raw json.RawMessage) []model.Message {
	els, ok := jsonl.Array(raw)
	if !ok {
		s := text(raw)
		if s == "" {
			return nil
		}
		return []model.Message{textMessage(model.RoleUser, "", s)}
	}
	if len(els) > 0 && jsonl.KindOf(els[len(els)-1]) == jsonl.KindArray {
		return messagesOf(els[len(els)-1])
	}
	var out []model.Message
	for _, e := range els {
		o, ok := jsonl.ParseObject(e)
		if !ok {
			if s := text(e); s != "" {
				out = append(out, textMessage(model.RoleUser, "", s))
			}
			continue
		}
		role, _ := o.Str("role")
		body, ok := o.Get("prompt")
		if !ok {
			body, ok = o.Get("content")
		}
		if !ok {
			continue // a template's section marker
		}
		r, label := roleOf(role)
		out = append(out, textMessage(r, label, contentText(body)))
	}
	return out
}

// contentText is a message's content: a string, or a list of typed
// parts whose text parts are joined.
func contentText(raw json.RawMessage) string {
	els, ok := jsonl.Array(raw)
	if !ok {
		return text(raw)
	}
	var parts []string
	for _, e := range els {
		o, ok := jsonl.ParseObject(e)
		if !ok {
			parts = append(parts, text(e))
			continue
		}
		if t, ok := o.Str("text"); ok {
			parts = append(parts, t)
			continue
		}
		parts = append(parts, jsonl.Compact(e))
	}
	return strings.Join(parts, "\n")
}

// roleOf maps OpenCompass's template roles (HUMAN, BOT, SYSTEM) and chat
// roles to messages' roles; another role is kept as a label.
func roleOf(role string) (model.Role, string) {
	switch strings.ToUpper(role) {
	case "HUMAN", "USER":
		return model.RoleUser, ""
	case "BOT", "ASSISTANT":
		return model.RoleAssistant, ""
	case "SYSTEM":
		return model.RoleSystem, ""
	case "TOOL", "FUNCTION":
		return model.RoleTool, ""
	}
	return model.RoleUser, role
}

func textMessage(r model.Role, label, s string) model.Message {
	return model.Message{Role: r, Label: label, Segments: []model.Segment{{Type: model.SegText, Text: s}}}
}

// keyIndex reads an output handler's record key ("12") as a number.
func keyIndex(k string) (int, bool) {
	n, err := strconv.Atoi(k)
	return n, err == nil && n >= 0
}
