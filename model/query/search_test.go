package query

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"evalview/model"
)

func TestMatcher(t *testing.T) {
	cases := []struct {
		pattern string
		regex   bool
		text    string
		want    [][2]int
	}{
		{"foo", false, "Foo foo FOO", [][2]int{{0, 3}, {4, 7}, {8, 11}}},
		{"Foo", false, "Foo foo FOO", [][2]int{{0, 3}}},
		{"aa", false, "aaaa", [][2]int{{0, 2}, {2, 4}}},
		{"é", false, "CAFÉ café", [][2]int{{3, 5}, {9, 11}}},
		{"k", false, "\u212A k", [][2]int{{0, 3}, {4, 5}}}, // the Kelvin sign folds to k
		{"straße", false, "STRASSE straße", [][2]int{{8, 15}}},
		{"x", false, "none here", nil},
		{`\d+`, true, "a12b345", [][2]int{{1, 3}, {4, 7}}},
		{`\W`, true, "A b", [][2]int{{1, 2}}},
		{"answer", true, "The ANSWER is", [][2]int{{4, 10}}},
		{"Answer", true, "The ANSWER is Answer", [][2]int{{14, 20}}},
		{"a*", true, "bbb", nil},
		{"a*", true, "baab", [][2]int{{1, 3}}},
		{"[.]", true, "a.b", [][2]int{{1, 2}}},
		{".", false, "a.b", [][2]int{{1, 2}}},
	}
	for _, c := range cases {
		m, err := NewMatcher(c.pattern, c.regex)
		if err != nil {
			t.Errorf("NewMatcher(%q): %v", c.pattern, err)
			continue
		}
		got := m.FindAll(c.text)
		if len(got) != 0 || len(c.want) != 0 {
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%q in %q: got %v, want %v", c.pattern, c.text, got, c.want)
			}
		}
		if m.Match(c.text) != (len(c.want) > 0) {
			t.Errorf("%q Match(%q) = %v", c.pattern, c.text, m.Match(c.text))
		}
		if m.String() != c.pattern || m.Regex() != c.regex {
			t.Errorf("%q: String/Regex", c.pattern)
		}
	}
	if _, err := NewMatcher("", false); err == nil {
		t.Error("empty pattern accepted")
	}
	if _, err := NewMatcher("(", true); err == nil || strings.Contains(err.Error(), "error parsing") {
		t.Errorf("bad regex error: %v", err)
	}
}

// detailed is a record with text in every place RecordText reads.
func detailed() *model.Record {
	yes := true
	return &model.Record{
		Summary: model.Summary{ID: "doc-7", Title: "first line", Labels: model.LabelsOf(map[string]string{"category": "algebra"}), Tags: []string{"hard"}},
		Messages: []model.Message{
			{Role: model.RoleUser, Label: "context", Segments: []model.Segment{{Type: model.SegText, Text: "What is x?"},
				{Type: model.SegImage, URL: "img/plot.png", Exists: &yes}}},
			{Role: model.RoleAssistant, Segments: []model.Segment{{Type: model.SegToolCall, ToolName: "calculator", Arguments: `{"expr":"6*7"}`}}},
			{Role: model.RoleTool, Name: "calc-tool", Segments: []model.Segment{{Type: model.SegToolResult, Text: "42"}}},
		},
		Options:    []model.Option{{ID: "B", Text: "forty-two"}},
		References: []string{"ref answer"},
		Target:     "the target",
		Attempts: []model.Attempt{{Text: "attempt text", StatusText: "timeout", ErrorType: "HTTPError", Error: "rate limited",
			ErrorBody: "body 429", Judge: "judge says meh", Facts: []model.Fact{{Key: "model", Value: "gpt-x"}},
			Scores: []model.Score{{Name: "relevance", Value: 8}}, Raw: "raw response"}},
		Filters: []model.FilterResult{{Filter: "flexible-extract", Answer: "18", Answers: []string{"18", "19"}}},
		Fields:  []model.Field{{Name: "question", Value: "field question"}},
		Sections: []model.Section{{Title: "Step 1", Text: "section text", JSON: `{"k":"json value"}`,
			Table: &model.Table{Columns: []string{"col"}, Rows: [][]string{{"cell value"}}},
			Facts: []model.Fact{{Key: "sandbox", Value: "docker"}}, Messages: []model.Message{{Segments: []model.Segment{{Text: "section message"}}}}}},
		Raw:    []model.RawPart{{JSON: []byte(`{"secret_raw_key": 1}`)}},
		Issues: []model.Issue{{Code: "missing-field", Message: "no target"}},
	}
}

func TestRecordText(t *testing.T) {
	text := RecordText(detailed())
	for _, want := range []string{"doc-7", "first line", "category: algebra", "hard", "context", "What is x?", "img/plot.png",
		"calculator", `{"expr":"6*7"}`, "calc-tool", "42", "B: forty-two", "ref answer", "the target", "attempt text", "timeout",
		"HTTPError", "rate limited", "body 429", "judge says meh", "model: gpt-x", "relevance", "raw response",
		"flexible-extract", "18", "19", "question: field question", "Step 1", "section text", "json value", "col", "cell value",
		"sandbox: docker", "section message", "missing-field: no target"} {
		if !strings.Contains(text, want) {
			t.Errorf("RecordText lacks %q", want)
		}
	}
	if strings.Contains(text, "secret_raw_key") {
		t.Error("RecordText includes raw JSON")
	}
	if RecordText(nil) != "" {
		t.Error("RecordText(nil)")
	}
}

// failingIndex fails to load one record.
type failingIndex struct{ *model.MemIndex }

func (f failingIndex) Record(i int) (*model.Record, error) {
	if i == 1 {
		return nil, errors.New("disk on fire")
	}
	return f.MemIndex.Record(i)
}

func TestSearch(t *testing.T) {
	plain := &model.Record{Summary: model.Summary{ID: "p", Title: "nothing"}}
	other := &model.Record{Summary: model.Summary{ID: "o", Title: "Rate Limited too"}}
	ds := &model.Dataset{Records: model.NewMemIndex([]*model.Record{detailed(), plain, other})}
	m, _ := NewMatcher("rate limited", false)
	got, err := Search(context.Background(), ds, []int{2, 1, 0}, m)
	if err != nil || !reflect.DeepEqual(got, []int{2, 0}) {
		t.Errorf("Search = %v, %v", got, err)
	}
	ds.Records = failingIndex{model.NewMemIndex([]*model.Record{detailed(), plain, other})}
	got, err = Search(context.Background(), ds, []int{0, 1, 2}, m)
	if err == nil || !reflect.DeepEqual(got, []int{0, 2}) {
		t.Errorf("Search with a failing record = %v, %v", got, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Search(ctx, ds, []int{0}, m); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Search: %v", err)
	}
}
