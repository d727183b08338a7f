package runzip

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"evalview/internal/hostile"
	"evalview/loaders/internal/nonfinite"
	"evalview/model/runstats"
)

// FuzzParseJSON checks the position-keeping parser against encoding/json:
// both accept the same inputs (short of the nesting limit), and every
// node's offsets delimit valid JSON.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a": [1, 2.5e3, "x", null, true]}`, "{\n \"a\": tru e}", `{"a":1} {}`, `"s"`, `[[[[`, `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, odd, err := parseJSON(data)
		// Python's NaN and Infinity are valid here (a run's files are
		// written by Python): the oracle reads them with the other
		// reader of them, internal/nonfinite, not parseJSON's own.
		valid := json.Valid(nonfinite.Sanitize(data))
		if err == nil && !valid {
			t.Fatalf("parseJSON accepted invalid JSON %q", data)
		}
		if err != nil {
			if valid && !strings.Contains(err.Error(), "nested") {
				t.Fatalf("parseJSON rejected valid JSON %q: %v", data, err)
			}
			if je, ok := err.(*jsonError); !ok || je.off < 0 || je.off > len(data) {
				t.Fatalf("error %v has no offset inside the input", err)
			}
			return
		}
		var walk func(*node)
		walk = func(n *node) {
			if n.off < 0 || n.end > len(data) || n.off > n.end || !json.Valid(nonfinite.Sanitize(data[n.off:n.end])) {
				t.Fatalf("node %d..%d of %q is not a JSON value", n.off, n.end, data)
			}
			for _, c := range n.items {
				walk(c)
			}
			for _, c := range n.fields {
				walk(c)
			}
		}
		walk(n)
		for _, o := range odd {
			if o.off < 0 || o.off > len(data) || o.Path == "" {
				t.Fatalf("oddity %+v has no place in %q", o, data)
			}
		}
	})
}

// FuzzOpenZip opens arbitrary bytes as a run zip: it must never panic,
// and every dataset it gives must list its issues and records. Seeds are
// the small run (fuzzsmall_test.go) zipped, with and without an outer
// folder.
func FuzzOpenZip(f *testing.F) {
	small := smallRun()
	for _, outer := range []string{"", "run/"} {
		data, err := os.ReadFile(small.zip(f, outer))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("PK\x03\x04"))
	dirs := &fuzzDirs{base: hostile.FuzzDir(f)}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := dirs.next() + ".zip"
		defer os.Remove(p)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		dss, err := Open(p)
		if err != nil {
			return
		}
		for _, ds := range dss {
			for i := 0; i < ds.Records.Len(); i++ {
				_ = ds.Records.Summary(i)
				_, _ = ds.Records.Record(i)
			}
			_, _ = ds.AllIssues()
			_ = runstats.StatsOf(ds, 0)
		}
	})
}
