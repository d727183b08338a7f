package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
)

// compareApplies reports whether a comparison key has a sheet to open on
// the current dataset; when not, the key stays free for other views of
// that dataset (v is a run's score histogram).
func (m *Model) compareApplies(k tea.KeyPressMsg) bool {
	if len(m.datasets) == 0 {
		return false
	}
	ds := m.datasets[m.cur]
	km := m.c.Keys
	switch {
	case key.Matches(k, km.Compare.Filters):
		return canCompareFilters(ds)
	case key.Matches(k, km.Compare.Slices):
		return ds.Records.Len() > 0
	case key.Matches(k, km.Compare.Runs):
		return m.runPartner(m.cur, -1) >= 0
	}
	return false
}

// compareSheetFor returns the sheet a comparison key asks for: filters
// (v), slices (V) or two runs (C); nil when it does not apply.
func (m *Model) compareSheetFor(k tea.KeyPressMsg) sheet {
	if !m.compareApplies(k) {
		return nil
	}
	ds := m.datasets[m.cur]
	km := m.c.Keys
	switch {
	case key.Matches(k, km.Compare.Filters):
		return newCompareSheet(m, ds, m.list.st.filter)
	case key.Matches(k, km.Compare.Slices):
		return newSlicesSheet(m, ds, m.list.st.filter)
	}
	return newRunsSheet(m, m.cur)
}

// openCompareSheet opens the sheet a comparison key asks for.
func (m *Model) openCompareSheet(k tea.KeyPressMsg) tea.Cmd {
	s := m.compareSheetFor(k)
	if s == nil {
		return nil
	}
	m.pushSheet(s)
	m.enableKeys()
	return nil
}

// enableCompareKeys offers the comparison keys only where they work.
func (m *Model) enableCompareKeys() {
	km := m.c.Keys
	var ds *model.Dataset
	if len(m.datasets) > 0 {
		ds = m.datasets[m.cur]
	}
	km.Compare.Filters.SetEnabled(canCompareFilters(ds))
	km.Compare.Slices.SetEnabled(ds != nil && ds.Records.Len() > 0)
	km.Compare.Runs.SetEnabled(ds != nil && m.runPartner(m.cur, -1) >= 0)
}

// runPartner returns the dataset to compare dataset i with: the first
// comparable dataset (comparableRuns) after after (wrapping), -1 when
// there is none.
// Pass after=-1 for the default: the next dataset of the same task (two
// runs opened together, each a folder of several tasks), else the next
// of the same kind.
func (m *Model) runPartner(i, after int) int {
	n := len(m.datasets)
	if i < 0 || i >= n {
		return -1
	}
	if after < 0 {
		for d := 1; d < n; d++ {
			j := (i + d) % n
			if o := m.datasets[j]; o.Kind == m.datasets[i].Kind && o.Task == m.datasets[i].Task && o.Task != "" {
				return j
			}
		}
		after = i
	}
	for d := 1; d < n; d++ {
		j := (after + d) % n
		if j != i && comparableRuns(m.datasets[i], m.datasets[j]) {
			return j
		}
	}
	return -1
}

// comparableRuns reports whether two datasets can be paired record by
// record: the same kind, and for lm-eval the same task, since doc ids of
// two tasks (gsm8k's doc 1, arc_easy's doc 1) name unrelated questions.
func comparableRuns(a, b *model.Dataset) bool {
	if a.Kind != b.Kind {
		return false
	}
	return a.Kind != model.KindLMEval || a.Task == b.Task
}
