package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/ui"
)

// switchDataset shows dataset i (wrapping), saving the current one's state.
func (m *Model) switchDataset(i int) tea.Cmd {
	n := len(m.datasets)
	if n < 2 {
		return nil
	}
	i = (i%n + n) % n
	if i == m.cur {
		return nil
	}
	m.closeSheets() // they show the dataset being left
	cancelListSearch(m.datasets[m.cur])
	m.cur = i
	m.list.SetDataset(m.datasets[i], m.states[i])
	m.note, m.found = "", ""
	m.detail.clearSearch()
	m.syncListHits()
	return tea.Batch(m.selectionChanged(), m.pollCmd())
}

// cycleFilter selects the next lm-eval filter.
func (m *Model) cycleFilter() tea.Cmd {
	ds := m.datasets[m.cur]
	if len(ds.Filters) < 2 {
		return nil
	}
	m.list.st.filter = ds.Filters[(m.list.filterIndex()+1)%len(ds.Filters)]
	if m.list.filtered() {
		m.list.rebuild()
	}
	return tea.Batch(m.selectionChanged(), m.researchList())
}

// toggleWrongOnly shows only the records that failed, or all again.
func (m *Model) toggleWrongOnly() tea.Cmd {
	if len(m.datasets) == 0 {
		return nil
	}
	m.list.st.wrongOnly = !m.list.st.wrongOnly
	m.list.rebuild()
	return tea.Batch(m.selectionChanged(), m.researchList())
}

// pollCmd takes in what the indexes learnt, and ticks while one is still
// growing.
func (m *Model) pollCmd() tea.Cmd {
	return tea.Batch(m.syncFirstRows(), m.tickCmd())
}

// tickCmd is the next poll's tick while an index grows and none is due.
func (m *Model) tickCmd() tea.Cmd {
	if m.polling || len(m.datasets) == 0 || !m.anyGrowing() {
		return nil
	}
	m.polling = true
	return tea.Batch(tea.Tick(indexPoll, func(time.Time) tea.Msg { return indexTickMsg{} }), m.spin())
}

// syncFirstRows is syncIndexes, and loads the record under the cursor
// when the sync brought the list its first rows (an index's first rows
// may come in with its dataset's update, before a tick looks).
func (m *Model) syncFirstRows() tea.Cmd {
	before := len(m.list.st.visible)
	m.syncIndexes()
	if before == 0 && len(m.list.st.visible) > 0 {
		return m.selectionChanged()
	}
	return nil
}

// handleIndexTick takes in the records a background index found.
func (m *Model) handleIndexTick() tea.Cmd {
	m.polling = false
	return m.takeInIndexes()
}

// indexesDoneMsg says that the indexes waitIndexes waited for are
// complete.
type indexesDoneMsg struct{}

// waitIndexes waits, in the background, for the growing indexes that
// can be waited for, so that what they learnt last (the overview's final
// figures, the list's last rows) is taken in when they complete, not at
// the next poll, up to indexPoll later.
func (m *Model) waitIndexes() tea.Cmd {
	var ws []interface{ Wait() error }
	for _, ds := range m.datasets {
		if w, ok := ds.Records.(interface{ Wait() error }); ok && !ds.Records.Done() {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 {
		return nil
	}
	return func() tea.Msg {
		for _, w := range ws {
			_ = w.Wait() // a read error is the dataset's issue
		}
		return indexesDoneMsg{}
	}
}

// takeInIndexes takes in what the indexes learnt (a poll's tick, or
// their completion), and polls on while one grows.
func (m *Model) takeInIndexes() tea.Cmd {
	before, from := len(m.list.st.visible), m.list.st.known
	m.syncIndexes()
	m.list.refresh()
	m.remapHits() // the raw search's hits among the rows that came in
	m.header.refresh()
	var cmd tea.Cmd
	if before == 0 && len(m.list.st.visible) > 0 {
		cmd = m.selectionChanged()
	}
	if m.restoreCursor(from) {
		cmd = tea.Batch(cmd, m.selectionChanged())
	}
	// tickCmd, not pollCmd: the indexes were synced just now.
	return tea.Batch(cmd, m.tickCmd(), m.startDeep(), m.tellSheets(ui.IndexMsg{}))
}

// indexTickMsg polls indexes that are still growing.
type indexTickMsg struct{}

// anyGrowing reports whether some dataset's index is still being built.
func (m *Model) anyGrowing() bool {
	for _, ds := range m.datasets {
		if !ds.Records.Done() {
			return true
		}
	}
	return false
}

// datasetSyncer is implemented by indexes that fill in their dataset
// (filters, main metric, final issues) as a background scan goes on
// (lm-eval). SyncDataset must run on the browser's goroutine, which owns
// the datasets; it reports whether ds changed.
type datasetSyncer interface {
	SyncDataset(ds *model.Dataset) bool
}

// syncIndexes lets every growing index update its dataset, and takes in
// what the current one's gained. A filter the list selects by name
// (--filter) may be learnt only now: the rows picked under another filter
// are picked again.
func (m *Model) syncIndexes() {
	before := m.list.filterIndex()
	changed := false
	for i, ds := range m.datasets {
		if s, ok := ds.Records.(datasetSyncer); ok && s.SyncDataset(ds) && i == m.cur {
			changed = true
		}
	}
	if changed {
		if m.list.filterIndex() != before && m.list.filtered() {
			m.list.rebuild()
		}
		m.list.refresh()
	}
	m.checkFilterName()
}

// checkFilterName says, once every index is complete, that no dataset has
// the filter --filter asked for, and which filters there are (the command
// says it at start when the indexes are complete by then).
func (m *Model) checkFilterName() {
	name := m.opts.Filter
	if name == "" || m.filterChecked {
		return
	}
	found, final, names := model.LookupFilter(m.datasets, name)
	if !final {
		return
	}
	m.filterChecked = true
	if !found {
		m.note = UnknownFilter(name, names).Error()
	}
}
