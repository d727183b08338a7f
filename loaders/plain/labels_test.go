package plain

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// wideLine is one JSON object of n short fields, "k0000": 0 and on, plus
// k0000 again at the end (its last value wins).
func wideLine(n int) []byte {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, "%q: %d, ", fmt.Sprintf("k%04d", i), i)
	}
	b.WriteString(`"k0000": "last"}`)
	return []byte(b.String())
}

// TestWideRecordLabels: a record of many fields has one label per field,
// a repeated key its last value, and building it allocates in proportion
// to the line, not to the square of its fields (labels added one at a
// time to an immutable model.Labels copied them all for each one: 64 MB
// for a line of 2,000 fields, 33 KB).
func TestWideRecordLabels(t *testing.T) {
	const n = 2000
	line := wideLine(n)
	r, is := build("wide.jsonl", 1, line, true)
	if is != nil {
		t.Fatal(is.Message)
	}
	if r.Labels.Len() != n {
		t.Fatalf("%d labels, want %d", r.Labels.Len(), n)
	}
	if v := r.Labels.Get("k0000"); v != "last" {
		t.Errorf("k0000 = %q, want the last value given, %q", v, "last")
	}
	if v := r.Labels.Get("k1999"); v != "1999" {
		t.Errorf("k1999 = %q, want 1999", v)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	build("wide.jsonl", 1, line, true)
	runtime.ReadMemStats(&after)
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(100*len(line)); got > limit {
		t.Errorf("building a record of %d fields (%d bytes) allocated %d bytes, more than %d", n, len(line), got, limit)
	}
}

// BenchmarkWideRecord builds a record of 200 short fields.
func BenchmarkWideRecord(b *testing.B) {
	line := wideLine(200)
	b.ReportAllocs()
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		build("wide.jsonl", 1, line, true)
	}
}
