package tui

import (
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/ui"
)

// reloadedMsg carries a dataset loaded again from its files (`r`).
type reloadedMsg struct {
	old, ds *model.Dataset
	err     error
}

func (msg reloadedMsg) applyTo(m *Model) tea.Cmd {
	m.follow.reloading = false
	if msg.err != nil {
		m.note = "reload failed: " + msg.err.Error()
		return nil
	}
	i := -1
	for k, ds := range m.datasets {
		if ds == msg.old {
			i = k
		}
	}
	if msg.ds == nil {
		return nil
	}
	if i < 0 {
		// Another reload replaced msg.old first: this one is not shown,
		// and its scan must not read the file for nobody.
		if s, ok := msg.ds.Records.(model.Stopper); ok {
			s.Stop()
		}
		return nil
	}
	m.follow.reloaded(msg.ds)
	return m.replaceDataset(i, msg.ds)
}

// reload reads the current dataset again (`r`), off the event loop.
func (m *Model) reload() tea.Cmd {
	if m.opts.Reopen == nil {
		m.note = "reload is not available here"
		return nil
	}
	old, reopen := m.datasets[m.cur], m.opts.Reopen
	m.flash = "reloading…"
	return ui.SafeCmd(func() tea.Msg {
		ds, err := reopen(old)
		return reloadedMsg{old: old, ds: ds, err: err}
	})
}

// replaceDataset puts ds in place of dataset i, keeping the list's query,
// sort, columns, filter and switches, with the cursor on the record with
// the same id.
func (m *Model) replaceDataset(i int, ds *model.Dataset) tea.Cmd {
	ds = usable([]*model.Dataset{ds})[0]
	old := m.datasets[i]
	m.datasets[i] = ds
	m.trail.Forget(i, m.overview) // sheets over the old dataset
	m.notes.move(old, ds)
	m.scoring.move(old, ds)
	// The old index's scan and deep pass would compete with the new
	// one's for the cores, for results nobody reads.
	m.deep.drop(old)
	if s, ok := old.Records.(model.Stopper); ok {
		s.Stop()
	}
	m.records = newRecordCache(256)
	if i == m.cur {
		m.sheets.closeAll()
	}
	id := m.list.Reloaded(m.states.At(i), old, ds)
	m.detail.Carry(old, ds)
	// The count is read when the status bar is drawn (flashText): the
	// new index may still grow, and a count taken now is not the last.
	m.flash, m.reloaded = "", ds
	if i != m.cur {
		return nil
	}
	// The cursor goes to the record with the same id; when the new index
	// has not read that far yet (follow mode reloads a file as it grows),
	// it goes there when the list takes it in, unless a key comes first.
	m.restore = cursorRestore{ds: ds, id: id}
	m.restoreCursor(0)
	// No m.polling reset: while it is set a tick is in flight and its
	// handler polls the new index too; resetting it started a second loop.
	return tea.Batch(m.selectionChanged(), m.pollCmd(), waitIndexes(m.datasets), m.list.Research())
}

// cursorRestore is a record a reload's cursor waits for: its id, in the
// reloaded dataset ds, whose index had not reached it yet.
type cursorRestore struct {
	ds *model.Dataset
	id string
}

// restoreCursor puts the cursor on the record a reload kept it for, when
// that record is among those the list took in from record from on, and
// reports whether it moved it; it gives up once the index is complete
// without the record or the record is not shown (a query, wrong answers
// only).
func (m *Model) restoreCursor(from int) bool {
	want := m.restore
	if want.id == "" || want.ds != m.datasets[m.cur] {
		return false
	}
	if found, shown := m.list.Find(want.id, from); found {
		m.restore = cursorRestore{}
		return shown
	}
	if want.ds.Records.Done() {
		m.restore = cursorRestore{}
	}
	return false
}
