package plain

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/model"
)

// inModes runs fn with the summaries kept in memory (a small file), built
// again from the file (lean: a big one), and built again from lines each
// walked as a stream (every line long).
func inModes(t *testing.T, fn func(t *testing.T)) {
	defer func(b int64, l int) { keepBudget, longLine = b, l }(keepBudget, longLine)
	for _, m := range []struct {
		name   string
		budget int64
		long   int
	}{{"kept", keepBudget, longLine}, {"lean", 0, longLine}, {"lean, long lines", 0, 8}} {
		keepBudget, longLine = m.budget, m.long
		t.Run(m.name, fn)
	}
}

// TestIndexModes: the records, their ids, titles, labels, issues and
// lines are the same whether the summaries are kept or built again, and
// whether a line is read whole or walked as a stream.
func TestIndexModes(t *testing.T) {
	inModes(t, TestRecords)
	inModes(t, TestBrokenFile)
	inModes(t, TestFacetsAndColumnsLeaveLongFields)
	inModes(t, TestQueryEveryField)
}

// TestLeanIndexAcrossBlocks: a file of several blocks, with blank and
// broken lines between records, a repeated id in another block, and
// records read out of order: every summary, line and issue as indexing
// found it, in every mode.
func TestLeanIndexAcrossBlocks(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		switch {
		case i%50 == 7:
			b.WriteString("\n") // blank
		case i%70 == 9:
			b.WriteString("{\"id\": \"broken\n")
		case i == 250:
			b.WriteString(`{"id": "r3", "text": "again"}` + "\n")
		default:
			b.WriteString(`{"id": "r` + itoa(i) + `", "text": "record ` + itoa(i) + `", "lang": "en"}` + "\n")
		}
	}
	p := filepath.Join(t.TempDir(), "many.jsonl")
	os.WriteFile(p, []byte(b.String()), 0o644)
	var want []model.Summary
	inModes(t, func(t *testing.T) {
		ds := openOne(t, p)
		if ds.Records.Len() != 300-6-5 {
			t.Fatalf("%d records", ds.Records.Len())
		}
		var got []model.Summary
		for i := ds.Records.Len() - 1; i >= 0; i-- { // backwards: no block read in order
			got = append(got, ds.Records.Summary(i))
		}
		for i, s := range got {
			r, err := ds.Records.Record(ds.Records.Len() - 1 - i)
			if err != nil {
				t.Fatal(err)
			}
			if r.ID != s.ID || r.Line != s.Line || r.Title != s.Title || r.Warnings != s.Warnings {
				t.Errorf("record %q line %d %q %d, summary %q line %d %q %d", r.ID, r.Line, r.Title, r.Warnings, s.ID, s.Line, s.Title, s.Warnings)
			}
		}
		last := got[0]
		if last.ID != "r299" || last.Line != 300 {
			t.Errorf("last record %q on line %d", last.ID, last.Line)
		}
		var dup model.Summary
		for _, s := range got {
			if s.Line == 251 {
				dup = s
			}
		}
		if dup.ID != "r3 (line 251)" || dup.Warnings != 1 {
			t.Errorf("the repeated id: %+v", dup)
		}
		if want == nil {
			want = got
			return
		}
		for i := range got {
			if got[i].ID != want[i].ID || got[i].Line != want[i].Line || got[i].Title != want[i].Title || got[i].Labels.String() != want[i].Labels.String() {
				t.Errorf("summary %d: %+v, kept %+v", i, got[i], want[i])
			}
		}
	})
}

// TestLargeDocumentStreamed: a document larger than what is read whole
// (here, any) is indexed by its records' offsets, not read line by line:
// a one-line document's list, a pretty-printed array across several
// blocks of records, each record read again from its place; a long
// element walked as a stream.
func TestLargeDocumentStreamed(t *testing.T) {
	defer func(n int64, l int, b int64) { maxDocument, longLine, keepBudget = n, l, b }(maxDocument, longLine, keepBudget)
	maxDocument, keepBudget = 0, 0
	dir := t.TempDir()
	p := filepath.Join(dir, "doc.json")
	os.WriteFile(p, []byte(`{"id": "d", "results": [{"a": 1}, {"a": 2}, {"a": 3}], "note": "a document on one line"}`+"\n"), 0o644)
	ds := openOne(t, p)
	if ds.Records.Len() != 3 || ds.Records.Summary(2).ID != "record 3" || ds.Fact("records") != "the 3 objects of its list results" {
		t.Errorf("%d records, the last %q; records %q", ds.Records.Len(), ds.Records.Summary(2).ID, ds.Fact("records"))
	}
	var b strings.Builder
	b.WriteString("[\n")
	for i := range 1000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "  {\n    \"id\": \"r%d\",\n    \"question\": \"q %d\"\n  }", i, i)
	}
	b.WriteString("\n]\n")
	os.WriteFile(p, []byte(b.String()), 0o644)
	ds = openOne(t, p)
	if ds.Records.Len() != 1000 {
		t.Fatalf("%d records", ds.Records.Len())
	}
	for _, i := range []int{999, 0, 64, 500, 63} {
		s := ds.Records.Summary(i)
		r, err := ds.Records.Record(i)
		if err != nil || s.ID != "r"+itoa(i) || s.Line != 2+4*i || r.Title != "q "+itoa(i) || r.Line != s.Line {
			t.Errorf("record %d: %+v, %v; summary %q line %d", i, r, err, s.ID, s.Line)
		}
	}
	longLine = 64
	long := `{"id": "long", "question": "a short one", "text": "` + strings.Repeat("x", 200) + `"}`
	os.WriteFile(p, []byte("[\n  {\"id\": \"a\"},\n  "+long+",\n  {\"id\": \"b\"}\n]\n"), 0o644)
	ds = openOne(t, p)
	r, err := ds.Records.Record(1)
	if err != nil || ds.Records.Len() != 3 || r.ID != "long" || r.Title != "a short one" || len(r.Raw) != 1 || string(r.Raw[0].JSON) != long {
		t.Fatalf("%d records; the long one %+v, %v", ds.Records.Len(), r.Summary, err)
	}
	if s := ds.Records.Summary(2); s.ID != "b" || s.Line != 4 {
		t.Errorf("the record after the long one: %+v", s)
	}
}
