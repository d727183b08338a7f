package content

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"evalview/model"
	"evalview/tui/highlight"
	"evalview/tui/styles"
)

func lmDataset() *model.Dataset {
	return &model.Dataset{Kind: model.KindLMEval, Filters: []string{"strict-match", "flexible-extract"}, MainMetric: "exact_match",
		Presentation: model.Presentation{Tabs: lmTabs},
		Issues:       []model.Issue{{Severity: model.SeverityWarning, Code: "count-mismatch", File: "s.jsonl", Message: "results file reports 1319 samples, file has 3"}}}
}

// lmTabs are lm-eval's tabs: the doc's fields in a "Doc" tab.
var lmTabs = []model.DetailTab{
	{Content: model.TabConversation, Name: "Prompt"}, {Content: model.TabAttempts, Name: "Responses"},
	{Content: model.TabFilterResults, Name: "Filters"}, {Content: model.TabFields, Name: "Doc"},
}

func lmRecord() *model.Record {
	r := &model.Record{
		Messages: []model.Message{
			{Role: model.RoleUser, FewShot: true, Segments: []model.Segment{{Text: "Q: 1+1?"}}},
			{Role: model.RoleAssistant, FewShot: true, Segments: []model.Segment{{Text: "A: 2"}}},
			{Role: model.RoleUser, Segments: []model.Segment{{Text: "Q: how many eggs?"}}},
		},
		Target:   "18",
		Attempts: []model.Attempt{{Index: 1, Text: "The answer is 18."}, {Index: 2, Text: "The answer is 16."}},
		Filters: []model.FilterResult{
			{Filter: "strict-match", Answer: "18", Status: model.StatusPass, Line: 1, Metrics: []model.MetricValue{{Name: "exact_match", Value: 1}}},
			{Filter: "flexible-extract", Answer: "16", Status: model.StatusFail, Line: 4, Metrics: []model.MetricValue{{Name: "exact_match", Value: 0}}},
		},
		Fields: []model.Field{{Name: "question", Value: "how many eggs?"}, {Name: "meta", Value: `{"a":1,"b":[1,2]}`, IsJSON: true}},
		Raw:    []model.RawPart{{Label: "filter strict-match", File: "s.jsonl", Line: 1, JSON: []byte(`{"doc_id":7,"target":"18"}`)}},
		Issues: []model.Issue{
			{Severity: model.SeverityError, Code: "metric-missing", File: "s.jsonl", Line: 4, Record: "7", Path: "$.acc", Message: "metric \"acc\" has no value"},
			{Severity: model.SeverityWarning, Code: "hash-mismatch", File: "s.jsonl", Line: 1, Record: "7", Path: "$.doc_hash", Message: "doc_hash does not match"},
		},
	}
	r.ID = "7"
	return r
}

func renderTab(t *testing.T, ds *model.Dataset, rec *model.Record, tab Tab, w int, unfold bool) Doc {
	t.Helper()
	st := styles.Plain()
	doc := Render(ds, rec, tab, Options{Width: w, Styles: &st, Filter: 0, Unfold: unfold})
	if len(doc.Lines) != len(doc.Plain) {
		t.Fatalf("%d lines but %d plain lines", len(doc.Lines), len(doc.Plain))
	}
	for i, l := range doc.Lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%s line %d is %d cells (> %d): %q", tab.Name, i, lw, w, l)
		}
	}
	return doc
}

func TestTabs(t *testing.T) {
	sample := &model.Record{
		Messages: []model.Message{{Role: model.RoleUser, Segments: []model.Segment{{Text: "hi"}}}},
		Sections: []model.Section{{Title: "Tools", Tab: "Tools"}, {Title: "steps"}, {Title: "more tools", Tab: "Tools"}, {Title: "extra prompt", Tab: "Prompt"}},
	}
	tests := []struct {
		name string
		ds   *model.Dataset
		rec  *model.Record
		want string
	}{
		{"lm-eval record", lmDataset(), lmRecord(), "Prompt Responses Filters Doc Raw Issues"},
		{"sections get their own tabs once", &model.Dataset{Kind: model.KindSample}, sample, "Prompt Tools Details"},
		{"no record, dataset issues", lmDataset(), nil, "Issues"},
		{"no record, no issues", &model.Dataset{}, nil, ""},
		{"fields are Fields outside lm-eval", &model.Dataset{Kind: model.KindTestset}, &model.Record{Fields: []model.Field{{Name: "a"}}}, "Fields"},
		{"empty record", &model.Dataset{Kind: model.KindRun}, &model.Record{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var names []string
			for _, tab := range Tabs(tt.ds, tt.rec) {
				names = append(names, tab.Name)
			}
			if got := strings.Join(names, " "); got != tt.want {
				t.Errorf("tabs %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRenderTabs(t *testing.T) {
	ds, rec := lmDataset(), lmRecord()
	tests := []struct {
		tab    Tab
		unfold bool
		want   []string
		absent []string
	}{
		{Tab{Content: model.TabConversation, Name: "Prompt"}, false, []string{"2 few-shot messages (folded", "Q: how many eggs?", "2 issues in this record"}, []string{"Q: 1+1?"}},
		{Tab{Content: model.TabConversation, Name: "Prompt"}, true, []string{"user · few-shot", "Q: 1+1?", "A: 2"}, []string{"folded"}},
		{Tab{Content: model.TabAttempts, Name: "Responses"}, false, []string{"#1 of 2", "The answer is 16."}, nil},
		{Tab{Content: model.TabFilterResults, Name: "Filters"}, false, []string{"Target: 18", "▸ strict-match", "flexible-extract", "exact_match", "✗", "‼ metric \"acc\" has no value (at $.acc)", "1 more issue"}, nil},
		{Tab{Content: model.TabFields, Name: "Doc"}, false, []string{"question: how many eggs?", `meta: {"a":1,"b":[1,2]}`, "⚠ doc_hash does not match"}, nil},
		{Tab{Content: model.TabRaw, Name: "Raw"}, false, []string{"filter strict-match · s.jsonl:1", `"doc_id": 7`}, nil},
		{Tab{Content: model.TabIssues, Name: "Issues"}, false, []string{"Dataset issues (1)", "count-mismatch", "Record 7 issues (2)", "s.jsonl:4 · record 7 · $.acc", "‼ error  metric-missing"}, []string{"see the Issues tab"}},
	}
	for _, tt := range tests {
		for _, w := range []int{24, 60, 120} {
			doc := renderTab(t, ds, rec, tt.tab, w, tt.unfold)
			flat := strings.Join(doc.Plain, "\n")
			if w < 60 {
				continue // content checks at widths where lines are whole
			}
			for _, s := range tt.want {
				if !strings.Contains(flat, s) {
					t.Errorf("%s (w=%d, unfold=%v) lacks %q:\n%s", tt.tab.Name, w, tt.unfold, s, flat)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(flat, s) {
					t.Errorf("%s (w=%d) should not show %q:\n%s", tt.tab.Name, w, s, flat)
				}
			}
		}
	}
	if doc := renderTab(t, ds, rec, Tab{Content: model.TabConversation, Name: "Prompt"}, 60, false); doc.Folds != 1 {
		t.Errorf("folds = %d, want 1", doc.Folds)
	}
}

func TestRenderSanitizes(t *testing.T) {
	payload := "x\x1b]2;pwned\x07 \x1b]52;c;cm0=\x07 \u202eevil"
	rec := &model.Record{
		Messages: []model.Message{{Role: model.Role("user\x1b[2J"), Segments: []model.Segment{{Text: payload}, {Type: model.SegToolCall, ToolName: "t\x1b[1m", Arguments: `{"a":"` + "\\u001b]2;x\\u0007" + `"}`}}}},
		Fields:   []model.Field{{Name: "f\x1b]0;t\x07", Value: payload}},
		Issues:   []model.Issue{{Message: payload, File: "a\x1bb"}},
		Raw:      []model.RawPart{{Label: "l", JSON: []byte("{\"k\": \"v\x1b]2;raw\x07\"}")}},
	}
	colored := styles.New(true)
	for _, st := range []styles.Styles{styles.Plain(), colored} {
		for _, tab := range Tabs(&model.Dataset{}, rec) {
			doc := Render(&model.Dataset{}, rec, tab, Options{Width: 80, Styles: &st, Highlighter: highlight.New(&st)})
			for _, l := range doc.Lines {
				// Styles are SGR sequences; nothing else may reach the screen.
				rest := ansi.Strip(l)
				if strings.ContainsAny(rest, "\x1b\x07\u202e") {
					t.Errorf("%s: control character left in %q", tab.Name, rest)
				}
				if strings.Contains(l, "\x1b]") {
					t.Errorf("%s: OSC sequence in %q", tab.Name, l)
				}
			}
			flat := strings.Join(doc.Plain, "\n")
			if tab.Content == model.TabConversation && !strings.Contains(flat, "x␛]2;pwned␇ ␛]52;c;cm0=␇ \\u202eevil") {
				t.Errorf("payload not shown escaped:\n%s", flat)
			}
		}
	}
}

func TestIssueTab(t *testing.T) {
	rec := lmRecord()
	tests := []struct {
		path, code string
		want       model.TabContent
	}{
		{"$.exact_match", "", model.TabFilterResults},
		{"$.acc", "metric-missing", model.TabFilterResults},
		{"$.doc_hash", "hash-mismatch", model.TabFields},
		{"$.prompt_hash", "", model.TabConversation},
		{"$.arguments.gen_args_0", "", model.TabConversation},
		{"$.resps[2]", "", model.TabAttempts},
		{"$.attempts[1].status", "", model.TabAttempts},
		{"$.filtered_resps", "", model.TabFilterResults},
		{"$.target", "", model.TabFilterResults},
		{"", "bad-json", model.TabIssues},
		{"$.unknown", "", model.TabIssues},
	}
	for _, tt := range tests {
		if got := IssueTab(rec, model.Issue{Path: tt.path, Code: tt.code}); got != tt.want {
			t.Errorf("IssueTab(%q, %q) = %v, want %v", tt.path, tt.code, got, tt.want)
		}
	}
	// Without filters the target shows in the Prompt tab.
	if got := IssueTab(&model.Record{}, model.Issue{Path: "$.target"}); got != model.TabConversation {
		t.Errorf("target without filters: %v", got)
	}
}

func TestRenderCapsHugeText(t *testing.T) {
	big := strings.Repeat("word ", maxTextBytes/5+1000)
	rec := &model.Record{
		Attempts: []model.Attempt{{Text: big}},
		Raw:      []model.RawPart{{Label: "big", JSON: []byte(`{"k":"` + strings.Repeat("a", maxRawBytes+100) + `"}`)}},
	}
	doc := renderTab(t, &model.Dataset{}, rec, Tab{Content: model.TabAttempts, Name: "Responses"}, 80, false)
	if last := doc.Plain[len(doc.Plain)-1]; !strings.Contains(last, "more not shown (text capped at 128.0 KB)") {
		t.Errorf("no cap marker, last line %q", last)
	}
	doc = renderTab(t, &model.Dataset{}, rec, Tab{Content: model.TabRaw, Name: "Raw"}, 80, false)
	if last := doc.Plain[len(doc.Plain)-1]; !strings.Contains(last, "more not shown (raw part capped at 512.0 KB)") {
		t.Errorf("no raw cap marker, last line %q", last)
	}
}

func TestResponsesAndTables(t *testing.T) {
	rec := &model.Record{
		Attempts: []model.Attempt{
			{Index: 1, Text: "ok", Status: model.StatusPass, Scores: []model.Score{{Name: "relevance", Value: 8, Max: 10}, {Name: "style", Value: 0.5}}, Weighted: 8.25, HasWeighted: true, DurationMS: 1234, Judge: "fine"},
			{Index: 2, Status: model.StatusError, ErrorType: "Timeout", Error: "took too long", ErrorBody: "upstream"},
		},
		Sections: []model.Section{
			{Title: "Scores", Type: model.SectionTable, Table: &model.Table{Columns: []string{"name", "value"}, Rows: [][]string{{"a long dimension name", "1"}, {"b", "2"}}}},
			{Title: "Hidden", Type: model.SectionText, Text: "secret", Folded: true},
		},
	}
	// A format without an AttemptScore calls the score a score (an
	// Inspect epoch's value); a run's is its weighted score.
	doc := renderTab(t, &model.Dataset{}, rec, Tab{Content: model.TabAttempts, Name: "Responses"}, 60, false)
	if flat := strings.Join(doc.Plain, "\n"); !strings.Contains(flat, "#1 of 2  ✓ pass  score 8.25  1.2s") {
		t.Errorf("responses without AttemptScore:\n%s", flat)
	}
	run := &model.Dataset{Kind: model.KindRun, Presentation: model.Presentation{AttemptScore: "weighted"}}
	doc = renderTab(t, run, rec, Tab{Content: model.TabAttempts, Name: "Responses"}, 60, false)
	flat := strings.Join(doc.Plain, "\n")
	for _, want := range []string{"#1 of 2  ✓ pass  weighted 8.25  1.2s", "relevance ████████░░ 8/10", "style     █████░░░░░ 0.50", "judge: fine", "! error", "error: Timeout: took too long", "upstream"} {
		if !strings.Contains(flat, want) {
			t.Errorf("responses lack %q:\n%s", want, flat)
		}
	}
	doc = renderTab(t, &model.Dataset{Kind: model.KindRun}, rec, Tab{Content: model.TabSections, Name: DetailsTab}, 60, false)
	flat = strings.Join(doc.Plain, "\n")
	for _, want := range []string{"name                  │ value", "a long dimension name │ 1", "▸ Hidden (folded: z to unfold)"} {
		if !strings.Contains(flat, want) {
			t.Errorf("details lack %q:\n%s", want, flat)
		}
	}
	// Too narrow for columns: each row becomes a block.
	doc = renderTab(t, &model.Dataset{Kind: model.KindRun}, rec, Tab{Content: model.TabSections, Name: DetailsTab}, 9, true)
	flat = strings.Join(doc.Plain, "\n")
	if !strings.Contains(flat, "name:") || !strings.Contains(flat, "secret") {
		t.Errorf("narrow table should fall back to blocks:\n%s", flat)
	}
}

func TestPromptExtras(t *testing.T) {
	exists := false
	rec := &model.Record{
		Messages: []model.Message{
			{Role: model.RoleUser, Segments: []model.Segment{{Text: "look"}, {Type: model.SegImage, URL: "a.png", Resolved: "/d/a.png", Exists: &exists}, {Type: model.SegAudio, URL: "https://x/y.wav"}}},
			{Role: model.RoleAssistant, Segments: []model.Segment{{Type: model.SegToolCall, ToolName: "search", ToolCallID: "c1", Arguments: `{"q":"x"}`}}},
			{Role: model.RoleTool, ToolCallID: "c1", Segments: []model.Segment{{Type: model.SegToolResult, ToolCallID: "c1", Text: "found"}}},
		},
		Options:    []model.Option{{ID: "A", Text: "one"}, {ID: "B", Text: "two", Correct: true}},
		References: []string{"B"},
		Target:     "B",
	}
	doc := renderTab(t, &model.Dataset{Kind: model.KindSample}, rec, Tab{Content: model.TabConversation, Name: "Prompt"}, 60, false)
	flat := strings.Join(doc.Plain, "\n")
	for _, want := range []string{"[image] a.png\n  → /d/a.png (missing)", "[audio] https://x/y.wav (remote)", `→ tool call search {"q":"x"}  id c1`,
		"── tool · answers c1 (search) ─", "─\n  found", "  A) one", "  B) two ✓ correct", "References", "  • B"} {
		if !strings.Contains(flat, want) {
			t.Errorf("prompt lacks %q:\n%s", want, flat)
		}
	}
	// The label only repeats references[0]: not shown twice.
	if strings.Contains(flat, "Target: B") {
		t.Errorf("target repeats the reference:\n%s", flat)
	}
	// A tool result not tied by its message says which call it answers;
	// long arguments are pretty-printed under the call.
	rec.Messages[1].Segments[0].Arguments = `{"query": "a longer query than fits on the line", "limit": 10}`
	rec.Messages[2].ToolCallID = ""
	flat = strings.Join(renderTab(t, &model.Dataset{Kind: model.KindSample}, rec, Tab{Content: model.TabConversation, Name: "Prompt"}, 60, false).Plain, "\n")
	for _, want := range []string{"→ tool call search  id c1\n  {\n    \"query\"", "← tool result for c1 (search)"} {
		if !strings.Contains(flat, want) {
			t.Errorf("prompt lacks %q:\n%s", want, flat)
		}
	}
}

// TestFiltersTabRowValues: a row's metric values that are not one number
// (f1's [gold, pred], bleu's [reference, prediction]) show in the
// Filters tab, each in its column, a long one in full under the table.
func TestFiltersTabRowValues(t *testing.T) {
	rec := &model.Record{Target: "1", Filters: []model.FilterResult{{
		Filter: "none", Answer: "1", Answers: []string{"1"},
		Metrics: []model.MetricValue{{Name: "acc", Value: 1}},
		Values: []model.RowValue{{Name: "f1", Labels: []string{"1", "1"}, Text: "[1, 1]"},
			{Name: "bleu", Text: `["The house is small.", "The house is very small indeed."]`}},
	}}}
	rec.ID = "0"
	doc := renderTab(t, &model.Dataset{Filters: []string{"none"}}, rec, Tab{Content: model.TabFilterResults, Name: "Filters"}, 100, false)
	s := strings.Join(doc.Plain, "\n")
	for _, want := range []string{"f1", "[1, 1]", "bleu", "Values in full", `none bleu: ["The house is small.", "The house is very small indeed."]`} {
		if !strings.Contains(s, want) {
			t.Errorf("Filters tab lacks %q:\n%s", want, s)
		}
	}
}
