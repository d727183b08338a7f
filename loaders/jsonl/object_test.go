package jsonl

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestParseObject(t *testing.T) {
	cases := []struct {
		in   string
		ok   bool
		keys string // keys=values, in order
	}{
		{`{}`, true, ""},
		{` { "a" : 1 , "b":[1,{"c":"]}"}], "d":"x\"y" } `, true, `a=1 b=[1,{"c":"]}"}] d="x\"y"`},
		{`{"a":1,"a":2}`, true, `a=2`}, // last wins, first position kept
		{`{"k\u00e9y":true}`, true, `kéy=true`},
		{`{"a":{"b":{"c":null}}}`, true, `a={"b":{"c":null}}`},
		{`{"a":1`, false, ""},
		{`{"a" 1}`, false, ""},
		{`{"a":1,}`, false, ""},
		{`{"a":1} x`, false, ""},
		{`{"a":"unterminated}`, false, ""},
		{`{"a":[1,2}`, false, ""},
		{`[1]`, false, ""},
		{`"s"`, false, ""},
		{``, false, ""},
		{`{` + strings.Repeat(`[`, 100000), false, ""}, // deep input: no recursion
	}
	for _, c := range cases {
		o, ok := ParseObject([]byte(c.in))
		if ok != c.ok {
			t.Errorf("ParseObject(%.40q) ok = %v, want %v", c.in, ok, c.ok)
			continue
		}
		var kv []string
		for _, m := range o.Members {
			kv = append(kv, m.Key+"="+string(m.Value))
		}
		if got := strings.Join(kv, " "); got != c.keys {
			t.Errorf("ParseObject(%q) = %s, want %s", c.in, got, c.keys)
		}
	}
}

func TestSplitArray(t *testing.T) {
	cases := []struct {
		in   string
		ok   bool
		want []string
	}{
		{`[]`, true, []string{}},
		{`[ 1 , "a,b" , {"x":[2,3]}, null ]`, true, []string{`1`, `"a,b"`, `{"x":[2,3]}`, `null`}},
		{`[1,]`, false, nil},
		{`[1 2]`, false, nil},
		{`[`, false, nil},
		{`{}`, false, nil},
	}
	for _, c := range cases {
		got, ok := SplitArray([]byte(c.in))
		if ok != c.ok {
			t.Errorf("SplitArray(%q) ok = %v", c.in, ok)
			continue
		}
		if !ok {
			continue
		}
		s := []string{}
		for _, g := range got {
			s = append(s, string(g))
		}
		if !reflect.DeepEqual(s, c.want) {
			t.Errorf("SplitArray(%q) = %q, want %q", c.in, s, c.want)
		}
	}
}

func TestAsString(t *testing.T) {
	cases := map[string]string{
		`"plain"`:           "plain",
		`"tab\there"`:       "tab\there",
		`"\u4e2d\u6587"`:    "中文",
		` "spaced" `:        "spaced",
		"\"bad \xff byte\"": "bad \ufffd byte",
	}
	for in, want := range cases {
		if got, ok := String([]byte(in)); !ok || got != want {
			t.Errorf("String(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{`"`, `1`, `{"a":1}`, ``} {
		if _, ok := String([]byte(in)); ok {
			t.Errorf("String(%q) succeeded", in)
		}
	}
}

// FuzzParseObject checks the Object splitter against encoding/json on
// valid input: same keys, same values.
func FuzzParseObject(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":[1,"]",{"c":"}"}],"a":"x\"y","\u00e9":null}`))
	f.Add([]byte(`{ "k" : { } , "l" : [ ] }`))
	// Keys of invalid UTF-8: encoding/json decodes each bad byte as
	// U+FFFD, so these two keys are one (the fuzzer found both).
	f.Add([]byte("{\"\xff\":1}"))
	f.Add([]byte("{\"a\xe2\x80\":1,\"a\xff\xfe\":2}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, ok := ParseObject(data) // must not panic on anything
		var want map[string]json.RawMessage
		// null unmarshals into a map without error, as a nil map: it
		// is not an object (the fuzzer found it).
		if !json.Valid(data) || json.Unmarshal(data, &want) != nil || want == nil {
			return
		}
		if !ok {
			t.Fatalf("valid Object %q not split", data)
		}
		if len(o.idx) != len(want) {
			t.Fatalf("%d keys, want %d", len(o.idx), len(want))
		}
		for k, v := range want {
			got, ok := o.Get(k)
			if !ok || Compact(got) != Compact(v) {
				t.Fatalf("key %q: %s, want %s", k, got, v)
			}
		}
	})
}

// TestText: a string decoded as encoding/json decodes it, anything else
// as json.Compact writes it, what is not JSON as it stands (trimmed). The
// loaders that render settings and fields (lm-eval, runcfg) read values
// through it, so the two stay one rendering.
func TestText(t *testing.T) {
	for _, in := range []string{
		`"plain"`, ` "esc\"aped \u00e9 \/ \n" `, `"bad utf8 ` + "\xff" + `"`, `""`,
		`null`, `true`, `1.50`, `-0`, `1e-05`, `[1, "a" , {"b": null}]`, `{ "z": 1, "a": [ ] }`,
		`NaN`, `"cut`, `{"a":`, ``, `   `,
	} {
		var want string
		var s string
		if strings.HasPrefix(strings.TrimSpace(in), `"`) && json.Unmarshal([]byte(in), &s) == nil {
			want = s
		} else {
			var buf bytes.Buffer
			if json.Compact(&buf, []byte(in)) == nil {
				want = buf.String()
			} else {
				want = strings.TrimSpace(in)
			}
		}
		if got := Text([]byte(in)); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}
