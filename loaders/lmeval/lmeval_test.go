package lmeval

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"evalview/model"
)

const fixtures = "../../testdata/lmeval"

func open1(t *testing.T, path string) *model.Dataset {
	t.Helper()
	ds, err := Open(path)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	if len(ds) != 1 {
		t.Fatalf("Open(%s): %d datasets, want 1", path, len(ds))
	}
	return ds[0]
}

func record(t *testing.T, ds *model.Dataset, i int) *model.Record {
	t.Helper()
	r, err := ds.Records.Record(i)
	if err != nil {
		t.Fatalf("Record(%d): %v", i, err)
	}
	return r
}

func codes(issues []model.Issue) []string {
	var out []string
	for _, is := range issues {
		out = append(out, is.Code)
	}
	sort.Strings(out)
	return out
}

func TestTwoFiltersJoinedPerDoc(t *testing.T) {
	ds := open1(t, filepath.Join(fixtures, "two_filters"))
	if got := strings.Join(ds.Filters, ","); got != "strict-match,flexible-extract" {
		t.Errorf("filters = %s", got)
	}
	if ds.Records.Len() != 4 || ds.Task != "gsm8k" || ds.MainMetric != "exact_match" {
		t.Fatalf("len=%d task=%s main=%s", ds.Records.Len(), ds.Task, ds.MainMetric)
	}
	if len(ds.Issues) != 0 {
		t.Errorf("unexpected dataset issues: %v", ds.Issues)
	}
	for _, want := range []struct{ key, val string }{{"model", "acme/tiny-math-1b"}, {"harness", "0.4.9.1"}, {"n-shot", "1"}, {"n-samples", "4 of 1319"}, {"date", "2025-08-07 14:41:34 UTC"}} {
		if got := ds.Fact(want.key); got != want.val {
			t.Errorf("fact %s = %q, want %q", want.key, got, want.val)
		}
	}
	s := ds.Records.Summary(1)
	if s.ID != "1" || !strings.HasPrefix(s.Title, "A robe takes") {
		t.Errorf("summary 1 = %+v", s)
	}
	if o := s.Outcome(0); o.Answer != "[invalid]" || o.Status != model.StatusFail {
		t.Errorf("strict-match outcome = %+v", o)
	}
	if o := s.Outcome(1); o.Answer != "3" || o.Status != model.StatusPass {
		t.Errorf("flexible-extract outcome = %+v", o)
	}
	r := record(t, ds, 3)
	if len(r.Issues) != 0 {
		t.Errorf("hashes of a clean row should verify, got %v", r.Issues)
	}
	if len(r.Filters) != 2 || r.Filters[1].Filter != "flexible-extract" || r.Filters[1].Line != 8 {
		t.Errorf("filters = %+v", r.Filters)
	}
	if len(r.Attempts) != 1 || !strings.Contains(r.Attempts[0].Text, "<think>") {
		t.Errorf("attempts = %+v", r.Attempts)
	}
	if r.Target != "5 - 2 = 3\n#### 3" || len(r.Raw) != 2 {
		t.Errorf("target %q raw %d", r.Target, len(r.Raw))
	}
	if r.Fields[0].Name != "question" || r.Fields[2].Name != "meta" || !r.Fields[2].IsJSON {
		t.Errorf("doc fields out of order: %+v", r.Fields)
	}
	// The one-shot example is a turn of its own, marked few-shot, before
	// the question (markFewShot).
	if len(r.Messages) != 2 || !r.Messages[0].FewShot || r.Messages[1].FewShot || !strings.HasSuffix(r.Messages[1].Text(), "还剩几个？\nAnswer:") {
		t.Errorf("prompt = %+v", r.Messages)
	}
}

func TestRecomputedMetricsMatchReported(t *testing.T) {
	ds := open1(t, filepath.Join(fixtures, "two_filters"))
	got := map[string]model.MetricComparison{}
	for _, c := range model.RecomputeMetrics(ds) {
		got[c.Filter] = c
	}
	if c := got["strict-match"]; c.Samples != 0.5 || c.Reported != 0.5 || c.N != 4 || c.Differs() {
		t.Errorf("strict-match = %+v", c)
	}
	if c := got["flexible-extract"]; c.Samples != 0.75 || c.Differs() {
		t.Errorf("flexible-extract = %+v", c)
	}
}

func TestTrimmedFileWarns(t *testing.T) {
	ds := open1(t, filepath.Join(fixtures, "trimmed"))
	if ds.Records.Len() != 2 {
		t.Fatalf("len = %d", ds.Records.Len())
	}
	got := strings.Join(codes(ds.Issues), ",")
	if got != "count-mismatch,filter-missing" {
		t.Errorf("issues = %s (%v)", got, ds.Issues)
	}
	for _, is := range ds.Issues {
		if is.Severity != model.SeverityWarning {
			t.Errorf("%s should be a warning", is.Code)
		}
	}
	// The last line has no newline; it must still load.
	if s := ds.Records.Summary(1); s.ID != "3" {
		t.Errorf("last line lost: %+v", s)
	}
	r := record(t, ds, 1)
	if len(r.Filters) != 1 || r.Filters[0].Answer != "3" {
		t.Errorf("filters = %+v", r.Filters)
	}
}

func TestBrokenRowsGiveIssuesAndGoodRowsLoad(t *testing.T) {
	ds := open1(t, filepath.Join(fixtures, "broken"))
	if ds.Records.Len() != 4 {
		t.Fatalf("len = %d, want the 4 parseable docs", ds.Records.Len())
	}
	// The fixture also starts with a BOM and has CRLF line ends: one
	// warning each, on line 1.
	if len(ds.Issues) != 3 || ds.Issues[0].Code != "bom" || ds.Issues[1].Code != "crlf" || ds.Issues[1].Line != 1 ||
		ds.Issues[2].Code != "bad-json" || ds.Issues[2].Line != 3 {
		t.Fatalf("dataset issues = %v", ds.Issues)
	}
	want := map[string]struct {
		code string
		line int
	}{
		"0": {"duplicate-row", 6},
		"1": {"metric-missing", 2},
		"2": {"hash-mismatch", 4},
		"3": {"missing-field", 5},
	}
	for i := 0; i < ds.Records.Len(); i++ {
		r := record(t, ds, i)
		w := want[r.ID]
		if len(r.Issues) != 1 || r.Issues[0].Code != w.code || r.Issues[0].Line != w.line || r.Issues[0].Record != r.ID {
			t.Errorf("doc %s issues = %v, want %s on line %d", r.ID, r.Issues, w.code, w.line)
		}
		s := ds.Records.Summary(i)
		if s.Errors+s.Warnings != 1 {
			t.Errorf("doc %s summary counts %d/%d", r.ID, s.Errors, s.Warnings)
		}
	}
	// CRLF and the byte-order mark must not leak into values.
	r := record(t, ds, 0)
	if strings.ContainsAny(r.Filters[0].Answer, "\r\ufeff") || r.Filters[0].Answer != "18" {
		t.Errorf("answer = %q", r.Filters[0].Answer)
	}
}

func TestRenamedFilesDetectedByContent(t *testing.T) {
	dir := filepath.Join(fixtures, "renamed")
	for _, name := range []string{"my_gsm8k_run.jsonl", "tiny-math-gsm8k.json"} {
		head, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if SniffFile(name, head[:min(len(head), 4096)]) == 0 {
			t.Errorf("%s not recognised", name)
		}
	}
	ds := open1(t, dir)
	if ds.Task != "gsm8k" || ds.Fact("model") != "acme/tiny-math-1b" || ds.Records.Len() != 4 {
		t.Errorf("task=%s model=%s len=%d", ds.Task, ds.Fact("model"), ds.Records.Len())
	}
}

func TestChatMessagesInArg0(t *testing.T) {
	ds := open1(t, filepath.Join(fixtures, "chat"))
	r := record(t, ds, 0)
	if len(r.Messages) != 2 || r.Messages[0].Role != model.RoleSystem || r.Messages[1].Role != model.RoleUser {
		t.Fatalf("messages = %+v", r.Messages)
	}
	if !strings.Contains(r.Messages[1].Text(), "What is 2 + 2?") {
		t.Errorf("user text = %q", r.Messages[1].Text())
	}
	if len(r.Issues) != 0 {
		t.Errorf("prompt_hash of a chat prompt is the JSON string's hash; got %v", r.Issues)
	}
}

func TestOldArrayLogLikelihood(t *testing.T) {
	ds := open1(t, filepath.Join(fixtures, "old_array"))
	if ds.Task != "mmlu_abstract_algebra" || strings.Join(ds.Filters, ",") != "none" || ds.MainMetric != "acc" {
		t.Fatalf("task=%s filters=%v main=%s", ds.Task, ds.Filters, ds.MainMetric)
	}
	if ds.Records.Len() != 2 {
		t.Fatalf("len = %d", ds.Records.Len())
	}
	if s := ds.Records.Summary(0); s.Status != model.StatusPass || s.Outcome(0).Answer != "#1 (-0.400)" {
		t.Errorf("summary 0 = %+v", s)
	}
	r := record(t, ds, 1)
	if len(r.Options) != 3 || !r.Options[1].Correct || r.Options[0].Correct {
		t.Errorf("options = %+v", r.Options)
	}
	if len(r.Attempts) != 3 || r.Attempts[0].Status != model.StatusFail || !strings.Contains(r.Attempts[0].StatusText, "pick") {
		t.Errorf("attempts = %+v", r.Attempts)
	}
	if ds.Records.Summary(1).Line <= 1 {
		t.Errorf("array rows should carry their line, got %d", ds.Records.Summary(1).Line)
	}
}

func TestStringLogProbs(t *testing.T) {
	ds := open1(t, filepath.Join(fixtures, "string_logprobs"))
	r := record(t, ds, 0)
	if r.Filters[0].Answer != "#1 (-0.010)" || len(r.Attempts) != 3 || r.Attempts[1].Facts[1].Value != "true" {
		t.Errorf("filters=%+v attempts=%+v", r.Filters, r.Attempts)
	}
	if !r.Options[1].Correct {
		t.Errorf("string target \"1\" should mark option B: %+v", r.Options)
	}
}

func TestLFSPointer(t *testing.T) {
	ds := open1(t, filepath.Join(fixtures, "lfs"))
	if ds.Records.Len() != 0 || len(ds.Issues) == 0 || ds.Issues[0].Code != "lfs-pointer" || !strings.Contains(ds.Issues[0].Message, "git lfs pull") {
		t.Errorf("issues = %v", ds.Issues)
	}
}

func TestPyDumpsMatchesPython(t *testing.T) {
	// Expected strings written by Python's json.dumps(v, indent=2, ensure_ascii=False).
	cases := []struct{ in, want string }{
		{`{"a": 1, "b": [1, 2.5, {}], "c": {"d": "x\"y\\n", "e": []}}`, "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2.5,\n    {}\n  ],\n  \"c\": {\n    \"d\": \"x\\\"y\\\\n\",\n    \"e\": []\n  }\n}"},
		{`{"z": "Janet’s 中文 </b>", "n": null, "t": true}`, "{\n  \"z\": \"Janet’s 中文 </b>\",\n  \"n\": null,\n  \"t\": true\n}"},
		{`[1e-05, 1e16, 100000.0, 0.1]`, "[\n  1e-05,\n  1e+16,\n  100000.0,\n  0.1\n]"},
		{`"tab\tctl\u0001"`, `"tab\tctl\u0001"`},
	}
	for _, c := range cases {
		got, err := pyDumps([]byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("pyDumps(%s) = %q, %v\nwant %q", c.in, got, err, c.want)
		}
	}
}

func TestSplitChatTemplates(t *testing.T) {
	cases := []struct {
		prompt string
		roles  string
	}{
		{"<|user|>\nQuestion: hi<|end|>\n<|assistant|>\n", "user,assistant"},
		{"<bos><start_of_turn>user\nHello<end_of_turn>\n<start_of_turn>model\n", "user,assistant"},
		{"<|im_start|>system\nBe brief<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n", "system,user,assistant"},
		{"Question: plain prompt\nAnswer:", ""},
	}
	for _, c := range cases {
		msgs, ok := splitTemplate(c.prompt)
		var roles []string
		for _, m := range msgs {
			roles = append(roles, string(m.Role))
		}
		if got := strings.Join(roles, ","); got != c.roles || ok != (c.roles != "") {
			t.Errorf("splitTemplate(%q) roles = %q ok=%v, want %q", c.prompt, got, ok, c.roles)
		}
	}
	msgs, _ := splitTemplate("<|user|>\nQuestion: hi<|end|>\n<|assistant|>\n")
	if msgs[0].Text() != "Question: hi" {
		t.Errorf("turn text = %q", msgs[0].Text())
	}
}

// Samples files are ordered folder by folder: a model folder before the
// folders named after it plus a suffix (acme__lm-1b before
// acme__lm-1b-instruct), as a listing shows them.
func TestComparePaths(t *testing.T) {
	paths := []string{"out/acme__lm-1b-instruct/s_a.jsonl", "out/acme__lm-1b/s_b.jsonl", "out/acme__lm-1b/s_a.jsonl", "out/a", "out/a/x"}
	slices.SortFunc(paths, comparePaths)
	want := []string{"out/a", "out/a/x", "out/acme__lm-1b/s_a.jsonl", "out/acme__lm-1b/s_b.jsonl", "out/acme__lm-1b-instruct/s_a.jsonl"}
	if !slices.Equal(paths, want) {
		t.Errorf("order %v, want %v", paths, want)
	}
	if comparePaths("x/y", "x/y") != 0 {
		t.Error("a path is not equal to itself")
	}
}
