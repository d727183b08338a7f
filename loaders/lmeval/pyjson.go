package lmeval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"evalview/loaders/internal/jsonstr"
	"evalview/loaders/jsonl"
)

// The harness logs doc_hash as sha256 of Python's
// json.dumps(doc, indent=2, ensure_ascii=False), prompt_hash as sha256 of
// the prompt string and target_hash as sha256 of str(target). Checking them
// needs Python's exact formatting, key order and number literals included,
// so pyDumps re-encodes the raw JSON token by token instead of going
// through Go maps.

// sha256Hex returns the hex sha256 of s.
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// pyDumps formats raw JSON as Python's json.dumps(v, indent=2,
// ensure_ascii=False) would, keeping key order and number literals.
func pyDumps(raw []byte) ([]byte, error) {
	var fast bytes.Buffer
	if pyDumpsFast(raw, &fast, 0) == nil {
		return fast.Bytes(), nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out bytes.Buffer
	if err := pyValue(dec, &out, 0); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func pyValue(dec *json.Decoder, out *bytes.Buffer, depth int) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	return pyToken(dec, tok, out, depth)
}

func pyToken(dec *json.Decoder, tok json.Token, out *bytes.Buffer, depth int) error {
	switch t := tok.(type) {
	case json.Delim:
		closer := byte(']')
		if t == '{' {
			closer = '}'
		}
		out.WriteByte(byte(t))
		n := 0
		for dec.More() {
			if n > 0 {
				out.WriteByte(',')
			}
			out.WriteByte('\n')
			out.WriteString(strings.Repeat("  ", depth+1))
			if t == '{' {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				ks, ok := k.(string)
				if !ok {
					return fmt.Errorf("object key is not a string")
				}
				jsonl.WritePyString(out, ks)
				out.WriteString(": ")
			}
			if err := pyValue(dec, out, depth+1); err != nil {
				return err
			}
			n++
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return err
		}
		if n > 0 {
			out.WriteByte('\n')
			out.WriteString(strings.Repeat("  ", depth))
		}
		out.WriteByte(closer)
	case string:
		jsonl.WritePyString(out, t)
	case json.Number:
		out.WriteString(pyNumber(string(t)))
	case bool:
		if t {
			out.WriteString("true")
		} else {
			out.WriteString("false")
		}
	case nil:
		out.WriteString("null")
	default:
		return io.ErrUnexpectedEOF
	}
	return nil
}

// pyNumber turns a JSON number literal into what Python prints after
// json.loads: integers as written, floats as repr.
func pyNumber(lit string) string {
	if !strings.ContainsAny(lit, ".eE") {
		return lit
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return lit
	}
	return jsonl.PyFloat(f)
}

// pyStr renders a JSON scalar as Python's str() would, for target_hash.
// ok is false for values whose str() this cannot reproduce (lists, dicts).
func pyStr(raw []byte) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", false
	}
	switch raw[0] {
	case '"':
		if s, ok := jsonstr.Unquote(raw); ok {
			return s, true
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return s, true
	case 't':
		return "True", string(raw) == "true"
	case 'f':
		return "False", string(raw) == "false"
	case 'n':
		return "None", string(raw) == "null"
	case '[', '{':
		return "", false
	}
	return pyNumber(string(raw)), true
}
