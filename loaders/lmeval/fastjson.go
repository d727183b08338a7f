package lmeval

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"evalview/loaders/internal/jsonstr"
	"evalview/loaders/jsonl"
)

// Opening a record whose responses add up to hundreds of MB must take a
// fraction of a second, and encoding/json decodes at some 100 MB/s with a
// validation pass first. The helpers here split arrays with jsonl's
// skimmer and decode strings with jsonstr (the loaders' one string
// decoder, with encoding/json's rules), which run at memory speed on the
// long strings of model responses.

// elements returns the raw elements of a JSON array (empty, not nil, for
// []), or nil when raw is not one (or is malformed).
func elements(raw []byte) []json.RawMessage {
	out := []json.RawMessage{}
	if err := jsonl.EachElement(raw, func(_ int, v []byte) error {
		out = append(out, v)
		return nil
	}); err != nil {
		return nil
	}
	return out
}

// fastText is scalarText with a fast path for strings.
func fastText(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) >= 2 && raw[0] == '"' {
		if s, ok := jsonstr.Unquote(raw); ok {
			return s
		}
	}
	return scalarText(raw)
}

// mayBeLogLikelihoods tells cheaply whether resps could hold log-likelihood
// pairs ([[[lp, greedy]], ...]): their first scalar is a number or a short
// string. Generation responses (long text) skip the slow check.
func mayBeLogLikelihoods(resps []byte) bool {
	v := bytes.TrimLeft(resps, " \t\r\n[")
	if len(v) == 0 || v[0] != '"' {
		return true
	}
	end := bytes.IndexByte(v[1:], '"')
	return end >= 0 && end < 64
}

// stringList decodes a JSON array of strings (a row's "metrics"); ok is
// false for anything else, which callers hand to encoding/json.
func stringList(raw []byte) ([]string, bool) {
	elems := elements(raw)
	if elems == nil {
		return nil, false
	}
	out := make([]string, len(elems))
	for i, e := range elems {
		s, ok := jsonstr.Unquote(e)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// errSlowPath sends pyDumps to the token decoder: input the fast path
// does not handle exactly like it (escaped keys, deep nesting, odd
// literals).
var errSlowPath = errors.New("use the token decoder")

// pyDumpsFast is pyDumps for the common doc (a small object of strings,
// numbers and lists), walking it with jsonl's skimmer: doc_hash is checked
// for every doc while indexing.
func pyDumpsFast(raw []byte, out *bytes.Buffer, depth int) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || depth > 64 {
		return errSlowPath
	}
	indent := func(d int) {
		out.WriteByte('\n')
		for range d {
			out.WriteString("  ")
		}
	}
	switch raw[0] {
	case '{', '[':
		n := 0
		item := func(v []byte) error {
			if n > 0 {
				out.WriteByte(',')
			}
			indent(depth + 1)
			n++
			return pyDumpsFast(v, out, depth+1)
		}
		var err error
		out.WriteByte(raw[0])
		if raw[0] == '{' {
			err = jsonl.Skim(raw, func(f jsonl.Field) error {
				if strings.IndexByte(f.Key, '\\') >= 0 {
					return errSlowPath
				}
				if n > 0 {
					out.WriteByte(',')
				}
				indent(depth + 1)
				n++
				jsonl.WritePyString(out, f.Key)
				out.WriteString(": ")
				return pyDumpsFast(f.Value, out, depth+1)
			})
		} else {
			err = jsonl.EachElement(raw, func(_ int, v []byte) error { return item(v) })
		}
		if err != nil {
			return errSlowPath
		}
		if n > 0 {
			indent(depth)
		}
		out.WriteByte(raw[0] + 2) // '{'+2 is '}', '['+2 is ']'
	case '"':
		s, ok := jsonstr.Unquote(raw)
		if !ok {
			return errSlowPath
		}
		jsonl.WritePyString(out, s)
	case 't', 'f', 'n':
		if lit := string(raw); lit != "true" && lit != "false" && lit != "null" {
			return errSlowPath
		}
		out.Write(raw)
	default:
		if _, ok := jsonl.NonFinite(raw); ok {
			// Python's json.dumps writes float('nan') and the infinities
			// as these bare literals, which doc_hash was taken over.
			out.Write(raw)
			return nil
		}
		if !json.Valid(raw) {
			return errSlowPath
		}
		out.WriteString(pyNumber(string(raw)))
	}
	return nil
}

// docEntries is objectEntries through jsonl's skimmer (keys with escapes,
// rare, go to objectEntries, which unescapes them): titleOf runs for every
// doc while indexing.
func docEntries(raw []byte) ([]entry, error) {
	var out []entry
	err := jsonl.Skim(raw, func(f jsonl.Field) error {
		if strings.IndexByte(f.Key, '\\') >= 0 {
			return errSlowPath
		}
		out = append(out, entry{Key: f.Key, Val: f.Value})
		return nil
	})
	if err == errSlowPath {
		return objectEntries(raw)
	}
	return out, err
}
