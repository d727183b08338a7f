package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/list"
	"evalview/tui/sheets/datasets"
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
	m.list.SetDataset(m.datasets[i], m.states.At(i))
	m.note, m.found = "", ""
	m.opening.Shown()
	m.detail.ClearSearch()
	m.search.syncListHits()
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
	if m.opening.Ended() != nil {
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
	if !final || m.opening.On() {
		return // a dataset to come may have it
	}
	m.filterChecked = true
	switch {
	case found:
	case m.opts.FilterRequired:
		m.opening.EndWith(UnknownFilter(name, names))
	default:
		m.note = UnknownFilter(name, names).Error()
	}
}

// takeOpened takes in what Open told since the last time (tui/opening),
// and waits for more while it runs.
func (m *Model) takeOpened() tea.Cmd {
	b, ok := m.opening.Take()
	if !ok {
		return nil
	}
	if b.Crash != nil {
		m.crash = b.Crash
		return tea.Quit
	}
	if b.FoundNew {
		m.found = b.Found
	}
	cmd := m.addDatasets(b.Datasets)
	if b.Done {
		quit := m.opening.Close(b.Err, len(m.datasets))
		m.growSheets(true)
		if quit {
			return tea.Quit
		}
		// --filter is looked for once nothing more comes.
		m.syncIndexes()
		if m.opening.Ended() != nil {
			return tea.Quit
		}
		return cmd
	}
	return tea.Batch(cmd, m.opening.Wait(len(m.datasets)))
}

// addDatasets puts datasets that came in after the others: the first one
// shows in the list, the overview and the picker grow, and the overview
// opens when a second one comes before the user did anything.
func (m *Model) addDatasets(dss []*model.Dataset) tea.Cmd {
	dss = usable(dss)
	if len(dss) == 0 {
		return nil
	}
	first := len(m.datasets) == 0
	m.datasets = append(m.datasets, dss...)
	m.states.Grow(len(dss))
	var cmds []tea.Cmd
	if first {
		m.cur = 0
		m.list.SetDataset(m.datasets[0], m.states.At(0))
		cmds = append(cmds, m.selectionChanged())
		if m.opts.Follow {
			cmds = append(cmds, m.setFollow(true))
		}
	}
	m.growSheets(false)
	if m.opts.Overview && len(m.datasets) > 1 && !m.opening.Touched() && m.sheets.top() == nil && m.input == nil {
		cmds = append(cmds, m.openOverview())
	}
	cmds = append(cmds, m.takeInIndexes(), waitIndexes(dss))
	return tea.Batch(cmds...)
}

// growSheets makes the overview and the picker take in the datasets
// opened since they last did, unless they did a moment ago and the
// opening goes on (now: whatever the time).
func (m *Model) growSheets(now bool) {
	if !m.opening.Grow(now) {
		return
	}
	if m.overview != nil {
		m.overview.Grow(m.datasets)
	}
	for _, s := range m.sheets.list {
		if p, ok := s.(*datasets.Sheet); ok {
			p.Grow(m.datasets)
		}
	}
}
