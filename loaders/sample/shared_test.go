package sample

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"evalview/loaders/internal/folder"
	"evalview/model"
)

// sharedData returns ../shared/data/sample, skipping when it is absent
// (it is reference material beside the project, not part of it).
func sharedData(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../../shared/data/sample")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/data/sample is absent")
	}
	return dir
}

func TestSharedSampleFiles(t *testing.T) {
	dir := sharedData(t)
	ds, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		title    string
		records  int
		warnings []string // issue codes, over all records
	}{
		{"Test_Gomoku", 2, []string{}},
		{"agent_noop", 1, []string{"missing-field"}}, // no references
		{"dummy_samples", 2, []string{"missing-field", "missing-field", "missing-field", "missing-field"}}, // no schema_version, no references
		{"piqa_10_vllm_messages", 10, []string{}},
	}
	if len(ds) != len(cases) {
		t.Fatalf("%d datasets, want %d", len(ds), len(cases))
	}
	byTitle := map[string]map[string]*model.Record{}
	for i, c := range cases {
		d := ds[i]
		if d.Title != c.title || d.Records.Len() != c.records {
			t.Errorf("dataset %d: %s with %d records, want %s with %d", i, d.Title, d.Records.Len(), c.title, c.records)
			continue
		}
		issues, err := d.AllIssues()
		if err != nil {
			t.Fatal(err)
		}
		for _, is := range issues {
			if is.Severity == model.SeverityError {
				t.Errorf("false alarm: %s", is)
			}
		}
		same(t, c.title+" issue codes", codes(issues), c.warnings)
		byTitle[c.title] = byID(records(t, d))
	}

	// piqa: an int label indexes metadata.option_map, which gives the options.
	piqa := byTitle["piqa_10_vllm_messages"]
	for _, c := range []struct{ id, target, correct string }{
		{"piqa_001", "0", "A"}, {"piqa_002", "1", "B"}, {"piqa_010", "0", "A"},
	} {
		r := piqa[c.id]
		if r == nil {
			t.Errorf("no record %s", c.id)
			continue
		}
		if r.Target != c.target || len(r.Options) != 2 || !r.Options[c.correct[0]-'A'].Correct || len(r.References) != 1 || r.References[0] != c.correct {
			t.Errorf("%s: target %q, options %+v, references %v", c.id, r.Target, r.Options, r.References)
		}
	}
	if r := piqa["piqa_002"]; r != nil && (r.Title != "dresser" || len(r.Messages) != 2 || r.Messages[0].Role != model.RoleSystem) {
		t.Errorf("piqa_002: title %q, %d messages", r.Title, len(r.Messages))
	}

	g := byTitle["Test_Gomoku"]["gomoku_match_0001"]
	if g == nil || g.Labels.Get("task_type") != "agent" || g.Labels.Get("data_tag.opening") != "empty" ||
		g.Title != "GameArena scripted match sample." || len(g.References) != 0 {
		t.Fatalf("gomoku_match_0001: %+v", g)
	}
	same(t, "gomoku tabs", tabs(g), []string{TabEvalConfig, TabMetadata})
	same(t, "gomoku eval_config", section(t, g, "eval_config").Facts, []model.Fact{{Key: "max_turns", Value: "81"}, {Key: "retry_illegal", Value: "1"}})

	dm := byTitle["dummy_samples"]["log-0002"]
	if dm == nil || dm.Title != "回答 B" || dm.Target != "B" || len(dm.References) != 1 || dm.References[0] != "B" {
		t.Errorf("log-0002: %+v", dm)
	}
	if ds[3].Fact("schema version") != "0.0.1" || ds[2].Fact("schema version") != "(missing)" {
		t.Errorf("schema version facts: %v / %v", ds[3].Facts, ds[2].Facts)
	}
}

func TestSharedSniff(t *testing.T) {
	dir := sharedData(t)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		head, err := folder.ReadHead(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if got := SniffFile(e.Name(), head); got != 2 {
			t.Errorf("SniffFile(%s) = %d, want 2", e.Name(), got)
		}
	}
	// Other formats' real files must not look like Samples.
	n := 0
	for _, other := range []string{"../testset", "../lm_eval"} {
		err := filepath.WalkDir(filepath.Join(dir, other), func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || filepath.Ext(p) != ".jsonl" {
				return err
			}
			head, err := folder.ReadHead(p)
			if err != nil {
				return err
			}
			n++
			if got := SniffFile(e.Name(), head); got != 0 {
				t.Errorf("SniffFile(%s) = %d, want 0", p, got)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 10 {
		t.Errorf("only %d files of other formats sniffed", n)
	}
}
