package testset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSniffFile(t *testing.T) {
	v2 := `{"id": "a", "inputs": {"text": "x"}, "expected_outputs": {"sentiment": "positive"}}` + "\n"
	long := `{"id": "cut", "tags": ["x"], "step_inputs": {"s": {"code": "` + strings.Repeat("x", 500)
	cases := []struct {
		name, head string
		want       int
	}{
		{"a.jsonl", v2, 2},
		{"a.jsonl", `{"id": "a", "batch_items": [{"x": 1}]}`, 2},
		{"a.jsonl", `{"id": "a", "text": "x", "expected_output": "y"}`, 2},
		{"a.jsonl", `{"id": 3, "question": "x", "expected_intent": "greet"}`, 2},
		{"a.jsonl", "// a testset\n// more\n", 2},
		{"a.jsonl", "// a testset\n" + `{"id": "a", "text": "x"}` + "\n", 2},
		{"a.jsonl", long, 2}, // cut by the head's end
		{"a.jsonl", "{\n  \"id\": \"pretty\",\n  \"step_inputs\": {\n", 2},
		{"a.jsonl", "\xef\xbb\xbf" + v2, 2},
		// batch items that carry doc_id do not make it lm-eval
		{"a.jsonl", `{"id": "a", "batch_items": [{"doc_id": "d1", "resps": 1}], "expected_aggregation": {}}`, 2},
		{"a.jsonl", `{"id": "a", "inputs": {"text": "x"}}`, 1},
		{"my_testset.jsonl", `{"id": "a", "text": "x"}`, 1},
		{"a.jsonl", `{"id": "a", "text": "x"}`, 0},
		{"a.jsonl", `{"doc_id": 0, "doc": {}, "target": "1", "resps": [["1"]], "filtered_resps": ["1"]}`, 0},
		{"a.jsonl", `{"doc_id": 0, "expected_output": "x", "resps": []}`, 0},
		{"a.jsonl", `{"id": "s1", "messages": [{"role": "user", "content": "hi"}], "references": ["x"]}`, 0},
		{"a.jsonl", `{"schema_version": "1.0", "id": "s1", "messages": [], "expected": "x"}`, 0},
		{"a.jsonl", `{"id": "s1", "messages": [], "expected_output": "x"}`, 0},
		{"a.jsonl", `[{"id": "a", "expected_output": "x"}]`, 0},
		{"a.jsonl", "hello world\n", 0},
		{"a.jsonl", "", 0},
		{"a.jsonl", "version https://git-lfs.github.com/spec/v1\noid sha256:x\n", 0},
		{"schema.json", `{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"step_inputs": {}}}`, 0},
	}
	for _, c := range cases {
		if got := SniffFile(c.name, []byte(c.head)); got != c.want {
			t.Errorf("SniffFile(%s, %.60q) = %d, want %d", c.name, c.head, got, c.want)
		}
	}
}

func TestSniffDir(t *testing.T) {
	empty := t.TempDir()
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "x.jsonl"), []byte(`{"doc_id": 0, "resps": []}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		dir  string
		want int
	}{
		{filepath.Join(fixtures, "spec"), 1},
		{filepath.Join(fixtures, "tree"), 1}, // testsets in subfolders
		{filepath.Join(fixtures, "tree", "unit"), 1},
		{empty, 0},
		{other, 0},
		{filepath.Join(fixtures, "..", "lmeval", "two_filters"), 0},
	}
	for _, c := range cases {
		if got := SniffDir(c.dir, nil); got != c.want {
			t.Errorf("SniffDir(%s) = %d, want %d", c.dir, got, c.want)
		}
	}
}

// A folder opens every testset .jsonl in it and its subfolders, one
// dataset each in path order, hidden folders too (only tools' folders are
// passed over), skipping other formats.
func TestOpenFolder(t *testing.T) {
	ds, err := Open(filepath.Join(fixtures, "tree"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		rel, _ := filepath.Rel(filepath.Join(fixtures, "tree"), d.Path)
		got = append(got, rel+":"+records(t, d)[0].ID)
	}
	want := []string{".hidden/read_too.jsonl:hidden", "integration/pipeline_multi_step.jsonl:int_1", "unit/sentiment_basic.jsonl:unit_1"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("datasets %q, want %q", got, want)
	}
	if _, err := Open(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no testset") {
		t.Errorf("empty folder: %v", err)
	}
	if _, err := Open(filepath.Join(fixtures, "missing.jsonl")); err == nil {
		t.Error("missing file opened")
	}
}

// Open only reads: the file is unchanged afterwards.
func TestOpenDoesNotModify(t *testing.T) {
	p := filepath.Join(fixtures, "broken", "rules.jsonl")
	before, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)
	openOne(t, p)
	after, _ := os.ReadFile(p)
	st2, _ := os.Stat(p)
	if string(before) != string(after) || !st.ModTime().Equal(st2.ModTime()) {
		t.Error("file changed")
	}
}

// Real Prompt Lab testsets were refused unless given --as testset: records
// of id plus inputs with an expectation named after what it expects
// (expected_summary), or of any keys in a testsets/ folder. The folder
// makes them testsets; the same records elsewhere are not claimed, and
// other formats' records are not claimed in such a folder either.
func TestSniffPath(t *testing.T) {
	lab := filepath.Join(fixtures, "prompt_lab")
	caseFile := filepath.Join(lab, "agents", "usr_profile", "testsets", "case.jsonl")
	docs := filepath.Join(lab, "pipelines", "document_summary", "testsets", "documents.jsonl")
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	lmeval := []byte(`{"doc_id": 0, "doc": {}, "target": "1", "resps": [["1"]], "filtered_resps": ["1"]}` + "\n")
	sample := []byte(`{"id": "s1", "messages": [{"role": "user", "content": "hi"}], "references": ["x"]}` + "\n")
	cases := []struct {
		path string
		head []byte
		want int
	}{
		{caseFile, read(caseFile), 2},
		{filepath.Join("elsewhere", "case.jsonl"), read(caseFile), 0},
		{filepath.Join("testsets", "unit", "case.jsonl"), read(caseFile), 2},
		{filepath.Join("Testsets", "case.jsonl"), read(caseFile), 2},
		{filepath.Join("testsets", "a", "b", "case.jsonl"), read(caseFile), 0},
		{docs, read(docs), 2},
		{filepath.Join("elsewhere", "documents.jsonl"), read(docs), 2}, // expected_summary
		{filepath.Join("testsets", "x.jsonl"), lmeval, 0},
		{filepath.Join("testsets", "x.jsonl"), sample, 0},
		{filepath.Join("testsets", "x.jsonl"), []byte("hello\n"), 0},
		{filepath.Join("testsets", "x.jsonl"), nil, 0},
	}
	for _, c := range cases {
		if got := SniffPath(c.path, c.head); got != c.want {
			t.Errorf("SniffPath(%s, %.40q) = %d, want %d", c.path, c.head, got, c.want)
		}
	}
	// Opened, each is a testset dataset with its records; the
	// expectation is listed as a reference.
	for _, p := range []string{caseFile, docs, filepath.Dir(caseFile)} {
		dss, err := Open(p)
		if err != nil || len(dss) != 1 || dss[0].Records.Len() == 0 {
			t.Fatalf("Open(%s) = %v, %v", p, dss, err)
		}
	}
	recs := records(t, openOne(t, docs))
	if len(recs) != 3 || len(recs[0].References) != 1 || recs[0].References[0] != "Defines AI and lists its main research fields" {
		t.Errorf("documents.jsonl records: %d, references %q", len(recs), recs[0].References)
	}
}
