package sample

import (
	"path/filepath"
	"testing"

	"evalview/model"
)

// The golden views: the exact model values the TUI renders for the
// multimodal, tool-calling and judged fixtures.

func TestGoldenMultimodal(t *testing.T) {
	d := openOne(t, "multimodal.jsonl")
	recs := byID(records(t, d))
	inputs := fixture(t, "inputs")
	r := recs["mm_0001"]
	same(t, "mm_0001 messages", r.Messages, []model.Message{
		{Role: model.RoleSystem, Segments: []model.Segment{{Type: txt, Text: "Look carefully."}}},
		{Role: model.RoleUser, Segments: []model.Segment{
			{Type: img, URL: "inputs/apple_0001.png", Resolved: filepath.Join(inputs, "apple_0001.png"), Exists: yes(),
				Meta: []model.Fact{{Key: "detail", Value: "high"}}},
			{Type: aud, URL: "inputs/missing.wav", Resolved: filepath.Join(inputs, "missing.wav"), Exists: no()},
			{Type: vid, URL: "https://example.com/clip.mp4"},
			{Type: file, URL: "data:application/pdf;base64,JVBERi0="},
			{Type: img, URL: "file:inputs/sketch_0001.png", Resolved: filepath.Join(inputs, "sketch_0001.png"), Exists: yes()},
			{Type: txt, Text: "What is shown?"},
		}},
	})
	same(t, "mm_0001 summary", r.Summary, model.Summary{
		ID: "mm_0001", Title: "What is shown?", Line: 1, Warnings: 1,
		Labels: model.LabelsOf(map[string]string{"task_type": "image-qa", "data_tag.modality": "image", "data_tag.difficulty": "2"}),
	})
	same(t, "mm_0001 references", r.References, []string{"an apple"})
	same(t, "mm_0001 issues", r.Issues, []model.Issue{{
		Severity: model.SeverityWarning, Code: "missing-media", File: fixture(t, "multimodal.jsonl"), Line: 1, Record: "mm_0001",
		Path:    "$.messages[1].content[1].audio_url.url",
		Message: "audio inputs/missing.wav not found (looked for " + filepath.Join(inputs, "missing.wav") + ")",
	}})
	same(t, "mm_0001 sections", r.Sections, []model.Section{
		{Title: "data_tag", Type: model.SectionFacts, Tab: TabMetadata, Facts: []model.Fact{{Key: "modality", Value: "image"}, {Key: "difficulty", Value: "2"}}},
	})

	// A generated image: the reference is the image path, the prediction a
	// media segment kept as the attempt's thread (not checked: model output).
	r = recs["mm_0002"]
	same(t, "mm_0002 references", r.References, []string{"refs/apple_0001.png"})
	if len(r.Attempts) != 1 || r.Attempts[0].Text != "[image] outputs/gen_0002.png" || len(r.Issues) != 0 {
		t.Errorf("mm_0002 attempts %+v, issues %v", r.Attempts, r.Issues)
	}
	same(t, "mm_0002 attempt thread", r.Attempts[0].Messages, []model.Message{{
		Role: model.RoleAssistant, Segments: []model.Segment{{Type: img, URL: "outputs/gen_0002.png", Resolved: filepath.Join(filepath.Dir(inputs), "outputs", "gen_0002.png"), Exists: no()}},
	}})
	same(t, "mm_0002 sections", r.Sections, []model.Section{
		{Title: "raw_assets", Type: model.SectionJSON, Tab: TabRawAssets, JSON: "{\n  \"image\": [\n    \"inputs/apple_0001.png\"\n  ]\n}"},
	})
}

func TestGoldenToolCalling(t *testing.T) {
	recs := byID(records(t, openOne(t, "tools.jsonl")))
	r := recs["tool_0001"]
	same(t, "tool_0001 messages", r.Messages, []model.Message{
		{Role: model.RoleSystem, Segments: []model.Segment{{Type: txt, Text: "You can call tools."}}},
		{Role: model.RoleUser, Segments: []model.Segment{{Type: txt, Text: "Weather in Paris and Rome?"}}},
		{Role: model.RoleAssistant, Segments: []model.Segment{
			{Type: call, ToolName: "get_weather", ToolCallID: "call_1", Arguments: "{\n  \"city\": \"Paris\"\n}"},
			{Type: call, ToolName: "get_weather", ToolCallID: "call_2", Arguments: "{\n  \"city\": \"Rome\",\n  \"unit\": \"c\"\n}"},
		}},
		{Role: model.RoleTool, ToolCallID: "call_1", Segments: []model.Segment{{Type: reply, Text: "Sunny, 22C", ToolCallID: "call_1"}}},
		{Role: model.RoleTool, Name: "get_weather", ToolCallID: "call_2", Segments: []model.Segment{{Type: reply, Text: "Rain, 14C", ToolCallID: "call_2"}}},
		{Role: model.RoleUser, Segments: []model.Segment{{Type: txt, Text: "Thanks. Summarize."}}},
	})
	if len(r.Issues) != 0 {
		t.Errorf("tool_0001 issues: %v", r.Issues)
	}
	same(t, "tool_0001 attempts", r.Attempts, []model.Attempt{{
		Index: 0, DurationMS: 830,
		Text: "Checking.\n[tool call] get_weather (p1)\n{\n  \"city\": \"Oslo\"\n}",
		Facts: []model.Fact{
			{Key: "prompt_tokens", Value: "50"}, {Key: "completion_tokens", Value: "12"}, {Key: "total_tokens", Value: "62"},
			{Key: "model", Value: "qwen2.5-7b"}, {Key: "finish_reason", Value: "tool_calls"},
		},
		Messages: []model.Message{{
			Role: model.RoleAssistant, Segments: []model.Segment{
				{Type: txt, Text: "Checking."},
				{Type: call, ToolName: "get_weather", ToolCallID: "p1", Arguments: "{\n  \"city\": \"Oslo\"\n}"},
			},
		}},
	}})
	same(t, "tool_0001 sections", r.Sections, []model.Section{
		{Title: "Golden trajectory 1", Type: model.SectionMessages, Tab: TabTrajectories, Messages: []model.Message{
			{Role: model.RoleAssistant, Segments: []model.Segment{{Type: call, ToolName: "get_forecast", ToolCallID: "call_3", Arguments: "{\n  \"city\": \"Paris\",\n  \"days\": 2\n}"}}},
			{Role: model.RoleTool, ToolCallID: "call_3", Segments: []model.Segment{{Type: reply, Text: "Sunny", ToolCallID: "call_3"}}},
			// Answers a call the prompt made: a trajectory continues the prompt.
			{Role: model.RoleTool, ToolCallID: "call_1", Segments: []model.Segment{{Type: reply, Text: "Sunny, 22C", ToolCallID: "call_1"}}},
			{Role: model.RoleAssistant, Segments: []model.Segment{{Type: txt, Text: "Paris is sunny, Rome is rainy."}}},
		}},
		{Title: "get_weather", Type: model.SectionJSON, Tab: TabTools, JSON: `{
  "type": "function",
  "function": {
    "name": "get_weather",
    "description": "Get current weather",
    "parameters": {
      "type": "object",
      "properties": {
        "city": {
          "type": "string"
        }
      },
      "required": [
        "city"
      ]
    }
  }
}`},
		{Title: "tool_choice", Type: model.SectionText, Tab: TabTools, Text: "auto"},
	})

	// Broken tool use: legacy function_call with bad arguments, a tool
	// message answering nothing, one with no call id.
	r = recs["tool_0002"]
	same(t, "tool_0002 assistant", r.Messages[1], model.Message{Role: model.RoleAssistant, Segments: []model.Segment{
		{Type: call, ToolName: "lookup", Arguments: "{city: Paris"},
	}})
	same(t, "tool_0002 issues", codes(r.Issues), []string{"bad-arguments", "unknown-tool-call", "missing-field"})
	same(t, "tool_0002 paths", []string{r.Issues[0].Path, r.Issues[1].Path, r.Issues[2].Path}, []string{
		"$.messages[1].function_call.arguments", "$.messages[2].tool_call_id", "$.messages[3].tool_call_id",
	})
	if r.Errors != 2 || r.Warnings != 1 {
		t.Errorf("tool_0002: %d errors, %d warnings", r.Errors, r.Warnings)
	}
}

func TestGoldenJudged(t *testing.T) {
	d := openOne(t, "judged.jsonl")
	recs := records(t, d)
	m := byID(recs)

	r := m["judged_pass"]
	same(t, "judged_pass summary", r.Summary, model.Summary{
		ID: "judged_pass", Title: "Which one is a mammal?", Status: model.StatusPass, Score: 1, HasScore: true,
		Labels: model.LabelsOf(map[string]string{"task_type": "multiple-choice"}), Attempts: 1, ScoredAttempts: 1, Line: 1,
	})
	same(t, "judged_pass options", r.Options, []model.Option{{ID: "A", Text: "Shark"}, {ID: "B", Text: "Dolphin", Correct: true}})
	same(t, "judged_pass attempts", r.Attempts, []model.Attempt{{
		Index: 0, Text: "B", Status: model.StatusPass, DurationMS: 1200,
		Scores:   []model.Score{{Name: "exact_match", Value: 1}, {Name: "bleu", Value: 0.72}},
		Weighted: 1, HasWeighted: true, Judge: "correct: 答案与参考一致",
		Facts: []model.Fact{{Key: "total_tokens", Value: "123"}},
		Raw:   "{\n  \"id\": \"chatcmpl-1\",\n  \"choices\": [\n    {\n      \"finish_reason\": \"stop\"\n    }\n  ]\n}",
	}})
	same(t, "judged_pass sections", r.Sections, []model.Section{
		{Title: "Overall", Type: model.SectionFacts, Tab: TabEval, Facts: []model.Fact{{Key: "score", Value: "1.0"}, {Key: "passed", Value: "true"}}},
		{Title: "Metrics", Type: model.SectionTable, Tab: TabEval, Table: &model.Table{
			Columns: []string{"metric", "score"},
			Rows:    [][]string{{"exact_match", "1.0"}, {"bleu", "0.72"}},
		}},
		{Title: "Judge", Type: model.SectionFacts, Tab: TabEval, Facts: []model.Fact{
			{Key: "model", Value: "gpt-4o-mini"}, {Key: "verdict", Value: "correct"}, {Key: "reason", Value: "答案与参考一致"},
		}},
	})

	// Two predictions, one judgement: the record is judged, the attempts
	// are not (the judge does not say which one it read).
	r = m["judged_fail"]
	if r.Status != model.StatusFail || !r.HasScore || r.Score != 0 || r.Summary.Attempts != 2 || r.ScoredAttempts != 0 {
		t.Errorf("judged_fail summary %+v", r.Summary)
	}
	same(t, "judged_fail attempts", r.Attempts, []model.Attempt{{Index: 0, Text: "Sydney"}, {Index: 1, Text: "Sydney, I think"}})
	same(t, "judged_fail metrics", section(t, r, "Metrics").Table, &model.Table{
		Columns: []string{"metric", "score", "details"},
		Rows:    [][]string{{"exact_match", "0", ""}, {"f1", "0.4", "token overlap"}},
	})
	same(t, "judged_fail overall", section(t, r, "Overall").Facts, []model.Fact{
		{Key: "score", Value: "0.0"}, {Key: "passed", Value: "false"}, {Key: "threshold", Value: "0.5"},
	})
	same(t, "judged_fail judge", section(t, r, "Judge").Facts, []model.Fact{
		{Key: "model", Value: "gpt-4o-mini"}, {Key: "verdict", Value: "incorrect"},
		{Key: "reason", Value: "Sydney is not the capital."}, {Key: "cost_usd", Value: "0.0004"},
	})

	r = m["judged_error"]
	same(t, "judged_error attempts", r.Attempts, []model.Attempt{{
		Index: 0, Status: model.StatusError, StatusText: "error", ErrorType: "Timeout", Error: "backend timed out",
	}})
	if r.Status != model.StatusError || r.HasScore {
		t.Errorf("judged_error: status %s, has score %v", r.Status, r.HasScore)
	}

	r = m["judged_empty"]
	if r.Status != model.StatusUnscored || len(r.Attempts) != 0 || len(r.Sections) != 0 || len(r.Issues) != 0 {
		t.Errorf("judged_empty: %s, %d attempts, sections %v, issues %v", r.Status, len(r.Attempts), sectionTitles(r), r.Issues)
	}
	r = m["judged_flat"]
	if r.Status != model.StatusUnscored || !r.HasScore || r.Score != 0.5 {
		t.Errorf("judged_flat: %s %v %v", r.Status, r.Score, r.HasScore)
	}

	same(t, "facts", d.Facts, []model.Fact{
		{Key: "records", Value: "5"},
		{Key: "schema version", Value: "v1"},
		{Key: "task types", Value: "multiple-choice (1), short-answer (2)"},
		{Key: "predictions", Value: "4"},
		{Key: "judged", Value: "2: 1 pass, 1 fail (50.0% pass)"},
		{Key: "errored", Value: "1"},
		{Key: "mean score", Value: "0.5 over 3"},
	})
	if d.MainMetric != "score" || d.Kind != model.KindSample || d.Title != "judged" || d.Task != "judged" {
		t.Errorf("dataset %s %q %q %q", d.Kind, d.MainMetric, d.Title, d.Task)
	}
}
