package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

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
	if m.list.FilterIndex() != 0 {
		t.Fatalf("filter %d after the index found %v, want 0", m.list.FilterIndex(), late.Filters)
	}
	s := screen(m)
	for _, want := range []string{"▸" + late.Filters[0], "filter " + late.Filters[0]} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}

// stagedFilters is an index still scanning, whose dataset learns one
// more filter at each sync (a doc's rows come one filter at a time), and
// whose scan ends with the last one.
type stagedFilters struct {
	model.Index
	filters []string
	seen    int
}

func (s *stagedFilters) SyncDataset(ds *model.Dataset) bool {
	if s.seen == len(s.filters) {
		return false
	}
	s.seen++
	ds.Filters = s.filters[:s.seen]
	return true
}

func (s *stagedFilters) Done() bool { return s.seen == len(s.filters) }

// TestFilterFlagOnAGrowingIndex: --filter names a filter the index has
// not seen yet when the list is built (issue 15.8); the list selects it
// once it is known, and picks its rows again under it.
func TestFilterFlagOnAGrowingIndex(t *testing.T) {
	ds := compareFixtures()[0]
	ds.Records = &stagedFilters{Index: ds.Records, filters: ds.Filters}
	want := ds.Filters[1]
	ds.Filters = nil
	t.Setenv("NO_COLOR", "1")
	m := New([]*model.Dataset{ds}, Options{Theme: "dark", Filter: want})
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	press(m, "x") // wrong only: the rows depend on the filter
	for i := 0; i < 3; i++ {
		send(m, indexTickMsg{})
	}
	if got := ds.Filters[m.list.FilterIndex()]; got != want {
		t.Fatalf("filter %q, want %q", got, want)
	}
	for _, i := range m.list.Visible() {
		if o := ds.Records.Summary(i).Outcome(1); o.Status != model.StatusFail {
			t.Errorf("record %d is not wrong under %s: the rows were not picked again", i, want)
		}
	}
	if s := screen(m); !strings.Contains(s, "filter "+want) || !strings.Contains(s, "▸"+want) {
		t.Errorf("the status bar and the header do not show %s:\n%s", want, s)
	}
}

// TestFilterFlagUnknown: once every index is complete, a --filter name
// no dataset has is reported with the filters there are.
func TestFilterFlagUnknown(t *testing.T) {
	ds := compareFixtures()[0]
	ds.Records = &stagedFilters{Index: ds.Records, filters: ds.Filters}
	ds.Filters = nil
	t.Setenv("NO_COLOR", "1")
	m := New([]*model.Dataset{ds}, Options{Theme: "dark", Filter: "flexible"})
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: 120, Height: 30})
	for i := 0; i < 3; i++ {
		send(m, indexTickMsg{})
	}
	want := `--filter "flexible": no such filter; the filters are strict-match, flexible-extract`
	if s := screen(m); !strings.Contains(s, want) {
		t.Errorf("screen lacks %q:\n%s", want, s)
	}
}
