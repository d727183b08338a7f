package plain

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"evalview/model"
)

// A document of at most maxDocument is read whole; a larger one is
// indexed by its records' offsets (document_stream.go). These tests hold
// the two to the same records and issues, by opening each document both
// ways: read whole, then streamed with maxDocument lowered to nothing,
// its list rows kept and built again (lean), its long elements walked as
// streams.

// dumpDataset writes out everything a dataset shows of its records: the
// facts, the issues, every record's list row and the record read again
// (its fields, raw JSON and issues). Records are read backwards, so that
// no block of a lean index is read in order.
func dumpDataset(t *testing.T, ds *model.Dataset, rows bool) string {
	t.Helper()
	var b strings.Builder
	for _, f := range ds.Facts {
		fmt.Fprintf(&b, "fact %s: %s\n", f.Key, f.Value)
	}
	for _, is := range ds.Issues {
		fmt.Fprintf(&b, "issue %+v\n", is)
	}
	n := ds.Records.Len()
	fmt.Fprintf(&b, "%d records\n", n)
	for i := n - 1; i >= 0; i-- {
		s := ds.Records.Summary(i)
		fmt.Fprintf(&b, "row %d: %q line %d %q %s e%d w%d %s\n", i, s.ID, s.Line, s.Title, s.Status, s.Errors, s.Warnings, s.Labels.String())
		if !rows {
			continue
		}
		r, err := ds.Records.Record(i)
		if err != nil {
			fmt.Fprintf(&b, "record %d: %v\n", i, err)
			continue
		}
		fmt.Fprintf(&b, "record %d: %q line %d %q e%d w%d %s\n", i, r.ID, r.Line, r.Title, r.Errors, r.Warnings, r.Labels.String())
		for _, f := range r.Fields {
			fmt.Fprintf(&b, "  field %q %v %q\n", f.Name, f.IsJSON, f.Value)
		}
		for _, p := range r.Raw {
			fmt.Fprintf(&b, "  raw %q line %d omitted %d %q\n", p.Label, p.Line, p.Omitted, p.JSON)
		}
		for _, is := range r.Issues {
			fmt.Fprintf(&b, "  issue %+v\n", is)
		}
	}
	return b.String()
}

// bothPaths opens the document at p read whole and streamed, in every
// mode, and fails where they differ; it returns the dataset read whole.
func bothPaths(t *testing.T, p string) *model.Dataset {
	t.Helper()
	defer func(d, b int64, l int) { maxDocument, keepBudget, longLine = d, b, l }(maxDocument, keepBudget, longLine)
	whole, err := openFile(p)
	if err != nil {
		t.Fatal(err)
	}
	want := dumpDataset(t, whole, true)
	maxDocument = 0
	for _, m := range []struct {
		name   string
		budget int64
		long   int
	}{{"kept", keepBudget, longLine}, {"lean", 0, longLine}, {"lean, long elements", 0, 24}} {
		keepBudget, longLine = m.budget, m.long
		ds, err := openFile(p)
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		if m.long != 24 {
			if got := dumpDataset(t, ds, true); got != want {
				t.Fatalf("%s: streamed, %s:\n%s\nread whole:\n%s", filepath.Base(p), m.name, got, want)
			}
			continue
		}
		// Long elements keep the head of each field only: their ids,
		// lines and issues are the same, and each row is what its
		// record read again gives.
		if got, want := ids(ds), ids(whole); got != want {
			t.Fatalf("%s: streamed, %s: %s\nread whole: %s", filepath.Base(p), m.name, got, want)
		}
		for i := 0; i < ds.Records.Len(); i++ {
			s := ds.Records.Summary(i)
			r, err := ds.Records.Record(i)
			if err != nil || r.ID != s.ID || r.Line != s.Line || r.Title != s.Title || r.Warnings != s.Warnings {
				t.Fatalf("%s: %s: record %d: %v; summary %+v", filepath.Base(p), m.name, i, err, s)
			}
		}
	}
	return whole
}

// ids lists a dataset's records' ids, lines, warnings and errors.
func ids(ds *model.Dataset) string {
	var b strings.Builder
	for i := 0; i < ds.Records.Len(); i++ {
		s := ds.Records.Summary(i)
		fmt.Fprintf(&b, "%s@%d w%d e%d|", s.ID, s.Line, s.Warnings, s.Errors)
	}
	return b.String()
}

// documents are the shapes a document takes, broken ones too.
var documents = map[string]string{
	"pretty array":                "[\n  {\n    \"id\": \"a\",\n    \"question\": \"q1\\nsecond line\",\n    \"n\": 1\n  },\n  {\n    \"id\": \"b\",\n    \"question\": \"q2\"\n  }\n]\n",
	"one a line":                  "[{\"q\": \"one\"},\n{\"q\": \"two\"},\n{\"q\": \"three\"}]",
	"minified":                    `[{"q":"one","id":1},{"q":"two","id":2},{"q":"three","id":1},{"q":"four"},{"q":"five"}]`,
	"no ids":                      "[\n {\"q\": \"one\"}, {\"q\": \"two\"},\n {\"q\": \"three\"}\n]",
	"dup ids":                     "[\n {\"id\": 7, \"q\": \"a\"},\n {\"id\": 7, \"q\": \"b\"},\n {\"id\": \"7\", \"q\": \"c\", \"q\": \"d\"}\n]",
	"mixed elements":              "[\n 1,\n \"two\",\n [3, 4],\n {\"five\": 5},\n null\n]\n",
	"object of lists":             "{\n \"name\": \"run\",\n \"rows\": [{\"question\": \"q1\"}, {\"question\": \"q2\"}],\n \"more\": [{\"x\": 1}],\n \"nums\": [1, 2, 3]\n}\n",
	"lists one down":              `{"evalId": "e", "results": {"prompts": [{"raw": "p"}], "results": [{"id": "r1", "prompt": "x"}, {"id": "r2", "prompt": "y"}], "stats": {"successes": 1}}}`,
	"dict of dicts":               "{\n \"task1\": {\"acc\": 1},\n \"task2\": {\"acc\": 0.5}\n}\n",
	"empty array":                 "[\n]\n",
	"bom and crlf":                "\xef\xbb\xbf[\r\n  {\"id\": \"x\", \"t\": \"one\"},\r\n  {\"id\": \"y\", \"t\": \"two\"}\r\n]\r\n",
	"bad elements":                "[\n {\"id\": 1},\n {\"id\": tru},\n {\"id\": 3, \"q\": [1, 2,]},\n {\"q\": \"four\"},\n {\"id\": 1}\n]\n",
	"cut short":                   "[\n  {\"id\": 1, \"q\": \"a\"},\n  {\"id\": 2, \"q\": \"b\"},\n  {\"id\": 3, \"q\": \"c",
	"bad token":                   "[\n  {\"id\": 1},\n  {\"id\": 2}\n  {\"id\": 3}\n]\n",
	"wrong bracket":               "[\n  {\"id\": 1},\n  {\"id\": 2, \"l\": [1, 2}},\n  {\"id\": 3}\n]\n",
	"cut in an object":            "{\n \"meta\": {\"n\": 3},\n \"rows\": [\n  {\"a\": 1},\n  {\"a\": 2},\n  {\"a\"",
	"cut before a list":           "{\n \"meta\": {\"n\": 3},\n \"name\": \"x",
	"two values":                  "{\n \"rows\": [{\"a\": 1}, {\"a\": 2}]\n}\n{\n \"rows\": []\n}\n",
	"gaps":                        "[\n {\"id\": 1}" + strings.Repeat(" ", 5000) + ",\n {\"id\": 2},\n" + strings.Repeat("\n", 5000) + " {\"id\": 3}\n]",
	"nan":                         "[\n {\"id\": 1, \"v\": NaN},\n {\"id\": 2, \"v\": 1.5}\n]\n",
	"bracket alone, broken early": "[\n  {\"id\": 1,, },\n  {\"id\": 2}\n]\n",
	"long element": "[\n {\"id\": \"short\"},\n {\"id\": \"long\", \"question\": \"a long one\", \"text\": \"" + strings.Repeat("lorem ipsum ", 20) +
		"\", \"n\": [" + strings.Repeat("1, ", 20) + "2]},\n {\"id\": \"last\"}\n]\n",
}

// TestDocumentPaths: every shape of document gives the same records and
// issues read whole and streamed.
func TestDocumentPaths(t *testing.T) {
	dir := t.TempDir()
	for name, doc := range documents {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".json")
			if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			bothPaths(t, p)
		})
	}
}

// TestDocumentFixtures: every JSON fixture of the project's testdata (and
// of ../shared/data, when it is there) that is a document gives the same
// records and issues read whole and streamed.
func TestDocumentFixtures(t *testing.T) {
	n := 0
	for _, root := range []string{"../../testdata", "../../../shared/data"} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".jsonl") {
				return nil
			}
			st, err := d.Info()
			if err != nil || st.Size() > maxDocument {
				return nil
			}
			head, err := os.ReadFile(p)
			if err != nil || !isDocument(head[:min(len(head), 64<<10)], st.Size()) {
				return nil
			}
			n++
			t.Run(p, func(t *testing.T) { bothPaths(t, p) })
			return nil
		})
	}
	if n < 50 {
		t.Errorf("only %d documents among the fixtures", n)
	}
}

// TestDocumentGenerated: random documents of records (ids given, missing
// or repeated, texts over several lines, nested values, a few elements
// broken, the document sometimes cut short or given a bad token) give the
// same records and issues read whole and streamed, across blocks of
// records.
func TestDocumentGenerated(t *testing.T) {
	dir := t.TempDir()
	for seed := range 60 {
		doc := genDocument(uint64(seed))
		p := filepath.Join(dir, "gen"+strconv.Itoa(seed)+".json")
		if err := os.WriteFile(p, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Run(strconv.Itoa(seed), func(t *testing.T) { bothPaths(t, p) })
	}
}

// genDocument writes a random document of records from seed.
func genDocument(seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed*31+7))
	var b strings.Builder
	nl, indent := "\n", "  "
	switch r.IntN(4) {
	case 0:
		nl, indent = "", ""
	case 1:
		nl = "\r\n"
	}
	if r.IntN(8) == 0 {
		b.WriteString("\xef\xbb\xbf")
	}
	n := r.IntN(200)
	if r.IntN(4) == 0 {
		n = 0
	}
	record := func(i int) {
		if r.IntN(30) == 0 {
			b.WriteString([]string{`{"id": tru}`, `{"q": [1,]}`, `"text"`, `42`, `{"a": 1, "a": 2}`}[r.IntN(5)])
			return
		}
		fields := []string{}
		switch r.IntN(4) {
		case 0:
			fields = append(fields, fmt.Sprintf(`"id": %d`, r.IntN(n+1)))
		case 1:
			fields = append(fields, fmt.Sprintf(`"id": "r%d"`, i))
		}
		fields = append(fields, fmt.Sprintf(`"question": %q`, fmt.Sprintf("what is %d?\nsay it", i)))
		if r.IntN(2) == 0 {
			fields = append(fields, `"lang": "en"`, fmt.Sprintf(`"score": %g`, r.Float64()))
		}
		if r.IntN(3) == 0 {
			fields = append(fields, `"meta": {"tags": ["a", "b"], "n": null}`)
		}
		if r.IntN(10) == 0 {
			fields = append(fields, `"text": "`+strings.Repeat("long text ", r.IntN(50))+`"`)
		}
		b.WriteString("{" + nl + indent + indent + strings.Join(fields, ","+nl+indent+indent) + nl + indent + "}")
	}
	list := func() {
		b.WriteString("[")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(nl + indent)
			record(i)
		}
		b.WriteString(nl + "]")
	}
	if r.IntN(3) == 0 {
		b.WriteString("{" + nl + `"name": "run",` + nl + `"rows": `)
		list()
		b.WriteString("," + nl + `"meta": {"other": [{"x": 1}]}` + nl + "}")
	} else {
		list()
	}
	b.WriteString(nl)
	doc := []byte(b.String())
	switch r.IntN(6) {
	case 0:
		doc = doc[:r.IntN(len(doc)+1)] // cut short
	case 1:
		if len(doc) > 0 {
			doc[r.IntN(len(doc))] = "}]{[,:\"x"[r.IntN(8)] // a bad token
		}
	}
	return doc
}

// benchDocument writes a pretty-printed array of n records of about 300
// bytes, as json.dump(list, f, indent=2) writes them.
func benchDocument(b *testing.B, n int) string {
	p := filepath.Join(b.TempDir(), "doc.json")
	var s strings.Builder
	s.WriteString("[\n")
	for i := range n {
		if i > 0 {
			s.WriteString(",\n")
		}
		fmt.Fprintf(&s, "  {\n    \"id\": %d,\n    \"question\": \"q %d %s\",\n    \"answer\": \"a\",\n    \"lang\": \"en\"\n  }", i, i, strings.Repeat("x", 200))
	}
	s.WriteString("\n]\n")
	if err := os.WriteFile(p, []byte(s.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkOpenDocument indexes a document of 20,000 records (7 MB) read
// whole and streamed, its rows kept or built again (lean: then every row
// is built once more, as a command's pass over them does).
func BenchmarkOpenDocument(b *testing.B) {
	p := benchDocument(b, 20_000)
	st, _ := os.Stat(p)
	defer func(d, k int64) { maxDocument, keepBudget = d, k }(maxDocument, keepBudget)
	for _, m := range []struct {
		name   string
		doc    int64
		budget int64
	}{{"whole", 64 << 20, keepBudget}, {"streamed", 0, keepBudget}, {"streamed lean", 0, 0}} {
		b.Run(m.name, func(b *testing.B) {
			maxDocument, keepBudget = m.doc, m.budget
			b.SetBytes(st.Size())
			for b.Loop() {
				ds, err := openFile(p)
				if err != nil || ds.Records.Len() != 20_000 {
					b.Fatal(err)
				}
				for i := range ds.Records.Len() {
					ds.Records.Summary(i)
				}
			}
		})
	}
}

// TestDocumentHostile: documents shaped to take memory or time open
// streamed with what they hold and what is wrong said: half a million
// one-element lists under the top object (each kept a table of offsets,
// 4 KB, before the walk dropped the lists that lose: 2 GB), an element
// nested two million levels deep, a key of 2 MB, an element followed by
// a megabyte of white space.
func TestDocumentHostile(t *testing.T) {
	defer func(d int64) { maxDocument = d }(maxDocument)
	maxDocument = 0
	dir := t.TempDir()
	var lists strings.Builder
	lists.WriteString("{\n")
	for i := range 500_000 {
		fmt.Fprintf(&lists, "\"k%d\": [{\"a\": %d}],\n", i, i)
	}
	lists.WriteString("\"last\": [{\"a\": 1}, {\"a\": 2}]\n}\n")
	deep := "[\n" + strings.Repeat("[", 2_000_000) + strings.Repeat("]", 2_000_000) + ",\n {\"a\": 1}\n]\n"
	for _, c := range []struct {
		name, doc string
		records   int
		issue     string
		maxAlloc  uint64
	}{
		{"lists", lists.String(), 2, "k19 (1), 499981 more lists", 256 << 20},
		{"deep", deep, 1, "element 1 is not JSON: invalid character '[' exceeded max depth (at byte 10002)", 256 << 20},
		{"key", "{\n\"" + strings.Repeat("k", 2<<20) + "\": [{\"a\": 1}]\n}\n", 0, "an object key is longer than 1 MB", 64 << 20},
		{"gap", "[\n{\"a\": 1}" + strings.Repeat(" ", 1<<20) + ",\n{\"a\": 2}\n]\n", 2, "", 64 << 20},
	} {
		p := filepath.Join(dir, c.name+".json")
		if err := os.WriteFile(p, []byte(c.doc), 0o644); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		ds := openOne(t, p)
		runtime.ReadMemStats(&after)
		var issues []string
		for _, is := range ds.Issues {
			issues = append(issues, is.Message)
		}
		if ds.Records.Len() != c.records || !strings.Contains(strings.Join(issues, "|"), c.issue) {
			t.Errorf("%s: %d records, issues %.500q", c.name, ds.Records.Len(), issues)
		}
		for i := range ds.Records.Len() {
			if _, err := ds.Records.Record(i); err != nil {
				t.Errorf("%s: record %d: %v", c.name, i, err)
			}
		}
		t.Logf("%s: %d MB allocated", c.name, (after.TotalAlloc-before.TotalAlloc)>>20)
		if n := after.TotalAlloc - before.TotalAlloc; n > c.maxAlloc {
			t.Errorf("%s: opening it allocated %d MB", c.name, n>>20)
		}
	}
}
