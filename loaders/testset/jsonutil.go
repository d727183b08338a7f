package testset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"evalview/loaders/jsonl"
)

// parseObject returns the members of a JSON object in document order. A key
// given twice keeps its first position and its last value, as Python's json
// module does (Prompt Lab's loader is Python); dups lists such keys.
//
// raw must be valid JSON (a validated line or a part of one): values are
// found by skimming bytes, not decoded, which keeps big records fast.
func parseObject(raw []byte) (members []jsonl.Member, dups []string, err error) {
	if jsonl.KindOf(raw) != jsonl.KindObject {
		return nil, nil, errors.New("not an object")
	}
	o, ok := jsonl.ParseObject(raw)
	if !ok {
		return nil, nil, errBadJSON
	}
	return o.Members, o.Dups, nil
}

// objectMembers is parseObject for values already known to be objects.
func objectMembers(raw []byte) []jsonl.Member {
	m, _, _ := parseObject(raw)
	return m
}

// parseArray returns the elements of a JSON list; raw must be valid JSON,
// as for parseObject.
func parseArray(raw []byte) ([]json.RawMessage, error) {
	if jsonl.KindOf(raw) != jsonl.KindArray {
		return nil, errors.New("not a list")
	}
	items, ok := jsonl.SplitArray(raw)
	if !ok {
		return nil, errBadJSON
	}
	return items, nil
}

var errBadJSON = errors.New("malformed JSON")

// lookup returns the value of key among members.
func lookup(ms []jsonl.Member, key string) (json.RawMessage, bool) {
	for _, m := range ms {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// valueText renders a value for a field or a table cell: a string as its
// text, anything else as compact JSON.
func valueText(raw []byte) (text string, isJSON bool) {
	if s, ok := jsonl.String(raw); ok {
		return s, false
	}
	return compactJSON(raw), true
}

// compactJSON renders raw JSON on one line with a space after colons and
// commas (as Python prints it), keeping key order and number literals. It
// is easier to read in a narrow table cell than encoding/json's output.
func compactJSON(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b strings.Builder
	// Each open container records whether it is an object and how many
	// tokens it has seen, which tells where commas and colons go.
	type frame struct {
		object bool
		n      int
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			closing := false
			if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
				closing = true
			}
			if !closing && top.n > 0 {
				switch {
				case !top.object:
					b.WriteString(", ")
				case top.n%2 == 1:
					b.WriteString(": ")
				default:
					b.WriteString(", ")
				}
			}
			if !closing {
				top.n++
			}
		}
		switch v := tok.(type) {
		case json.Delim:
			b.WriteRune(rune(v))
			if v == '{' || v == '[' {
				stack = append(stack, frame{object: v == '{'})
			} else if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case string:
			b.WriteString(quote(v))
		case json.Number:
			b.WriteString(v.String())
		case bool:
			b.WriteString(strconv.FormatBool(v))
		case nil:
			b.WriteString("null")
		}
	}
	return b.String()
}

// quote encodes s as a JSON string without HTML escaping, so that "<" and
// "&" stay readable.
func quote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}

// objectJSON builds the raw JSON object of members, in their order.
func objectJSON(ms []jsonl.Member) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(quote(m.Key))
		b.WriteByte(':')
		b.Write(m.Value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// keyPath appends an object key to a JSON path: $.a.b, or $.a["odd key"].
func keyPath(base, key string) string {
	if identRE.MatchString(key) {
		return base + "." + key
	}
	return base + "[" + quote(key) + "]"
}

// indexPath appends a list index to a JSON path.
func indexPath(base string, i int) string { return fmt.Sprintf("%s[%d]", base, i) }

// syntaxMessage explains why a line is not JSON, with a 1-based column
// when the decoder gives one. lead is the white space trimmed off the line.
func syntaxMessage(data []byte, lead int) string {
	var v json.RawMessage
	err := json.Unmarshal(data, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("not valid JSON (column %d: %s)", int(se.Offset)+lead, se.Error())
	}
	if err != nil {
		return "not valid JSON: " + err.Error()
	}
	return "not valid JSON"
}
