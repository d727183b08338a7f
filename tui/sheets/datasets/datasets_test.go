package datasets

import (
	"strings"
	"testing"

	"evalview/model"
	"evalview/tui/styles"
	"evalview/tui/ui"
)

// final is a metrics source whose datasets are read to the end and have
// no reported metric.
type final struct{}

func (final) Metrics(*model.Dataset) ([]model.MetricComparison, bool) { return nil, true }

// TestPickerNoBlankCells: a run with no scores (its samples not in the
// zip), a Sample file naming no model or run and a testset show – or
// "N unscored" in the main figure, model and run columns, as the overview
// does, never a blank cell.
func TestPickerNoBlankCells(t *testing.T) {
	run := &model.Dataset{Kind: model.KindRun, Title: "run 2026-03-24", Scoring: &model.Scoring{Max: 10, Threshold: 8.5},
		Facts: []model.Fact{{Key: "model", Value: "rwkv7"}}, Records: model.NewMemIndex(nil)}
	sample := &model.Dataset{Kind: model.KindSample, Title: "dummy_samples",
		Records: model.NewMemIndex([]*model.Record{{Summary: model.Summary{ID: "1"}}, {Summary: model.Summary{ID: "2"}}})}
	s := New(ui.NewCommon(styles.Plain()), []*model.Dataset{run, sample}, 0, final{})
	want := [][]string{
		{"run 2026-03-24", "run", "rwkv7", "–", "–", "0"},
		{"dummy_samples", "sample", "–", "–", "2 unscored", "2"},
	}
	for i, w := range want {
		got := s.row(i).cells
		if strings.Join(got, "|") != strings.Join(w, "|") {
			t.Errorf("row %d cells %q, want %q", i, got, w)
		}
	}
	s.SetSize(120, 10)
	for _, l := range strings.Split(s.View(), "\n")[2:4] {
		if !strings.Contains(l, "–") {
			t.Errorf("picker line without a dash: %q", l)
		}
	}
}

// TestPickerCountsIssuesAsHeader: the records column counts a dataset's
// errors (‼) and warnings (⚠) apart, as the header does; a file no
// format read showed "⚠1" beside the header's "‼1".
func TestPickerCountsIssuesAsHeader(t *testing.T) {
	unread := &model.Dataset{Kind: model.KindJSONL, Title: "garbage.jsonl", Records: model.NewMemIndex(nil),
		Issues: []model.Issue{model.Errorf("unread-file", "garbage.jsonl", 0, "", "not read")}}
	mixed := &model.Dataset{Kind: model.KindJSONL, Title: "odd.jsonl", Records: model.NewMemIndex(nil),
		Issues: []model.Issue{model.Errorf("bad-json", "odd.jsonl", 1, "", "x"), model.Warnf("crlf", "odd.jsonl", 1, "", "y"), model.Warnf("bom", "odd.jsonl", 1, "", "z")}}
	s := New(ui.NewCommon(styles.Plain()), []*model.Dataset{unread, mixed}, 0, final{})
	for i, want := range []string{"0 ‼1", "0 ‼1 ⚠2"} {
		if got := s.row(i).cells[5]; got != want {
			t.Errorf("row %d records %q, want %q", i, got, want)
		}
	}
}
