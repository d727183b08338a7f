package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/list"
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
	m.sheets.closeAll() // they show the dataset being left
	list.CancelSearch(m.datasets[m.cur])
	m.cur = i
	m.list.SetDataset(m.datasets[i], m.states[i])
	m.note, m.found = "", ""
	m.opening.foundGone = true
	m.detail.ClearSearch()
	m.syncListHits()
	return tea.Batch(m.selectionChanged(), m.pollCmd())
}

// pollCmd takes in what the indexes learnt, and ticks while one is still
// growing. It loads the record under the cursor when the sync brought
// the list its first rows (an index's first rows may come in with its
// dataset's update, before a tick looks).
func (m *Model) pollCmd() tea.Cmd {
	had := m.list.Len() > 0
	m.syncIndexes()
	var cmd tea.Cmd
	if !had && m.list.Len() > 0 {
		cmd = m.selectionChanged()
	}
	return tea.Batch(cmd, m.tickCmd())
}

// tickCmd is the next poll's tick while an index grows and none is due.
func (m *Model) tickCmd() tea.Cmd {
	if m.polling || len(m.datasets) == 0 || !anyGrowing(m.datasets) {
		return nil
	}
	m.polling = true
	return tea.Batch(tea.Tick(indexPoll, func(time.Time) tea.Msg { return indexTickMsg{} }), m.spinner.start())
}

// indexesDoneMsg says that the indexes waitIndexes waited for are
// complete.
type indexesDoneMsg struct{}

// waitIndexes waits, in the background, for the growing indexes that
// can be waited for, so that what they learnt last (the overview's final
// figures, the list's last rows) is taken in when they complete, not at
// the next poll, up to indexPoll later.
func waitIndexes(datasets []*model.Dataset) tea.Cmd {
	var ws []interface{ Wait() error }
	for _, ds := range datasets {
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
	had, from := m.list.Len() > 0, m.list.Known()
	m.syncIndexes()
	if m.opening.ended != nil {
		return tea.Quit // --filter names no filter of these datasets
	}
	cmd := m.list.TakeIn(had)
	m.header.Refresh()
	if m.restoreCursor(from) {
		cmd = tea.Batch(cmd, m.selectionChanged())
	}
	// tickCmd, not pollCmd: the indexes were synced just now.
	return tea.Batch(cmd, m.tickCmd(), m.deep.start(m.datasets, m.cur, anyGrowing(m.datasets)), m.sheets.tell(ui.IndexMsg{}))
}

// indexTickMsg polls indexes that are still growing.
type indexTickMsg struct{}

// anyGrowing reports whether some dataset's index is still being built.
func anyGrowing(datasets []*model.Dataset) bool {
	for _, ds := range datasets {
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
	before := m.list.FilterIndex()
	changed := false
	for i, ds := range m.datasets {
		if s, ok := ds.Records.(datasetSyncer); ok && s.SyncDataset(ds) && i == m.cur {
			changed = true
		}
	}
	if changed {
		m.list.Resync(before)
	}
	// Once every index is complete, say that no dataset has the filter
	// --filter asked for, and which filters there are (the command says
	// it at start when the indexes are complete by then).
	name := m.opts.Filter
	if name == "" || m.filterChecked {
		return
	}
	found, final, names := model.LookupFilter(m.datasets, name)
	if !final || m.opening.on {
		return // a dataset to come may have it
	}
	m.filterChecked = true
	switch {
	case found:
	case m.opts.FilterRequired:
		m.opening.ended = UnknownFilter(name, names)
	default:
		m.note = UnknownFilter(name, names).Error()
	}
}
