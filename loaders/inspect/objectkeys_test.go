package inspect

import (
	"encoding/json"
	"reflect"
	"testing"

	"evalview/loaders/jsonl"
)

// TestObjectKeysAsJSONL: a log's objects (scores, metrics, metadata) are
// read in order as every loader reads one, by jsonl.ParseObject: a key
// given twice keeps its first place and its last value, as Python's json
// reads it, and runcfg's settings of the same log agree.
func TestObjectKeysAsJSONL(t *testing.T) {
	raw := json.RawMessage(`{"b": 1, "a\u00e9": {"x": [1, 2]}, "b": "two", "c": null}`)
	want, _ := jsonl.ParseObject(raw)
	got := objectKeys(raw)
	if !reflect.DeepEqual(got, want.Members) {
		t.Errorf("objectKeys = %q, jsonl.ParseObject = %q", got, want.Members)
	}
	if len(got) != 3 || got[0].Key != "b" || string(got[0].Value) != `"two"` || got[1].Key != "aé" {
		t.Errorf("objectKeys = %q", got)
	}
	if objectKeys(json.RawMessage(`[1]`)) != nil {
		t.Error("an array has no keys")
	}
}
