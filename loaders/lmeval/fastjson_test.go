package lmeval

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestElements(t *testing.T) {
	if e := elements([]byte(`[]`)); e == nil || len(e) != 0 {
		t.Errorf("[] gives %v, want an empty non-nil list", e)
	}
	if e := elements([]byte(`"x"`)); e != nil {
		t.Errorf("a string gives %v, want nil", e)
	}
	if e := elements([]byte(`[["a", "b"], 1]`)); len(e) != 2 || string(e[0]) != `["a", "b"]` {
		t.Errorf("got %q", e)
	}
}

// TestPyDumpsFastMatchesTokens: the skimming pyDumps writes what the
// token decoder does, or declines.
func TestPyDumpsFastMatchesTokens(t *testing.T) {
	cases := []string{
		`{"question": "How many?\nTwo.", "answer": "#### 2", "n": 3, "f": 1.50, "e": 1e3, "l": [1, "a", [], {}], "t": true, "x": null}`,
		`{"caf\u00e9": "é", "k": {"nested": {"deep": [1.0, -0.0, 2E-2]}}}`,
		`[]`, `{}`, `"s"`, `12345678901234567890`, `{"a": [ ] , "b" : { } }`,
		`{"esc\"key": 1}`, `{"bad": tru}`, `{"a": 1,}`, `{"dup": 1, "dup": 2}`,
	}
	for i, c := range cases {
		var fast bytes.Buffer
		ferr := pyDumpsFast([]byte(c), &fast, 0)
		if i < 7 && i != 1 && ferr != nil { // case 1 has an escaped key
			t.Errorf("%s: the fast path declined: %v", c, ferr)
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(c)))
		dec.UseNumber()
		var slow bytes.Buffer
		serr := pyValue(dec, &slow, 0)
		if ferr == nil && (serr != nil || fast.String() != slow.String()) {
			t.Errorf("%s:\nfast %q\nslow %q (%v)", c, fast.String(), slow.String(), serr)
		}
	}
}

// TestPyDumpsNonFinite: a doc holding NaN or an infinity is dumped as
// Python's json.dumps(doc, indent=2) writes it, so that its doc_hash is
// checked rather than skipped (issue 14). The hash is Python's.
func TestPyDumpsNonFinite(t *testing.T) {
	raw := []byte(`{"x": NaN, "y": [Infinity, -Infinity], "label": 1}`)
	got, err := pyDumps(raw)
	want := "{\n  \"x\": NaN,\n  \"y\": [\n    Infinity,\n    -Infinity\n  ],\n  \"label\": 1\n}"
	if err != nil || string(got) != want {
		t.Fatalf("pyDumps: %q, %v; want %q", got, err, want)
	}
	// hashlib.sha256(json.dumps({"x": float("nan"), "y": [float("inf"),
	// -float("inf")], "label": 1}, indent=2, ensure_ascii=False).encode())
	if h := sha256Hex(got); h != "fbdbfbce3bfab823b51c99d3a6db4512e3af6dc9873d58092d52c290b89dad33" {
		t.Errorf("sha256 %s", h)
	}
}
