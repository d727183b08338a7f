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

// TestPickerLongTaskKeepsColumns: at 200 columns a task title of 180
// characters is cut in its middle to leave the kind, model and run their
// columns, where it took the row and left them out; at 80 columns the
// columns still go before the task is cut to nothing.
func TestPickerLongTaskKeepsColumns(t *testing.T) {
	long := &model.Dataset{Kind: model.KindRun, Title: strings.Repeat("rwkv7-2-9b-g1e-ctx8192-", 8) + "end",
		Facts: []model.Fact{{Key: "model", Value: "rwkv7-2.9B"}}, Origin: model.Origin{Run: "2026-03-24T12:18:09"}, Records: model.NewMemIndex(nil)}
	short := &model.Dataset{Kind: model.KindSample, Title: "dummy_samples", Records: model.NewMemIndex(nil)}
	s := New(ui.NewCommon(styles.Plain()), []*model.Dataset{long, short}, 0, final{})
	s.SetSize(200, 10)
	lines := strings.Split(s.View(), "\n")
	for _, want := range []string{"kind", "model", "run"} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("200 columns: heading lacks %q: %q", want, lines[1])
		}
	}
	if row := lines[2]; !strings.Contains(row, "run") || !strings.Contains(row, "rwkv7-2.9B") || !strings.Contains(row, "…") || !strings.Contains(row, "end") {
		t.Errorf("200 columns: row %q", row)
	}
	s.SetSize(80, 10)
	lines = strings.Split(s.View(), "\n")
	if !strings.Contains(lines[2], "rwkv7-2-9b") {
		t.Errorf("80 columns: the task is cut away: %q", lines[2])
	}
}
