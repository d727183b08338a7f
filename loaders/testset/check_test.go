package testset

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"

	"evalview/model"
)

// want is one expected issue: code, severity, JSON path.
type want struct {
	code string
	sev  model.Severity
	path string
}

func e(code, path string) want { return want{code, model.SeverityError, path} }
func w(code, path string) want { return want{code, model.SeverityWarning, path} }

// TestRulesBroken checks broken/rules.jsonl, whose every line breaks one
// rule: each record's id and exact issues, the dataset's issues, and that
// every other line still loads.
func TestRulesBroken(t *testing.T) {
	path := filepath.Join(fixtures, "broken", "rules.jsonl")
	d := openOne(t, path)
	cases := []struct {
		line   int
		id     string
		issues []want
	}{
		{2, "line 2", []want{e("missing-id", "$.id")}},
		{3, "line 3", []want{e("empty-id", "$.id")}},
		{4, "7", []want{w("id-not-string", "$.id")}},
		{5, "line 5", []want{e("bad-id", "$.id")}},
		{6, "line 6", []want{e("bad-id", "$.id")}},
		{7, "dup", nil},
		{8, "dup", []want{e("duplicate-id", "$.id")}},
		{9, "has space.dot", []want{w("id-charset", "$.id")}},
		{10, "tags_string", []want{e("bad-type", "$.tags")}},
		{11, "tags_mixed", []want{e("bad-type", "$.tags[1]"), w("empty-tag", "$.tags[2]"), w("duplicate-tag", "$.tags[3]")}},
		{12, "inputs_list", []want{e("bad-type", "$.inputs")}},
		{13, "steps_not_object", []want{e("bad-type", "$.step_inputs")}},
		{14, "step_not_object", []want{e("bad-type", `$.step_inputs["my step"]`)}},
		{15, "batch_not_list", []want{e("bad-type", "$.batch_items")}},
		{16, "batch_item_scalar", []want{e("bad-type", "$.batch_items[1]")}},
		{17, "outputs_string", []want{e("bad-type", "$.expected_outputs")}},
		{18, "expectations_list", []want{e("bad-type", "$.intermediate_expectations")}},
		{19, "config_list", []want{e("bad-type", "$.evaluation_config")}},
		{20, "batch_no_agg", []want{w("batch-without-aggregation", "$.batch_items")}},
		{21, "empty_batch", []want{w("empty-batch", "$.batch_items")}},
		{22, "orphan_expectation", []want{w("expectation-without-step-inputs", "$.intermediate_expectations.s2")}},
		{23, "expectation_scalar", []want{w("expectation-not-object", "$.intermediate_expectations.s1")}},
		{24, "config_values", []want{
			w("bad-config-value", "$.evaluation_config.evaluate_final"),
			w("bad-config-value", "$.evaluation_config.tolerance"),
			w("bad-config-value", "$.evaluation_config.ignore_fields[1]"),
			w("unknown-config-key", "$.evaluation_config.evaluate_intermidiate"),
		}},
		{25, "v1_key_in_v2", []want{w("v1-key-in-v2", "$.expected_output")}},
		{26, "dup_key", []want{w("duplicate-key", "$.inputs")}},
		{27, "line 27", []want{e("missing-id", "$.id")}},
		{32, "after_errors", nil},
	}
	recs := records(t, d)
	if len(recs) != len(cases) {
		t.Fatalf("%d records, want %d", len(recs), len(cases))
	}
	for i, c := range cases {
		r := recs[i]
		t.Run(fmt.Sprintf("line %d", c.line), func(t *testing.T) {
			if r.Line != c.line || r.ID != c.id {
				t.Fatalf("record %d is line %d id %q, want line %d id %q", i, r.Line, r.ID, c.line, c.id)
			}
			var got []want
			for _, is := range r.Issues {
				got = append(got, want{is.Code, is.Severity, is.Path})
				if is.File != path || is.Line != c.line || is.Record != c.id || is.Message == "" {
					t.Errorf("issue location %+v", is)
				}
			}
			if !reflect.DeepEqual(got, c.issues) {
				t.Errorf("issues = %v, want %v", got, c.issues)
			}
			ne, nw := 0, 0
			for _, x := range c.issues {
				if x.sev == model.SeverityError {
					ne++
				} else {
					nw++
				}
			}
			if r.Errors != ne || r.Warnings != nw {
				t.Errorf("summary counts %d/%d, want %d/%d", r.Errors, r.Warnings, ne, nw)
			}
		})
	}
	wantDataset := []struct {
		line int
		code string
		msg  string
	}{
		{28, "bad-json", "column 2"},
		{29, "not-object", "a list"},
		{30, "not-object", "a string"},
		{31, "bad-json", "column 26"},
	}
	if len(d.Issues) != len(wantDataset) {
		t.Fatalf("dataset issues %v", d.Issues)
	}
	for i, c := range wantDataset {
		is := d.Issues[i]
		if is.Line != c.line || is.Code != c.code || is.Severity != model.SeverityError || is.File != path || !strings.Contains(is.Message, c.msg) {
			t.Errorf("dataset issue %d = %s (%s), want line %d %s %q", i, is, is.Code, c.line, c.code, c.msg)
		}
	}
	if got := fact(d.Facts, "comment lines"); got != "1" {
		t.Errorf("comment lines = %s", got)
	}
}

// Messages carry what a user needs to fix the line.
func TestIssueMessages(t *testing.T) {
	d := openOne(t, filepath.Join(fixtures, "broken", "rules.jsonl"))
	cases := []struct{ id, code, text string }{
		{"dup", "duplicate-id", "line 7"},
		{"has space.dot", "id-charset", `" " "."`},
		{"config_values", "unknown-config-key", `"evaluate_intermidiate"`},
		{"orphan_expectation", "expectation-without-step-inputs", `"s2"`},
	}
	for _, c := range cases {
		found := false
		for _, r := range records(t, d) {
			for _, is := range r.Issues {
				if r.ID == c.id && is.Code == c.code {
					found = true
					if !strings.Contains(is.Message, c.text) {
						t.Errorf("%s %s: %q lacks %q", c.id, c.code, is.Message, c.text)
					}
				}
			}
		}
		if !found {
			t.Errorf("no %s issue on %s", c.code, c.id)
		}
	}
}

// Broken data stays visible: tags kept as Prompt Lab keeps them, the last
// value of a repeated key, a non-object inputs value as one field.
func TestBrokenValuesStillShown(t *testing.T) {
	d := openOne(t, filepath.Join(fixtures, "broken", "rules.jsonl"))
	if got := byID(t, d, "tags_string").Tags; !reflect.DeepEqual(got, []string{"solo"}) {
		t.Errorf("string tags = %q", got)
	}
	if got := byID(t, d, "tags_mixed").Tags; !reflect.DeepEqual(got, []string{"a"}) {
		t.Errorf("mixed tags = %q", got)
	}
	if got := byID(t, d, "dup_key").Fields; !reflect.DeepEqual(got, []model.Field{{Name: "text", Value: "b"}}) {
		t.Errorf("repeated key fields = %+v", got)
	}
	if got := byID(t, d, "inputs_list").Fields; !reflect.DeepEqual(got, []model.Field{{Name: "inputs", Value: `["a", "b"]`, IsJSON: true}}) {
		t.Errorf("list inputs fields = %+v", got)
	}
	steps := section(byID(t, d, "step_not_object"), SectionSteps)
	if steps == nil || !reflect.DeepEqual(steps.Table.Rows, [][]string{{"my step", "fast", "—"}, {"s2", `{"k": 1}`, "—"}}) {
		t.Errorf("steps of a broken step_inputs = %+v", steps)
	}
}

func TestFileLevelProblems(t *testing.T) {
	cases := []struct {
		name, content string
		records       int
		codes         string // dataset issue codes
		lines         []int
	}{
		{"empty.jsonl", "", 0, "no-records", []int{0}},
		{"blank.jsonl", "\n  \n\t\n", 0, "no-records", []int{0}},
		{"lfs.jsonl", "version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n", 0, "lfs-pointer", []int{1}},
		{"only_bad.jsonl", "{oops\n", 0, "bad-json,no-records", []int{1, 0}},
		{"array.jsonl", `[{"id": "a", "expected_output": "x"}]` + "\n", 0, "not-object,no-records", []int{1, 0}},
	}
	for _, c := range cases {
		d := loadText(t, c.name, c.content)
		var lines []int
		for _, is := range d.Issues {
			lines = append(lines, is.Line)
		}
		if d.Records.Len() != c.records || codes(d.Issues) != c.codes || !reflect.DeepEqual(lines, c.lines) {
			t.Errorf("%s: %d records, issues %v", c.name, d.Records.Len(), d.Issues)
		}
	}
	d := openOne(t, filepath.Join(fixtures, "broken", "comments_only.jsonl"))
	if codes(d.Issues) != "no-records" || fact(d.Facts, "comment lines") != "2" {
		t.Errorf("comments only: %v %v", d.Issues, d.Facts)
	}
}

// Line handling: BOM, CRLF, no final newline, blank lines, indented
// comments; line numbers count every physical line.
func TestLineHandling(t *testing.T) {
	content := "\xef\xbb\xbf// header\r\n" +
		"{\"id\": \"a\", \"text\": \"x\", \"expected_output\": \"y\"}\r\n" +
		"\r\n" +
		"   // indented comment\r\n" +
		"{\"id\": \"b\", \"inputs\": {\"text\": \"last\"}}"
	d := loadText(t, "crlf.jsonl", content)
	recs := records(t, d)
	if len(recs) != 2 || recs[0].ID != "a" || recs[0].Line != 2 || recs[1].ID != "b" || recs[1].Line != 5 {
		t.Fatalf("records %+v", recs)
	}
	// One warning each for the BOM and the CRLF line ends, not one a line.
	if codes(d.Issues) != "bom,crlf" || d.Issues[1].Line != 1 || recs[0].Errors+recs[1].Errors != 0 {
		t.Errorf("issues %v %v %v", d.Issues, recs[0].Issues, recs[1].Issues)
	}
	if fact(d.Facts, "comment lines") != "2" {
		t.Errorf("facts %v", d.Facts)
	}
	if string(recs[0].Raw[0].JSON) != `{"id": "a", "text": "x", "expected_output": "y"}` {
		t.Errorf("raw %q", recs[0].Raw[0].JSON)
	}
}

func TestBadUTF8(t *testing.T) {
	d := loadText(t, "latin1.jsonl", "{\"id\": \"caf\xe9\", \"inputs\": {\"text\": \"x\"}}\n{\"id\": \"ok\", \"inputs\": {\"text\": \"y\"}}\n")
	recs := records(t, d)
	if len(recs) != 2 {
		t.Fatalf("%d records", len(recs))
	}
	if c := codes(recs[0].Issues); !strings.Contains(c, "bad-utf8") || recs[0].Errors == 0 {
		t.Errorf("first record issues %v", recs[0].Issues)
	}
	if len(recs[1].Issues) != 0 {
		t.Errorf("second record issues %v", recs[1].Issues)
	}
}

// A record pretty-printed as the spec prints it still loads, with an
// error; a broken span and an object that never closes are one issue each;
// good lines around them load.
func TestPrettyPrintedRecords(t *testing.T) {
	path := filepath.Join(fixtures, "pretty", "spec_example2.jsonl")
	d := openOne(t, path)
	recs := records(t, d)
	var ids []string
	for _, r := range recs {
		ids = append(ids, fmt.Sprintf("%s@%d", r.ID, r.Line))
	}
	if want := []string{"multi_step_sentiment_analysis@1", "one_line@38", "after_broken@44"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("records %q, want %q", ids, want)
	}
	first := recs[0]
	if codes(first.Issues) != "multiline-record" || first.Errors != 1 || first.Raw[0].Label != "lines 1-37" {
		t.Errorf("multi-line record: %v %q", first.Issues, first.Raw[0].Label)
	}
	// Apart from that error it is the same record as the one-line example.
	oneLine := records(t, openOne(t, filepath.Join(fixtures, "spec", "ex2_multi_step.jsonl")))[0]
	if !reflect.DeepEqual(first.Sections, oneLine.Sections) || !reflect.DeepEqual(first.Fields, oneLine.Fields) {
		t.Errorf("pretty record differs from its one-line form")
	}
	want := []struct {
		line int
		text string
	}{
		{39, "lines 39-43"},
		{45, "never closes"},
	}
	if len(d.Issues) != len(want) {
		t.Fatalf("dataset issues %v", d.Issues)
	}
	for i, c := range want {
		if d.Issues[i].Code != "bad-json" || d.Issues[i].Line != c.line || !strings.Contains(d.Issues[i].Message, c.text) {
			t.Errorf("issue %d = %s", i, d.Issues[i])
		}
	}
}

// A span that would swallow a good record is not treated as one object.
func TestPrettySpanNeverSwallowsRecords(t *testing.T) {
	content := "{\n{\"id\": \"inner\", \"inputs\": {\"text\": \"x\"}}\n}\n"
	d := loadText(t, "s.jsonl", content)
	recs := records(t, d)
	if len(recs) != 1 || recs[0].ID != "inner" || recs[0].Line != 2 {
		t.Fatalf("records %+v", recs)
	}
	if codes(d.Issues) != "bad-json,bad-json" || d.Issues[0].Line != 1 || d.Issues[1].Line != 3 {
		t.Errorf("issues %v", d.Issues)
	}
}

// A read that fails midway keeps the records read so far.
func TestReadErrorKeepsRecords(t *testing.T) {
	r := io.MultiReader(strings.NewReader(`{"id": "a", "text": "x", "expected_output": "y"}`+"\n"), iotest.ErrReader(errors.New("disk gone")))
	d := load("cut.jsonl", r)
	if d.Records.Len() != 1 || codes(d.Issues) != "read-error" || !strings.Contains(d.Issues[0].Message, "disk gone") {
		t.Errorf("%d records, issues %v", d.Records.Len(), d.Issues)
	}
}

// Every issue code the loader emits is documented in the package doc,
// which is the contract scripts read.
func TestIssueCodesDocumented(t *testing.T) {
	doc, err := os.ReadFile("testset.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?:errorf|warnf|Errorf|Warnf)\("([a-z0-9-]+)"`)
	files, _ := filepath.Glob("*.go")
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, _ := os.ReadFile(f)
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			seen++
			if !regexp.MustCompile(`(?m)^//\t` + regexp.QuoteMeta(m[1]) + `(\s|$)`).Match(doc) {
				t.Errorf("%s: code %q is not documented", f, m[1])
			}
		}
	}
	if seen < 20 {
		t.Errorf("found only %d issue calls; the pattern is stale", seen)
	}
}
