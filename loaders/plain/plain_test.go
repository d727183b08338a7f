package plain

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"evalview/model"
	"evalview/model/query"
)

const fixtures = "../../testdata/jsonl"

func openOne(t *testing.T, p string) *model.Dataset {
	t.Helper()
	dss, err := Open(p)
	if err != nil || len(dss) != 1 {
		t.Fatalf("Open(%s) = %d datasets, %v", p, len(dss), err)
	}
	return dss[0]
}

// Every field of a plain record is listed as written, its short scalars
// are labels for queries and facets, and the line is its raw JSON.
func TestRecords(t *testing.T) {
	ds := openOne(t, filepath.Join(fixtures, "quiz_log.jsonl"))
	if ds.Kind != model.KindJSONL || ds.Records.Len() != 3 || len(ds.Issues) != 0 {
		t.Fatalf("kind %s, %d records, issues %v", ds.Kind, ds.Records.Len(), ds.Issues)
	}
	if ds.Fact("fields") != "id, lang, question, answer, model_output, correct, tokens, meta, tags" {
		t.Errorf("fields fact = %q", ds.Fact("fields"))
	}
	r, err := ds.Records.Record(1)
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != "q2" || r.Title != "How many legs does a spider have?" || r.Status != model.StatusUnscored || r.HasScore || r.Line != 2 {
		t.Errorf("record = %+v", r.Summary)
	}
	// A multi-line text and an object are labels without a value: a
	// query reads them from the record (Presentation.FieldLabels).
	want := map[string]string{"lang": "en", "answer": "8", "correct": "false", "tokens": "14", "question": "How many legs does a spider have?", "model_output": "", "meta": ""}
	if r.Labels.Len() != len(want) {
		t.Errorf("labels = %v, want %v (no id)", r.Labels, want)
	}
	for k, v := range want {
		if r.Labels.Get(k) != v {
			t.Errorf("label %s = %q, want %q", k, r.Labels.Get(k), v)
		}
	}
	var names []string
	for _, f := range r.Fields {
		names = append(names, f.Name)
		if f.Name == "meta" && (!f.IsJSON || f.Value != `{"source":"bio-quiz","difficulty":"easy"}`) {
			t.Errorf("meta = %+v", f)
		}
		if f.Name == "model_output" && f.Value != "Spiders have six legs.\nInsects have six; spiders have eight." {
			t.Errorf("model_output = %q", f.Value)
		}
	}
	if strings.Join(names, " ") != "id lang question answer model_output correct tokens meta" {
		t.Errorf("fields = %v", names)
	}
	// The browser's record search (/) reaches every field, nested ones too.
	if txt := query.RecordText(r); !strings.Contains(txt, "bio-quiz") || !strings.Contains(txt, "Insects have six") {
		t.Errorf("record text lacks fields:\n%s", txt)
	}
	if len(r.Raw) != 1 || r.Raw[0].Line != 2 || !strings.HasPrefix(string(r.Raw[0].JSON), `{"id": "q2"`) {
		t.Errorf("raw = %+v", r.Raw)
	}
}

// Bad lines are issues naming their line; everything else is a record,
// named by its id or, without one or when it repeats, by its line.
func TestBrokenFile(t *testing.T) {
	p := filepath.Join(fixtures, "broken.jsonl")
	ds := openOne(t, p)
	var ids []string
	var issues []string
	for i := 0; i < ds.Records.Len(); i++ {
		r, err := ds.Records.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		if s := ds.Records.Summary(i); s.ID != r.ID || s.Warnings != r.Warnings {
			t.Errorf("record %d: summary %q/%d, record %q/%d", i, s.ID, s.Warnings, r.ID, r.Warnings)
		}
		ids = append(ids, r.ID+":"+r.Title)
		for _, is := range r.Issues {
			issues = append(issues, is.Code+"@"+itoa(is.Line)+"["+is.Record+"]")
		}
	}
	for _, is := range ds.Issues {
		issues = append(issues, is.Code+"@"+itoa(is.Line))
	}
	wantIDs := `7:first record|7 (line 2):same id as line 1|k:the last value wins|line 5:["a","line","that","is","an","array"]|line 7:named by its line`
	if strings.Join(ids, "|") != wantIDs {
		t.Errorf("records:\n got %s\nwant %s", strings.Join(ids, "|"), wantIDs)
	}
	wantIssues := "duplicate-id@2[7 (line 2)] duplicate-key@3[k] bad-json@4"
	if strings.Join(issues, " ") != wantIssues {
		t.Errorf("issues:\n got %s\nwant %s", strings.Join(issues, " "), wantIssues)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestSniff(t *testing.T) {
	cases := []struct {
		head string
		want int
	}{
		{`{"a": 1}` + "\n", 1},
		{"\n\n" + `[1, 2]` + "\n", 1},
		{"\xef\xbb\xbf" + `{"a": 1}`, 1},
		{`{"a": "` + strings.Repeat("x", 100), 1}, // cut by the head's end
		{`{"a": ` + "\n" + `1}` + "\n", 1},        // pretty-printed: a JSON document, its records shown
		{`{"a": ` + "\n" + `1,, }` + "\n", 0},     // not JSON at all
		{"[\n" + `{"a": 1,, }` + "\n", 1},         // a pretty-printed document, broken
		{"hello\n", 0},
		{"42\n", 0},
		{"", 0},
		{"a,b,c\n1,2,3\n", 0},
	}
	for _, c := range cases {
		if got := SniffFile("x.jsonl", []byte(c.head)); got != c.want {
			t.Errorf("SniffFile(%q) = %d, want %d", c.head, got, c.want)
		}
	}
	if SniffDir(fixtures, nil) != 1 || SniffDir(t.TempDir(), nil) != 0 {
		t.Error("SniffDir")
	}
}

// Open only reads.
func TestOpenDoesNotModify(t *testing.T) {
	p := filepath.Join(fixtures, "broken.jsonl")
	before, _ := os.ReadFile(p)
	openOne(t, p)
	after, _ := os.ReadFile(p)
	if string(before) != string(after) {
		t.Error("file changed")
	}
}

// A field held in the record alone on some record is no facet and no
// default column: they would show those records as having no value.
func TestFacetsAndColumnsLeaveLongFields(t *testing.T) {
	ds := openOne(t, filepath.Join(fixtures, "quiz_log.jsonl"))
	Present(ds)
	for _, f := range query.FacetFields(ds) {
		if f == "model_output" || f == "meta" {
			t.Errorf("facet %s, which q2 holds in the record alone", f)
		}
	}
	if got := strings.Join(ds.Presentation.Columns, " "); strings.Contains(got, "model_output") {
		t.Errorf("columns %s", got)
	}
}

// Every field is queryable (issue 15.10): a long or multi-line text and
// an object, which are no labels, are read from the record. A query on
// them missed the records that have them (model_output~six found no row
// though q2's holds "six"), and export --where with it.
func TestQueryEveryField(t *testing.T) {
	ds := openOne(t, filepath.Join(fixtures, "quiz_log.jsonl"))
	Present(ds)
	env := query.Env{Dataset: ds}
	vi := query.Values(ds)
	for _, c := range []struct {
		q    string
		want []int
	}{
		{"model_output~six", []int{1}},
		{"model_output~canberra", []int{0}},
		{"meta~bio-quiz", []int{1}},
		{`model_output=""`, []int{}},
		{"-model_output~six", []int{0, 2}},
		{"lang=fr", []int{2}},
	} {
		q, err := query.Parse(c.q)
		if err == nil {
			err = vi.Check(q)
		}
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		if got := query.Filter(env, q); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: rows %v, want %v", c.q, got, c.want)
		}
		for i := 0; i < ds.Records.Len(); i++ {
			want := slices.Contains(c.want, i)
			if got := q.MatchAt(env, i, ds.Records.Summary(i)); got != want {
				t.Errorf("%s: MatchAt(%d) = %v", c.q, i, got)
			}
		}
	}
}
