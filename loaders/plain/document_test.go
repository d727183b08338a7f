package plain

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocument: a file that is one JSON document shows the records it
// holds, read again from their place in the file when opened, and its
// facts say where they were taken from.
func TestDocument(t *testing.T) {
	cases := []struct {
		name, data string
		ids        []string // the records' ids, in order
		titles     []string // record i's title, read again
		records    string   // the "records" fact
		notes      int      // document-records notes
	}{
		{"array", "[\n  {\"id\": \"a\", \"q\": \"one\"},\n  {\"id\": \"b\", \"q\": \"two\"}\n]\n",
			[]string{"a", "b"}, []string{"one", "two"}, "the 2 elements of its top-level array", 0},
		{"array without ids", "[\n  {\"q\": \"one\"},\n  {\"q\": \"two\"}, {\"q\": \"three\"}\n]\n",
			[]string{"record 1", "record 2", "record 3"}, []string{"one", "two", "three"}, "the 3 elements of its top-level array", 0},
		{"object holding one list", "{\n \"name\": \"run\",\n \"rows\": [{\"question\": \"q1\"}, {\"question\": \"q2\"}]\n}\n",
			[]string{"record 1", "record 2"}, []string{"q1", "q2"}, "the 2 objects of its list rows", 0},
		{"a list one level down, beside a shorter one", `{"evalId": "e", "results": {"prompts": [{"raw": "p"}], "results": [{"id": "r1", "prompt": "x"}, {"id": "r2", "prompt": "y"}], "stats": {"successes": 1}}}`,
			[]string{"r1", "r2"}, []string{"x", "y"}, "the 2 objects of its list results.results", 1},
		{"no list", "{\n \"name\": \"cfg\",\n \"seed\": 1\n}\n",
			[]string{"line 1"}, []string{"cfg"}, "the document itself, one record: it holds no list of objects", 1},
		{"a dict of dicts", "{\n \"task1\": {\"acc\": 1},\n \"task2\": {\"acc\": 0}\n}\n",
			[]string{"line 1"}, []string{`{"task1":{"acc":1},"task2":{"acc":0}}`}, "the document itself, one record: it holds no list of objects", 1},
		{"an array of numbers", "[\n 1,\n 2\n]\n",
			[]string{"record 1", "record 2"}, []string{"1", "2"}, "the 2 elements of its top-level array", 1},
		{"an empty array", "[\n]\n", nil, nil, "the 0 elements of its top-level array", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "doc.json")
			if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
			if SniffFile("doc.json", []byte(c.data)) != 1 {
				t.Fatal("not sniffed as JSON")
			}
			ds, err := openFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for i := 0; i < ds.Records.Len(); i++ {
				ids = append(ids, ds.Records.Summary(i).ID)
				rec, err := ds.Records.Record(i)
				if err != nil {
					t.Fatalf("record %d: %v", i, err)
				}
				if rec.Title != c.titles[i] {
					t.Errorf("record %d read again: title %q, want %q", i, rec.Title, c.titles[i])
				}
			}
			if strings.Join(ids, "|") != strings.Join(c.ids, "|") {
				t.Errorf("ids %q, want %q", ids, c.ids)
			}
			if got := ds.Fact("records"); got != c.records {
				t.Errorf("records fact %q, want %q", got, c.records)
			}
			notes := 0
			for _, is := range ds.Issues {
				if is.Code == "document-records" {
					notes++
				}
			}
			if notes != c.notes {
				t.Errorf("%d document-records notes, want %d: %v", notes, c.notes, ds.Issues)
			}
		})
	}
}

// TestNotADocument: JSON Lines stay JSON Lines (a one-line file of an
// object holding no list is one record either way; a first line that is
// a value and more lines after it, however long the first line); values
// pretty-printed one after another are a document followed by more: the
// first is read, and the break is said.
func TestNotADocument(t *testing.T) {
	for _, c := range []struct {
		name, data string
		records    int
		format     string
	}{
		{"JSON Lines", `{"a": 1}` + "\n" + `{"a": 2}` + "\n", 2, "JSON Lines, shown as plain records"},
		{"one line, no list", `{"a": 1, "b": [1, 2]}` + "\n", 1, "JSON Lines, shown as plain records"},
		{"two pretty values", "{\n\"a\": 1\n}\n{\n\"a\": 2\n}\n", 1, "a JSON document, its records shown as plain records"},
		{"a long first line", `{"a": "` + strings.Repeat("x", 100<<10) + `", "rows": [{"b": 1}]}` + "\n" + `{"a": 2}` + "\n", 2, "JSON Lines, shown as plain records"},
		{"a long first line cut short", `{"a": "` + strings.Repeat("x", 100<<10) + "\n" + `{"a": 2}` + "\n" + `{"a": 3}` + "\n", 2, "JSON Lines, shown as plain records"},
	} {
		p := filepath.Join(t.TempDir(), "x.jsonl")
		if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		ds, err := openFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if ds.Records.Len() != c.records || ds.Fact("format") != c.format {
			t.Errorf("%s: %d records, format %q; want %d, %q", c.name, ds.Records.Len(), ds.Fact("format"), c.records, c.format)
		}
	}
}
