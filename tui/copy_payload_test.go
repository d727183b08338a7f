package tui

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"
	"unicode/utf8"

	"evalview/internal/hostile"
	"evalview/internal/termsafe"
	"evalview/loaders"
	"evalview/tui/detail"
)

// clipUnsafe says why text bound for the clipboard could act on the
// terminal it is pasted into, or "".
func clipUnsafe(s string) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for _, r := range s {
		if r != '\n' && r != '\t' && termsafe.Dangerous(r) {
			return "raw " + string(r)
		}
	}
	return ""
}

// TestClipPayloadHostile: what `y` copies of a record whose fields hold
// escape sequences, C1 and bidi controls and invalid UTF-8 holds none of
// them raw; the record JSON stays JSON and decodes to the file's values.
func TestClipPayloadHostile(t *testing.T) {
	for _, dir := range []string{"lmeval", "sample", "testset", "run"} {
		ds, err := loaders.Open([]string{filepath.Join(hostileDir, dir)}, loaders.Options{})
		if err != nil || len(ds) == 0 {
			t.Fatalf("%s: %v", dir, err)
		}
		for !ds[0].Records.Done() {
			time.Sleep(time.Millisecond)
		}
		for i := 0; i < ds[0].Records.Len(); i++ {
			rec, err := ds[0].Records.Record(i)
			if err != nil {
				t.Fatal(err)
			}
			c := detail.Clip{What: "record JSON", Text: detail.RecordJSON(rec), JSON: true}
			p := c.Payload()
			if why := clipUnsafe(p); why != "" {
				t.Fatalf("%s record %d: record JSON payload: %s", dir, i, why)
			}
			var want, got any
			if json.Unmarshal([]byte(c.Text), &want) == nil {
				if err := json.Unmarshal([]byte(p), &got); err != nil {
					t.Fatalf("%s record %d: the payload is no longer JSON: %v", dir, i, err)
				}
				if a, b := mustJSON(want), mustJSON(got); a != b {
					t.Errorf("%s record %d: the payload decodes to other values", dir, i)
				}
			}
			for _, a := range rec.Attempts {
				if why := clipUnsafe((detail.Clip{Text: a.Text}).Payload()); why != "" {
					t.Fatalf("%s record %d: response payload: %s", dir, i, why)
				}
			}
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestClipPayloadProperty: over random strings drawing on every control
// class, no payload holds one raw.
func TestClipPayloadProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 4))
	for range 5000 {
		s := hostile.RandomString(rng.IntN, 10)
		b, _ := json.Marshal(map[string]string{"text": s})
		for _, c := range []detail.Clip{{Text: s}, {Text: string(b), JSON: true}} {
			if why := clipUnsafe(c.Payload()); why != "" {
				t.Fatalf("payload of %q (json %v): %s", c.Text, c.JSON, why)
			}
		}
	}
}
