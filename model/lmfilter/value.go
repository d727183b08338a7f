package lmfilter

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// valueText renders a filtered value for display: a string as itself,
// anything else as compact JSON.
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return compactJSON(v)
}

// compactJSON encodes v without HTML escaping; values that cannot be
// encoded render with %v.
func compactJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return string(bytes.TrimRight(b.Bytes(), "\n"))
}

// hashKey is the identity collections.Counter and dict lookups use for v.
// Python's True == 1 == 1.0, so booleans and numbers share keys; lists
// and dicts are unhashable, as in Python.
type hashKey struct {
	kind byte // 's' string, 'n' number or boolean, 'N' None
	s    string
	n    float64
}

// keyOf returns v's hashKey. Strings are keys as they are, without a
// copy: a vote over 64 long responses hashes each once.
func keyOf(v any) (hashKey, error) {
	switch t := v.(type) {
	case string:
		return hashKey{kind: 's', s: t}, nil
	case float64:
		if t == 0 {
			t = 0 // -0.0 == 0.0 in Python
		}
		return hashKey{kind: 'n', n: t}, nil
	case bool:
		if t {
			return hashKey{kind: 'n', n: 1}, nil
		}
		return hashKey{kind: 'n', n: 0}, nil
	case nil:
		return hashKey{kind: 'N'}, nil
	}
	return hashKey{}, fmt.Errorf("unhashable type: '%s'", pyTypeName(v))
}
