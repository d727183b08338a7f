package testset

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"evalview/loaders/internal/folder"
	"evalview/model"
)

// sharedData returns ../shared/data/testset, skipping when it is absent
// (it is reference material beside the project, not part of it).
func sharedData(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../../shared/data/testset")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/data/testset is absent")
	}
	return dir
}

// Every real testset loads with no false alarm: none of the rules applies
// to them, so they carry no issue at all.
func TestSharedTestsets(t *testing.T) {
	root := sharedData(t)
	cases := []struct {
		file          string
		records       int
		v1, v2, kinds string
	}{
		{"batch_processing_advanced.jsonl", 5, "", "5", "multi-step 1, aggregation 4"},
		{"batch_processing_demo.jsonl", 3, "", "3", "simple 3"},
		{"pipeline_batch_aggregation_examples.jsonl", 7, "", "7", "full 7"},
		{"pipeline_complex_scenarios.jsonl", 5, "", "5", "full 5"},
		{"pipeline_intermediate_evaluation_examples.jsonl", 6, "", "6", "multi-step 6"},
		{"pipeline_multi_step_examples.jsonl", 5, "", "5", "multi-step 5"},
		{"pipeline_testset_formats.jsonl", 5, "1", "4", "simple 2, multi-step 1, aggregation 1, full 1"},
		{"simple_batch_reviews.jsonl", 6, "", "6", "full 6"},
		{"simple_sentiment_analysis.jsonl", 10, "", "10", "simple 10"},
		{"simple_summarization.jsonl", 5, "", "5", "simple 5"},
		{"simple_text_processing_pipeline.jsonl", 10, "", "10", "multi-step 10"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			p := filepath.Join(root, c.file)
			head, err := folder.ReadHead(p)
			if err != nil {
				t.Fatal(err)
			}
			if s := SniffFile(c.file, head); s != 2 {
				t.Errorf("SniffFile = %d, want 2", s)
			}
			d := openOne(t, p)
			if d.Records.Len() != c.records {
				t.Errorf("%d records, want %d", d.Records.Len(), c.records)
			}
			if fact(d.Facts, "v1 records") != c.v1 || fact(d.Facts, "v2 records") != c.v2 || fact(d.Facts, "kinds") != c.kinds {
				t.Errorf("facts %v", d.Facts)
			}
			issues, err := d.AllIssues()
			if err != nil {
				t.Fatal(err)
			}
			for _, is := range issues {
				t.Errorf("false alarm: %s (%s)", is, is.Code)
			}
			ids := map[string]bool{}
			for _, r := range records(t, d) {
				if r.ID == "" || ids[r.ID] || r.Title == "" || r.Labels.Get("kind") == "" {
					t.Errorf("record %q title %q labels %v", r.ID, r.Title, r.Labels)
				}
				ids[r.ID] = true
			}
		})
	}
	// The folder opens every testset, and not the JSON Schema beside them.
	if s := SniffDir(root, nil); s != 1 {
		t.Errorf("SniffDir = %d, want 1", s)
	}
	ds, err := Open(root)
	if err != nil || len(ds) != len(cases) {
		t.Errorf("Open(folder) = %d datasets, %v", len(ds), err)
	}
	schema, err := folder.ReadHead(filepath.Join(root, "pipeline_testset.schema.json"))
	if err == nil && SniffFile("pipeline_testset.schema.json", schema) != 0 {
		t.Error("the JSON Schema sniffs as a testset")
	}
}

// Real records' views: a step with inputs but no expectation, a v1
// record among v2 ones, a v2 custom field.
func TestSharedRecordViews(t *testing.T) {
	root := sharedData(t)
	r := byID(t, openOne(t, filepath.Join(root, "simple_text_processing_pipeline.jsonl")), "text_processing_short")
	steps := section(r, SectionSteps)
	wantRows := [][]string{
		{"normalize", `{"lowercase": true}`, `{"text": "hello world"}`},
		{"tokenize", `{"method": "word"}`, `{"tokens": ["hello", "world"], "count": 2}`},
	}
	if steps == nil || !reflect.DeepEqual(steps.Table.Rows, wantRows) {
		t.Errorf("steps %+v", steps)
	}
	formats := openOne(t, filepath.Join(root, "pipeline_testset_formats.jsonl"))
	v1 := byID(t, formats, "simple_format_1")
	wantFields := []model.Field{
		{Name: "text", Value: "This is a simple test case"},
		{Name: "description", Value: "Simple format: all fields are treated as inputs"},
	}
	if v1.Labels.Get("version") != VersionV1 || !reflect.DeepEqual(v1.Fields, wantFields) || v1.Target != "processed text" || !reflect.DeepEqual(v1.Tags, []string{"simple"}) {
		t.Errorf("v1 record %+v", v1)
	}
	batch := byID(t, formats, "batch_format_1")
	if c := section(batch, SectionCustom); c == nil || c.JSON != "{\n  \"description\": \"Batch format: includes batch_items and expected_aggregation\"\n}" {
		t.Errorf("custom fields %+v", c)
	}
	if batch.Title != "Batch format: includes batch_items and expected_aggregation" {
		t.Errorf("title %q", batch.Title)
	}
}
