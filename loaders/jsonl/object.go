package jsonl

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"evalview/loaders/internal/jsonstr"
)

// Raw JSON helpers shared by the loaders that show records field by field
// (Sample, testset): objects keep their key order, which encoding/json
// maps lose, and values stay raw sub-slices of the line until a view
// needs them. Structure is checked by the same skimmer as Skim; callers
// validate a whole line once (json.Valid) and every value below is then
// known to be valid.

// Member is one key of a JSON object with its raw value.
type Member struct {
	Key   string
	Value json.RawMessage
}

// Object is a JSON object split into its members, in document order.
type Object struct {
	Members []Member
	// Dups lists keys given more than once: each keeps its first
	// position and its last value, as encoding/json and Python's json do.
	Dups []string
	idx  map[string]int
}

// ParseObject splits raw into the members of a JSON object; ok is false
// when raw is not a well-formed object. Values are sub-slices of raw.
func ParseObject(raw []byte) (Object, bool) {
	o := Object{}
	err := Skim(raw, func(f Field) error {
		key := f.Key
		// Escapes, and invalid UTF-8, which encoding/json (and so every
		// reader of the file) decodes as U+FFFD, one per bad byte.
		if strings.IndexByte(key, '\\') >= 0 || !utf8.ValidString(key) {
			s, ok := jsonstr.Unquote([]byte(`"` + key + `"`))
			if !ok {
				return errNotObject
			}
			key = s
		}
		if o.idx == nil {
			o.idx = map[string]int{}
		}
		v := json.RawMessage(f.Value[:len(f.Value):len(f.Value)])
		if j, dup := o.idx[key]; dup {
			o.Members[j].Value = v
			o.Dups = append(o.Dups, key)
			return nil
		}
		o.idx[key] = len(o.Members)
		o.Members = append(o.Members, Member{Key: key, Value: v})
		return nil
	})
	if err != nil {
		return Object{}, false
	}
	return o, true
}

var errNotObject = &SyntaxError{Msg: "bad key"}

// Get returns the value of key; ok is false when the key is absent.
func (o Object) Get(key string) (json.RawMessage, bool) {
	i, ok := o.idx[key]
	if !ok {
		return nil, false
	}
	return o.Members[i].Value, true
}

// Has reports whether key is present (even with a null value).
func (o Object) Has(key string) bool {
	_, ok := o.idx[key]
	return ok
}

// Str returns the value of key when it is a JSON string.
func (o Object) Str(key string) (string, bool) {
	v, ok := o.Get(key)
	if !ok {
		return "", false
	}
	return String(v)
}

// SplitArray splits raw into the elements of a JSON array, as sub-slices;
// ok is false when raw is not a well-formed array.
func SplitArray(raw []byte) ([]json.RawMessage, bool) {
	out := []json.RawMessage{}
	err := EachElement(raw, func(_ int, v []byte) error {
		out = append(out, json.RawMessage(v[:len(v):len(v)]))
		return nil
	})
	if err != nil {
		return nil, false
	}
	return out, true
}

// Kind is the JSON type of a raw value.
type Kind int

// JSON kinds; KindInvalid is anything that does not start like a value.
const (
	KindInvalid Kind = iota
	KindNull
	KindBool
	KindNumber
	KindString
	KindArray
	KindObject
)

// KindOf tells the type of a raw JSON value from its first byte.
func KindOf(raw []byte) Kind {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return KindInvalid
	}
	switch t[0] {
	case '{':
		return KindObject
	case '[':
		return KindArray
	case '"':
		return KindString
	case 't', 'f':
		return KindBool
	case 'n':
		return KindNull
	}
	if t[0] == '-' || (t[0] >= '0' && t[0] <= '9') {
		return KindNumber
	}
	if _, ok := NonFinite(t); ok { // Python's NaN, Infinity
		return KindNumber
	}
	return KindInvalid
}

// String names the kind as issue messages print it ("an object").
func (k Kind) String() string {
	switch k {
	case KindNull:
		return "null"
	case KindBool:
		return "a boolean"
	case KindNumber:
		return "a number"
	case KindString:
		return "a string"
	case KindArray:
		return "a list"
	case KindObject:
		return "an object"
	}
	return "invalid JSON"
}

// KindName names the kind of raw for issue messages ("a list").
func KindName(raw []byte) string { return KindOf(raw).String() }

// String decodes a JSON string; ok is false for any other value.
func String(raw []byte) (string, bool) {
	if KindOf(raw) != KindString {
		return "", false
	}
	return jsonstr.Unquote(bytes.TrimSpace(raw))
}

// Array returns the elements of a JSON list; ok is false for any other
// value.
func Array(raw []byte) ([]json.RawMessage, bool) {
	if KindOf(raw) != KindArray {
		return nil, false
	}
	return SplitArray(raw)
}

// Float decodes a JSON number, Python's NaN, Infinity and -Infinity
// included, bare or as QuoteNonFinite writes them.
func Float(raw []byte) (float64, bool) {
	if f, ok := NonFiniteString(raw); ok {
		return f, true
	}
	if KindOf(raw) != KindNumber {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64)
	return f, err == nil
}

// Bool decodes a JSON boolean.
func Bool(raw []byte) (bool, bool) {
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// IsEmpty reports whether raw is absent, null, "", [] or {}: the shapes
// real files use for "nothing here" (predict_result: [], eval_result: {}).
func IsEmpty(raw []byte) bool {
	t := bytes.TrimSpace(raw)
	switch string(t) {
	case "", "null", `""`, "[]", "{}":
		return true
	}
	if k := KindOf(t); k == KindArray || k == KindObject {
		return len(bytes.TrimSpace(t[1:len(t)-1])) == 0
	}
	return false
}

// IsScalar reports whether raw is a string, number, boolean or null.
func IsScalar(raw []byte) bool {
	k := KindOf(raw)
	return k == KindString || k == KindNumber || k == KindBool || k == KindNull
}

// ScalarText renders a value as text: strings as they are, numbers and
// booleans as written, null as "", anything else as compact JSON.
func ScalarText(raw []byte) string {
	switch KindOf(raw) {
	case KindString:
		s, _ := String(raw)
		return s
	case KindNull, KindInvalid:
		return ""
	case KindNumber, KindBool:
		return string(bytes.TrimSpace(raw))
	}
	return Compact(raw)
}

// Text renders a value as text: a string decoded, anything else as
// compact JSON (null as "null", a number as written), what is not JSON
// as it stands, trimmed. ScalarText is the same but for null, which it
// renders as "".
func Text(raw []byte) string {
	if s, ok := String(raw); ok {
		return s
	}
	return Compact(raw)
}

// Compact renders raw JSON on one line, keeping key order and number
// spelling; invalid JSON is returned trimmed.
func Compact(raw []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(bytes.TrimSpace(raw))
	}
	return b.String()
}

// Pretty indents raw JSON by two spaces, keeping key order and number
// spelling; invalid JSON is returned trimmed.
func Pretty(raw []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, bytes.TrimSpace(raw), "", "  ") != nil {
		return string(bytes.TrimSpace(raw))
	}
	return b.String()
}

// Clip cuts s to at most max runes, marking the cut with an ellipsis.
func Clip(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}
