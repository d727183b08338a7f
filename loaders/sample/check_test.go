package sample

import (
	"strings"
	"testing"

	"evalview/model"
)

func TestCheckBrokenFile(t *testing.T) {
	d := openOne(t, "broken.jsonl")
	path := fixture(t, "broken.jsonl")
	// Lines that hold no Sample are dataset issues; the rest loads.
	same(t, "dataset issues", d.Issues, []model.Issue{
		{Severity: model.SeverityError, Code: "bad-json", File: path, Line: 2,
			Message: "line is not valid JSON: invalid character 'o' in literal null (expecting 'u') (at byte 2)"},
		{Severity: model.SeverityError, Code: "not-object", File: path, Line: 3, Message: "line holds a list, not a Sample object"},
		{Severity: model.SeverityError, Code: "not-object", File: path, Line: 12, Message: "line is a JSON string, not a Sample object"},
	})
	type want struct {
		id    string
		line  int
		codes []string
		paths []string
	}
	cases := []want{
		{"ok_1", 1, []string{}, []string{}},
		{"ok_1", 4, []string{"duplicate-id"}, []string{""}},
		{"line 5", 5, []string{"missing-field"}, []string{"$.id"}},
		{"bad_parts", 6, []string{"unknown-role", "unknown-segment-type", "missing-url"},
			[]string{"$.messages[0].role", "$.messages[0].content[0].type", "$.messages[0].content[1].image_url.url"}},
		{"bad_options", 7, []string{"duplicate-option-id", "bad-option", "label-mismatch"},
			[]string{"$.options[1].id", "$.options[2].content", "$.label"}},
		{"bad_fewshot", 8, []string{"nested-few-shot", "few-shot-runtime-field"},
			[]string{"$.few_shot_examples[0].few_shot_examples", "$.few_shot_examples[0].predict_result"}},
		{"bad_tools", 9, []string{"unknown-tool-call", "missing-field"},
			[]string{"$.messages[1].tool_call_id", "$.messages[2].tool_call_id"}},
		{"deprecated", 10, []string{"deprecated-field", "deprecated-field"}, []string{"$.model_prompt_tmpl", "$.model_prompt_placeholder"}},
		{"no_messages", 11, []string{"missing-field"}, []string{"$.messages"}},
		{"messages_not_list", 14, []string{"bad-type"}, []string{"$.messages"}},
		{`{"k":1}`, 15, []string{"bad-type"}, []string{"$.id"}},
	}
	recs := records(t, d)
	if len(recs) != len(cases) {
		t.Fatalf("%d records, want %d", len(recs), len(cases))
	}
	for i, c := range cases {
		r := recs[i]
		if r.ID != c.id || r.Line != c.line {
			t.Errorf("record %d: %s on line %d, want %s on line %d", i, r.ID, r.Line, c.id, c.line)
			continue
		}
		same(t, c.id+" codes", codes(r.Issues), c.codes)
		paths := []string{}
		for _, is := range r.Issues {
			paths = append(paths, is.Path)
			if is.File != path || is.Line != c.line || is.Record != c.id {
				t.Errorf("%s: issue %+v does not name its file, line and record", c.id, is)
			}
		}
		same(t, c.id+" paths", paths, c.paths)
	}
	if got := recs[1].Issues[0].Message; got != `id "ok_1" repeats the record on line 1` {
		t.Errorf("duplicate-id message %q", got)
	}
	// Severities: the spec's hard rules are errors, the rest warnings.
	e, w := d.IssueCounts()
	if e != 3+1+1+2+1+2+1+1 || w != 1+2+1+1+2+1 {
		t.Errorf("%d errors, %d warnings", e, w)
	}
	// The bad record still shows what it has.
	if r := recs[3]; len(r.Messages) != 1 || r.Messages[0].Role != "robot" || len(r.Messages[0].Segments) != 3 {
		t.Errorf("bad_parts messages %+v", r.Messages)
	}
	if r := recs[4]; len(r.Options) != 3 || !r.Options[0].Correct || r.Target != "C" {
		t.Errorf("bad_options options %+v target %q", r.Options, r.Target)
	}
}

func TestLegacyRecords(t *testing.T) {
	d := openOne(t, "legacy.jsonl")
	recs := byID(records(t, d))

	r := recs["leg_1"]
	same(t, "leg_1 references", r.References, []string{"2"})
	same(t, "leg_1 codes", codes(r.Issues), []string{"missing-field", "legacy-mapped"})
	if !strings.Contains(r.Issues[1].Message, "choices[].message") {
		t.Errorf("leg_1 warning does not say what was mapped: %q", r.Issues[1].Message)
	}

	r = recs["leg_2"]
	same(t, "leg_2 references", r.References, []string{"Rome"})
	if last := r.Messages[len(r.Messages)-1]; last.Label != "ground truth (legacy)" || last.Text() != "Rome" {
		t.Errorf("leg_2 last message %+v", last)
	}
	same(t, "leg_2 codes", codes(r.Issues), []string{"legacy-mapped"})

	r = recs["leg_3"]
	same(t, "leg_3 messages", r.Messages, []model.Message{{Role: model.RoleUser, Segments: []model.Segment{{Type: txt, Text: "What is 3*3?"}}}})
	same(t, "leg_3 options", r.Options, []model.Option{{ID: "A", Text: "8"}, {ID: "B", Text: "9", Correct: true}})
	same(t, "leg_3 references", r.References, []string{"9"})
	if r.Labels.Get("task_type") != "short-answer" {
		t.Errorf("leg_3 task_type label %q", r.Labels.Get("task_type"))
	}
	same(t, "leg_3 codes", codes(r.Issues), []string{"legacy-mapped", "legacy-mapped", "legacy-mapped", "legacy-mapped"})
	same(t, "leg_3 fields", r.Fields, []model.Field{
		{Name: "schema_version", Value: "v1"},
		{Name: "question", Value: "What is 3*3?"}, {Name: "question_type", Value: "short-answer"},
		{Name: "choices", Value: `["8","9"]`, IsJSON: true}, {Name: "answer", Value: "9"},
	})
	// An empty references list is deliberate (agent games): a trailing
	// assistant turn is then just a turn.
	r = recs["leg_4"]
	if len(r.References) != 0 || len(r.Issues) != 0 || r.Messages[1].Label != "" {
		t.Errorf("leg_4: references %v, issues %v, last label %q", r.References, r.Issues, r.Messages[1].Label)
	}
	// choices[].message beside an empty references list is still mapped.
	r = recs["leg_5"]
	same(t, "leg_5 references", r.References, []string{"4"})
	same(t, "leg_5 codes", codes(r.Issues), []string{"legacy-mapped"})

	if e, _ := d.IssueCounts(); e != 0 {
		t.Errorf("legacy records raise %d errors; they should only warn", e)
	}
	if d.Fact("legacy records") != "4" {
		t.Errorf("facts %v", d.Facts)
	}
}

func TestLineFormats(t *testing.T) {
	cases := []struct {
		file    string
		ids     []string
		dsCodes []string
		recCode string // a code every record carries, "" for none
	}{
		{"double.jsonl", []string{"dbl_1", "dbl_2", "dbl_3"}, []string{}, ""},
		{"crlf_bom.jsonl", []string{"crlf_1", "crlf_2"}, []string{"bom", "crlf"}, ""},
		{"lfs.jsonl", []string{}, []string{"lfs-pointer"}, ""},
		{"blank.jsonl", []string{}, []string{"empty-file"}, ""},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			d := openOne(t, c.file)
			recs := records(t, d)
			ids := []string{}
			for _, r := range recs {
				ids = append(ids, r.ID)
				if c.recCode == "" && len(r.Issues) > 0 && c.file != "double.jsonl" {
					t.Errorf("%s: unexpected issues %v", r.ID, r.Issues)
				}
			}
			same(t, "ids", ids, c.ids)
			same(t, "dataset issue codes", codes(d.Issues), c.dsCodes)
		})
	}

	recs := records(t, openOne(t, "double.jsonl"))
	for i, r := range recs {
		want := []string{"double-encoded"}
		if i == 2 {
			want = []string{} // the plain line
		}
		same(t, r.ID+" codes", codes(r.Issues), want)
		// Raw holds the decoded object, not the string.
		if len(r.Raw) != 1 || !strings.HasPrefix(string(r.Raw[0].JSON), "{") || r.Raw[0].Line != i+1 {
			t.Errorf("%s raw %+v", r.ID, r.Raw)
		}
	}
	if recs[1].Title != "second" {
		t.Errorf("double-encoded record title %q", recs[1].Title)
	}
}

func TestSniffFile(t *testing.T) {
	line := func(s string) []byte { return []byte(s + "\n") }
	cases := []struct {
		name string
		head []byte
		want int
	}{
		{"spec", line(`{"schema_version":"v1","id":"a","messages":[],"references":[]}`), 2},
		{"label only", line(`{"id":"a","messages":[],"label":"A"}`), 2},
		{"runtime", line(`{"messages":[],"predict_result":[]}`), 2},
		{"bom and crlf", []byte("\xef\xbb\xbf{\"messages\":[],\"options\":[]}\r\n"), 2},
		{"leading blank lines", []byte("\n\n" + `{"messages":[],"few_shot_examples":[]}` + "\n"), 2},
		{"double-encoded", line(`"{\"id\":\"a\",\"messages\":[],\"references\":[]}"`), 2},
		{"no final newline", []byte(`{"messages":[],"eval_result":{}}`), 2},
		// Messages alone are any chat log's, not a Sample's (issue 29):
		// EvalScope's predictions and reviews, which opened as Samples
		// with the model's answer as the reference.
		{"plain chat", line(`{"messages":[{"role":"user","content":"hi"}]}`), 0},
		{"legacy choices", line(`{"id":"a","messages":[],"choices":[{"index":0,"message":{"role":"assistant","content":"2"}}]}`), 2},
		{"evalscope prediction", line(`{"index":0,"model":"m","model_output":{"choices":[]},"messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a"}],"metadata":{}}`), 0},
		{"evalscope review", line(`{"index":0,"target":"B","messages":[{"role":"assistant","content":"A"}],"sample_score":{"score":{"value":{"acc":0.0}}}}`), 0},
		{"cut evalscope prediction", []byte(`{"index":0,"model":"m","messages":[{"role":"user","content":"` + strings.Repeat("x", 100)), 0},
		{"cut first line", []byte(`{"id":"a","messages":[{"role":"user","content":"` + strings.Repeat("x", 100)), 1},
		{"cut after a Sample's field", []byte(`{"schema_version":"v1","messages":[{"role":"user","content":"` + strings.Repeat("x", 100)), 2},
		{"cut double-encoded", []byte(`"{\"id\":\"a\",\"messages\":[{\"role\":\"user\",\"content\":\"` + strings.Repeat("x", 100)), 1},
		{"lm-eval row", line(`{"doc_id":0,"doc":{},"messages":[],"resps":[],"references":[]}`), 0},
		{"cut lm-eval row", []byte(`{"doc_id":0,"doc":{"messages":"` + strings.Repeat("x", 100)), 0},
		{"testset", line(`{"id":"t","messages":[],"expected_outputs":{},"label":"x"}`), 0},
		{"testset steps", line(`{"id":"t","step_inputs":{}}`), 0},
		{"testset batch", line(`{"id":"t","messages":[],"batch_items":[]}`), 0},
		{"no messages", line(`{"id":"a","references":["x"]}`), 0},
		{"array", line(`[{"messages":[]}]`), 0},
		{"comment", line(`// {"messages":[],"label":"x"}`), 0},
		{"broken first line", []byte("{oops\n" + `{"messages":[],"label":"x"}` + "\n"), 2},
		{"comment then testset", []byte("// cases\n" + `{"id":"t","inputs":{},"expected_outputs":{}}` + "\n"), 0},
		{"six broken lines", []byte(strings.Repeat("x\n", 6) + `{"messages":[],"label":"x"}` + "\n"), 0},
		{"string", line(`"hello"`), 0},
		{"empty", nil, 0},
		{"lfs", []byte("version https://git-lfs.github.com/spec/v1\noid sha256:00\n"), 0},
	}
	for _, c := range cases {
		if got := SniffFile("x.jsonl", c.head); got != c.want {
			t.Errorf("%s: SniffFile = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestFolders(t *testing.T) {
	dir := fixture(t, "dir")
	names := []string{"a.jsonl", "b.jsonl", "c_lmeval.jsonl", "d_testset.jsonl", "notes.txt", "sub/"}
	if got := SniffDir(dir, names); got != 1 {
		t.Errorf("SniffDir(dir) = %d, want 1", got)
	}
	if got := SniffDir(dir, []string{"c_lmeval.jsonl", "d_testset.jsonl", "notes.txt", "sub/"}); got != 0 {
		t.Errorf("SniffDir without Sample files = %d, want 0", got)
	}
	ds, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, d := range ds {
		recs := records(t, d)
		got = append(got, d.Title+":"+recs[0].ID)
	}
	// Only Sample files, in name order; subfolders are not walked.
	same(t, "datasets", got, []string{"a:a1", "b:b1"})

	if _, err := Open(fixture(t, "dir/sub/..")); err != nil {
		t.Errorf("Open(dir/sub/..): %v", err)
	}
	if _, err := Open(fixture(t, "inputs")); err == nil || !strings.Contains(err.Error(), "no Sample JSONL files") {
		t.Errorf("Open(folder without Samples) = %v", err)
	}
	if _, err := Open(fixture(t, "missing.jsonl")); err == nil {
		t.Error("Open(missing file) succeeded")
	}
}

func TestRecordOutOfRange(t *testing.T) {
	d := openOne(t, "crlf_bom.jsonl")
	if _, err := d.Records.Record(2); err == nil {
		t.Error("Record(2) of 2 records succeeded")
	}
	if _, err := d.Records.Record(-1); err == nil {
		t.Error("Record(-1) succeeded")
	}
	if !d.Records.Done() {
		t.Error("index not done after Open")
	}
}
