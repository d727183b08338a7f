package inspect

import (
	"bytes"
	"encoding/json"

	"evalview/loaders/internal/jsonscan"
	"evalview/loaders/internal/nonfinite"
)

// summaryFromSample walks one EvalSample and returns the JSON of its
// summary (NaN and Infinity sanitized).
func summaryFromSample(sc *jsonscan.Scanner) ([]byte, error) {
	fields := map[string]json.RawMessage{}
	messages := 0
	err := sc.Object(func(key string) error {
		switch key {
		case "id", "epoch", "input", "target", "choices", "metadata", "scores", "error", "limit",
			"total_time", "working_time", "uuid", "error_retries":
			raw, cut, err := sc.Capture(1 << 20)
			if err == nil && !cut {
				fields[key] = raw
			}
			return err
		case "messages":
			return sc.Array(func(int) error { messages++; return sc.Skip() })
		}
		return sc.Skip()
	})
	if err != nil {
		return nil, err
	}
	// EvalSample.summary(): the error's message, the limit's type, the
	// number of retries and messages.
	if raw, ok := fields["error"]; ok {
		var e evalError
		if nonfinite.Unmarshal(raw, &e) == nil {
			fields["error"], _ = json.Marshal(e.Message)
		}
	}
	if raw, ok := fields["limit"]; ok {
		var l struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(raw, &l) == nil {
			fields["limit"], _ = json.Marshal(l.Type)
		}
	}
	if raw, ok := fields["error_retries"]; ok {
		var rs []json.RawMessage
		if json.Unmarshal(raw, &rs) == nil {
			fields["retries"], _ = json.Marshal(len(rs))
		}
		delete(fields, "error_retries")
	}
	fields["message_count"], _ = json.Marshal(messages)
	fields["completed"] = json.RawMessage("true")
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	for _, k := range []string{"id", "epoch", "input", "choices", "target", "metadata", "scores", "total_time", "working_time", "uuid", "error", "limit", "retries", "completed", "message_count"} {
		v, ok := fields[k]
		if !ok {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return nonfinite.Sanitize(b.Bytes()), nil
}
