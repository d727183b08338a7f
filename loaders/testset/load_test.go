package testset

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"evalview/model"
)

func TestSpecExamples(t *testing.T) {
	cases := []struct {
		file, id        string
		kind, version   string
		steps, batch    string
		tags            []string
		title           string
		fields          []model.Field
		references      []string
		target          string
		sectionTitles   []string
		totalRecordsInF int
	}{
		{
			file: "ex1_simple_v1.jsonl", id: "simple_1", kind: KindSimple, version: VersionV1, steps: "0", batch: "0",
			title:      "This is a test",
			fields:     []model.Field{{Name: "text", Value: "This is a test"}},
			references: []string{"processed"}, target: "processed",
			sectionTitles: []string{SectionInputs, SectionOutputs, SectionConfig}, totalRecordsInF: 1,
		},
		{
			file: "ex1_simple_v2.jsonl", id: "simple_1", kind: KindSimple, version: VersionV2, steps: "0", batch: "0",
			title:      "This is a test",
			fields:     []model.Field{{Name: "text", Value: "This is a test"}},
			references: []string{"processed"}, target: "processed",
			sectionTitles: []string{SectionInputs, SectionOutputs, SectionConfig}, totalRecordsInF: 1,
		},
		{
			file: "ex2_multi_step.jsonl", id: "multi_step_sentiment_analysis", kind: KindMultiStep, version: VersionV2,
			steps: "3", batch: "0", tags: []string{"sentiment", "multi-step"},
			title:         "I love this product! It's amazing and works perfectly.",
			fields:        []model.Field{{Name: "text", Value: "I love this product! It's amazing and works perfectly."}},
			references:    []string{"sentiment: positive", "summary: Customer expresses strong satisfaction"},
			sectionTitles: []string{SectionInputs, SectionSteps, SectionOutputs, SectionConfig}, totalRecordsInF: 1,
		},
		{
			file: "ex3_batch.jsonl", id: "batch_customer_reviews", kind: KindFull, version: VersionV2,
			steps: "2", batch: "5", tags: []string{"batch", "sentiment", "aggregation"},
			title:         "Excellent product!",
			references:    []string{"overall_sentiment: mixed", `key_insights: ["Quality concerns", "High satisfaction from some users"]`},
			sectionTitles: []string{SectionSteps, SectionBatch, SectionAggregation, SectionOutputs, SectionConfig}, totalRecordsInF: 1,
		},
		{
			file: "ex4_full.jsonl", id: "complex_pipeline_full_features", kind: KindFull, version: VersionV2,
			steps: "6", batch: "3", tags: []string{"complex", "multi-step", "batch", "aggregation"},
			title: "Great service",
			fields: []model.Field{
				{Name: "dataset_id", Value: "customer_feedback_2024_q1"},
				{Name: "analysis_type", Value: "comprehensive"},
			},
			references: []string{"overall_rating: excellent", `key_strengths: ["service", "delivery", "quality"]`,
				"areas_for_improvement: []", "recommendation: maintain_current_standards"},
			sectionTitles: []string{SectionInputs, SectionSteps, SectionBatch, SectionAggregation, SectionOutputs, SectionConfig}, totalRecordsInF: 1,
		},
		{
			file: "guide_examples.jsonl", id: "batch_1", kind: KindAggregation, version: VersionV2, steps: "0", batch: "2",
			title:         `{"item": "A"}`,
			sectionTitles: []string{SectionBatch, SectionAggregation, SectionConfig}, totalRecordsInF: 5,
		},
		{
			file: "guide_examples.jsonl", id: "multi_step_1", kind: KindMultiStep, version: VersionV2, steps: "2", batch: "0",
			title: "...", fields: []model.Field{{Name: "initial_data", Value: "..."}}, references: []string{"..."},
			sectionTitles: []string{SectionInputs, SectionSteps, SectionOutputs, SectionConfig}, totalRecordsInF: 5,
		},
		{
			// v1: every key but id, tags and expected_output is an input,
			// custom ones included.
			file: "custom_fields.jsonl", id: "test_1", kind: KindSimple, version: VersionV1, steps: "0", batch: "0",
			title: `{"custom_field": "custom_value", "metadata": {"author": "test_team"}}`,
			fields: []model.Field{
				{Name: "custom_field", Value: "custom_value"},
				{Name: "metadata", Value: `{"author": "test_team"}`, IsJSON: true},
			},
			sectionTitles: []string{SectionInputs, SectionConfig}, totalRecordsInF: 2,
		},
		{
			// v2: keys outside the spec are custom fields, not inputs.
			file: "custom_fields.jsonl", id: "test_2", kind: KindSimple, version: VersionV2, steps: "0", batch: "0",
			title: "v2 with extras", fields: []model.Field{{Name: "text", Value: "v2 with extras"}}, references: []string{"ok"},
			sectionTitles: []string{SectionInputs, SectionOutputs, SectionConfig, SectionCustom}, totalRecordsInF: 2,
		},
	}
	for _, c := range cases {
		t.Run(c.file+"/"+c.id, func(t *testing.T) {
			d := openOne(t, filepath.Join(fixtures, "spec", c.file))
			if d.Kind != model.KindTestset || d.Title != c.file || d.Task != c.file {
				t.Errorf("dataset kind/title/task = %s/%s/%s", d.Kind, d.Title, d.Task)
			}
			if d.Records.Len() != c.totalRecordsInF || !d.Records.Done() {
				t.Errorf("%d records, want %d", d.Records.Len(), c.totalRecordsInF)
			}
			all, err := d.AllIssues()
			if err != nil || len(all) != 0 {
				t.Errorf("issues on a spec example: %v %v", all, err)
			}
			r := byID(t, d, c.id)
			want := map[string]string{"kind": c.kind, "version": c.version, "steps": c.steps, "batch_items": c.batch}
			if !reflect.DeepEqual(r.Labels.Map(), want) {
				t.Errorf("labels = %v, want %v", r.Labels, want)
			}
			if !reflect.DeepEqual(r.Tags, c.tags) {
				t.Errorf("tags = %q, want %q", r.Tags, c.tags)
			}
			if r.Title != c.title {
				t.Errorf("title = %q, want %q", r.Title, c.title)
			}
			if !reflect.DeepEqual(r.Fields, c.fields) {
				t.Errorf("fields = %+v, want %+v", r.Fields, c.fields)
			}
			if !reflect.DeepEqual(r.References, c.references) || r.Target != c.target {
				t.Errorf("references = %q target %q, want %q %q", r.References, r.Target, c.references, c.target)
			}
			var titles []string
			for _, s := range r.Sections {
				titles = append(titles, s.Title)
			}
			if !reflect.DeepEqual(titles, c.sectionTitles) {
				t.Errorf("sections = %q, want %q", titles, c.sectionTitles)
			}
			if r.Status != model.StatusUnscored || r.Line == 0 || r.Summary.Line != r.Line {
				t.Errorf("status %s line %d", r.Status, r.Line)
			}
			if len(r.Raw) != 1 || r.Raw[0].File != d.Path || r.Raw[0].Line != r.Line || !strings.Contains(string(r.Raw[0].JSON), `"`+c.id+`"`) {
				t.Errorf("raw = %+v", r.Raw)
			}
		})
	}
}

// The spec says the v1 example equals its v2 form; the views must agree.
func TestV1MatchesItsV2Form(t *testing.T) {
	v1 := records(t, openOne(t, filepath.Join(fixtures, "spec", "ex1_simple_v1.jsonl")))[0]
	v2 := records(t, openOne(t, filepath.Join(fixtures, "spec", "ex1_simple_v2.jsonl")))[0]
	if v1.Labels.Get("version") != VersionV1 || v2.Labels.Get("version") != VersionV2 {
		t.Fatalf("versions %s %s", v1.Labels.Get("version"), v2.Labels.Get("version"))
	}
	if !reflect.DeepEqual(v1.Fields, v2.Fields) || v1.Title != v2.Title || v1.Target != v2.Target {
		t.Errorf("v1 %+v %q %q\nv2 %+v %q %q", v1.Fields, v1.Title, v1.Target, v2.Fields, v2.Title, v2.Target)
	}
	if !reflect.DeepEqual(v1.Sections, v2.Sections) {
		t.Errorf("sections differ:\nv1 %+v\nv2 %+v", v1.Sections, v2.Sections)
	}
	if got := section(v1, SectionOutputs).Facts; !reflect.DeepEqual(got, []model.Fact{{Key: "output", Value: "processed"}}) {
		t.Errorf("v1 expected outputs = %q", got)
	}
}

func TestDatasetFacts(t *testing.T) {
	cases := []struct {
		path  string
		facts []model.Fact
	}{
		{filepath.Join(fixtures, "spec", "guide_examples.jsonl"), []model.Fact{
			{Key: "records", Value: "5"}, {Key: "v1 records", Value: "2"}, {Key: "v2 records", Value: "3"},
			{Key: "kinds", Value: "simple 3, multi-step 1, aggregation 1"}, {Key: "comment lines", Value: "1"},
			{Key: "step ids", Value: "2"}, {Key: "batch items", Value: "2"},
		}},
		{filepath.Join(fixtures, "spec", "ex2_multi_step.jsonl"), []model.Fact{
			{Key: "records", Value: "1"}, {Key: "v2 records", Value: "1"}, {Key: "kinds", Value: "multi-step 1"},
			{Key: "comment lines", Value: "0"}, {Key: "step ids", Value: "3"},
		}},
	}
	for _, c := range cases {
		d := openOne(t, c.path)
		if !reflect.DeepEqual(d.Facts, c.facts) {
			t.Errorf("%s facts =\n%v\nwant\n%v", c.path, d.Facts, c.facts)
		}
	}
}

// The kind rule, including the combinations the spec's examples miss.
func TestKindRule(t *testing.T) {
	cases := []struct{ line, kind string }{
		{`{"id": "a", "inputs": {"t": "x"}}`, KindSimple},
		{`{"id": "a", "step_inputs": {"s": {}}}`, KindMultiStep},
		{`{"id": "a", "intermediate_expectations": {"s": {}}}`, KindMultiStep},
		{`{"id": "a", "batch_items": [{"x": 1}]}`, KindBatch},
		{`{"id": "a", "batch_items": [{"x": 1}], "step_inputs": {"s": {}}}`, KindBatch},
		{`{"id": "a", "batch_items": [{"x": 1}], "expected_aggregation": 1}`, KindAggregation},
		{`{"id": "a", "expected_aggregation": {"n": 1}}`, KindAggregation},
		{`{"id": "a", "step_inputs": {"s": {}}, "expected_aggregation": {"n": 1}}`, KindMultiStep},
		{`{"id": "a", "step_inputs": {"s": {}}, "batch_items": [{"x": 1}], "expected_aggregation": []}`, KindFull},
		{`{"id": "a", "batch_items": [], "expected_aggregation": {"n": 0}}`, KindAggregation},
		{`{"id": "a", "batch_items": null, "expected_aggregation": null}`, KindSimple},
	}
	for _, c := range cases {
		r := records(t, loadText(t, "k.jsonl", c.line+"\n"))[0]
		if r.Labels.Get("kind") != c.kind {
			t.Errorf("%s: kind %s, want %s", c.line, r.Labels.Get("kind"), c.kind)
		}
	}
}

func TestOneLine(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		want string
	}{
		{"  a\n b\t\tc  ", 0, "a b c"},
		{"abcdef", 4, "abc…"},
		{"abcd", 4, "abcd"},
		{"ab  cd", 4, "ab …"},
		{"长文本长文本", 3, "长文…"},
		{"", 5, ""},
	}
	for _, c := range cases {
		if got := oneLine(c.in, c.max); got != c.want {
			t.Errorf("oneLine(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}
