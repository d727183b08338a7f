package detail

import (
	"testing"

	"evalview/model"
	"evalview/tui/styles"
	"evalview/tui/ui"
)

// TestIssuesTabArrivesWithScan: a dataset issue found after the record
// is shown (a count mismatch known only when the scan ends, as after `r`)
// brings the Issues tab to the record shown, on the tab the user was on.
func TestIssuesTabArrivesWithScan(t *testing.T) {
	rec := &model.Record{Messages: []model.Message{{Role: model.RoleUser, Segments: []model.Segment{{Text: "2+2?"}}}}}
	rec.ID = "0"
	rec.Raw = []model.RawPart{{Label: "s.jsonl", JSON: []byte(`{"doc_id":0}`)}}
	ds := &model.Dataset{Records: model.NewMemIndex([]*model.Record{rec})}
	d := New(ui.NewCommon(styles.New(true)), Sources{})
	d.SetSize(60, 20)
	d.SetRecord(ds, 0, rec)
	d.ChooseTab(len(d.tabs) - 1) // Raw
	for _, tb := range d.tabs {
		if tb.Content == model.TabIssues {
			t.Fatal("an Issues tab before the dataset has issues")
		}
	}
	ds.Issues = append(ds.Issues, model.Warnf("count-mismatch", "s.jsonl", 0, "", "3 docs, 100 reported"))
	d.Refresh()
	last := d.tabs[len(d.tabs)-1]
	if last.Content != model.TabIssues {
		t.Fatalf("tabs after the scan found an issue: %+v, want Issues last", d.tabs)
	}
	if got := d.TabName(); got != "Raw" {
		t.Errorf("the tab shown moved to %q, want Raw", got)
	}
}
