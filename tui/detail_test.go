package tui

import (
	"strings"
	"testing"

	"evalview/model"
)

// TestMarkdownToggleSaysSo: m names the mode it switched to, from the
// list and from the detail.
func TestMarkdownToggleSaysSo(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 30)
	for _, step := range []struct{ keys, want string }{
		{"m", "markdown (m: raw)"},
		{"tab", ""},
		{"m", "raw text (m: markdown)"},
	} {
		press(m, step.keys)
		if s := screen(m); step.want != "" && !strings.Contains(s, step.want) {
			t.Errorf("after %s the status bar lacks %q:\n%s", step.keys, step.want, s)
		}
	}
}

// TestSwitchToEmptyDatasetClearsDetail: a record of the previous dataset
// still being read when the user switches to a dataset without records
// is not shown beside the new dataset's empty list.
func TestSwitchToEmptyDatasetClearsDetail(t *testing.T) {
	empty := scoredRunFixture("run-empty", nil)
	empty.Records = model.NewMemIndex(nil)
	m := newTestModel(t, []*model.Dataset{runValidFixture(), empty}, 100, 30)
	_, load := m.Update(keyMsg("j")) // record 2 is read by a command...
	press(m, ">")                    // ...that ends after the switch
	drive(m, load)
	if m.detail.Record() != nil || m.detail.Dataset() != empty {
		t.Errorf("detail shows record %v of %v after switching to the empty dataset", m.detail.Record() != nil, m.detail.Dataset().Title)
	}
	if s := screen(m); strings.Contains(s, "Plan a weekly grocery budget") {
		t.Errorf("the previous dataset's record is on screen:\n%s", s)
	}
}
