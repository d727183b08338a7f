package lighteval

import (
	"encoding/json"
	"reflect"
	"testing"

	"evalview/loaders/jsonl"
)

// TestObjectKeysAsJSONL: a results file's tasks and metrics are read in
// order as every loader reads an object, by jsonl.ParseObject: a key
// given twice keeps its first place and its last value, as Python's json
// reads it.
func TestObjectKeysAsJSONL(t *testing.T) {
	raw := json.RawMessage(`{"acc": 0.5, "acc_stderr": 0.1, "acc": 0.75}`)
	want, _ := jsonl.ParseObject(raw)
	got := objectKeys(raw)
	if !reflect.DeepEqual(got, want.Members) || len(got) != 2 || string(got[0].Value) != "0.75" {
		t.Errorf("objectKeys = %q, jsonl.ParseObject = %q", got, want.Members)
	}
	r, err := parseResults("r.json", []byte(`{"results": {"t|a|0": {"acc": 0.5, "acc_stderr": 0.1, "acc": 0.75}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if ms := r.metrics("t|a|0"); len(ms) != 1 || ms[0].Value != 0.75 || ms[0].Stderr != 0.1 {
		t.Errorf("metrics %+v", ms)
	}
}
