package runcfg

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestAddJSON: an object's members are settings in the order written,
// nested ones joined with dots; a key given twice keeps its first place
// and its last value (Python's dict, and the jsonl.ParseObject that
// Inspect's and lighteval's readers share); null and skipped keys are
// left out; a string is decoded, anything else compact JSON.
func TestAddJSON(t *testing.T) {
	s := New("gen.seed", "device")
	s.AddJSON("", json.RawMessage(`{"pretrained": "a\/b", "device": "cuda", "dtype": null,
		"gen": {"temperature": 0.0, "seed": 3, "stop": ["\n", "Q:"], "top_p": 1e-05},
		"revision": "step1", "revision": "step2", "w\u00e9ight": true}`))
	s.AddJSON("limit", json.RawMessage(` 10 `))
	s.AddJSON("none", json.RawMessage(`null`))
	got := fmt.Sprint(s.Facts())
	want := `[{pretrained a/b} {gen.temperature 0.0} {gen.stop ["\n","Q:"]} {gen.top_p 1e-05} {revision step2} {wéight true} {limit 10}]`
	if got != want {
		t.Errorf("facts\n got %s\nwant %s", got, want)
	}
}

// TestAddArgs: lm-eval's "k=v,k=v" split as simple_parse_args_string
// splits it, quotes and spaces trimmed, an argument without "=" left out.
func TestAddArgs(t *testing.T) {
	s := New("batch_size")
	s.AddArgs("", `pretrained=x, dtype="bfloat16",batch_size=8,flag, revision='main'`)
	s.AddArgs("gen_kwargs", "temperature=0,until=\\n")
	got := fmt.Sprint(s.Facts())
	want := `[{pretrained x} {dtype bfloat16} {revision main} {gen_kwargs.temperature 0} {gen_kwargs.until \n}]`
	if got != want {
		t.Errorf("facts\n got %s\nwant %s", got, want)
	}
}
