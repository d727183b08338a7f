package jsonhead

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	head := []byte("\xef\xbb\xbf  {\"results\": {\"gsm8k\": {\"acc,none\": 0.5, \"alias\": \"gsm8k\"}}, \"n\": [1, {\"a\": 2}], \"s\": \"x\\ny\", \"b\": true, \"z\": null, \"nan\": NaN}")
	v := Parse(head, 2)
	if v == nil || v.Kind != Object || !v.Whole || v.Bad {
		t.Fatalf("top: %+v", v)
	}
	if strings.Join(v.Keys, ",") != "results,n,s,b,z,nan" {
		t.Errorf("keys %v", v.Keys)
	}
	task := v.Get("results").Get("gsm8k")
	if !task.Is(Object) || !task.Has("acc,none", "alias") || !task.Get("acc,none").Is(Number) {
		t.Errorf("results.gsm8k: %+v", task)
	}
	if task.Get("acc,none").Fields != nil {
		t.Error("below the depth asked, values keep no members")
	}
	n := v.Get("n")
	if !n.Is(Array) || n.Len != 2 || !n.Elems[1].Is(Object) || n.Elems[0].Text != "1" {
		t.Errorf("n: %+v", n)
	}
	if v.Get("s").Text != "x\ny" || v.Get("b").Kind != Bool || v.Get("z").Kind != Null || v.Get("nan").Kind != Number {
		t.Error("scalars read wrong")
	}
	if v.Count("results", "n", "missing") != 2 || v.Has("results", "missing") {
		t.Error("Count or Has wrong")
	}
}

// TestParseCut: a head cut inside a value keeps what was read before the
// cut, and is not bad; a syntax error before the end is.
func TestParseCut(t *testing.T) {
	full := `{"version": 2, "status": "success", "eval": {"task": "x", "model": "m", "config": {"long": "` + strings.Repeat("a", 300)
	v := Parse([]byte(full), 1)
	if v == nil || v.Bad || v.Whole {
		t.Fatalf("cut head: %+v", v)
	}
	if !v.Has("version", "status", "eval") || !v.Get("eval").Has("task", "model", "config") {
		t.Errorf("keys read before the cut: %v, eval %v", v.Keys, v.Get("eval").Keys)
	}
	if Parse([]byte(`{"a": 1,, "b": 2}`), 0).Bad != true {
		t.Error("a syntax error inside the head is bad")
	}
	if Parse([]byte("{\n"), 0).Bad {
		t.Error("an object's first line alone is not bad")
	}
	if Parse([]byte("not json"), 0) != nil || Parse([]byte(`"s"`), 0) != nil {
		t.Error("a head that starts no object or array gives nil")
	}
}

// TestParseStrings: a string's text is decoded as encoding/json decodes
// it (jsonstr), not as a Go literal: "\/" is "/", and Go's own escapes
// ("\x41", "\a") are no JSON.
func TestParseStrings(t *testing.T) {
	v := Parse([]byte(`{"a": "x\/y \u00e9", "b": "\x41", "c": "\a"}`), 0)
	if got := v.Get("a").Text; got != "x/y é" {
		t.Errorf("a: %q", got)
	}
	for _, k := range []string{"b", "c"} {
		if got := v.Get(k).Text; got == "A" || got == "\a" {
			t.Errorf("%s read as a Go literal: %q", k, got)
		}
	}
}
