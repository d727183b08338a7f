package tui

import (
	"strings"
	"testing"

	"evalview/model"
)

// lateFilters is an index whose dataset learns its filters at the first
// sync, as an lm-eval index still scanning in the background does.
type lateFilters struct {
	model.Index
	filters []string
}

func (l *lateFilters) SyncDataset(ds *model.Dataset) bool {
	if len(ds.Filters) == len(l.filters) {
		return false
	}
	ds.Filters = l.filters
	return true
}

// TestFiltersFoundLateAreSelected: a dataset that had no filters when the
// browser started gets its first filter selected once they are known, so
// the header marks it and the status bar names it without pressing f.
func TestFiltersFoundLateAreSelected(t *testing.T) {
	dss := compareFixtures()
	late := dss[1]
	late.Records = &lateFilters{Index: late.Records, filters: late.Filters}
	late.Filters = nil
	m := newTestModel(t, dss, 100, 30)
	press(m, ">")
	if m.list.st.filter != 0 {
		t.Fatalf("filter %d after the index found %v, want 0", m.list.st.filter, late.Filters)
	}
	s := screen(m)
	for _, want := range []string{"▸" + late.Filters[0], "filter " + late.Filters[0]} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}
