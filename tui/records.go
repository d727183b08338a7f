package tui

import (
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/ui"
)

// recordKey identifies a record of a dataset in the cache.
type recordKey struct {
	ds  *model.Dataset
	idx int
}

// recordCache keeps recently loaded records, so moving back and forth does
// not read the file again.
type recordCache struct {
	max   int
	m     map[recordKey]*model.Record
	order []recordKey
}

func newRecordCache(n int) *recordCache {
	return &recordCache{max: n, m: map[recordKey]*model.Record{}}
}

func (c *recordCache) get(k recordKey) (*model.Record, bool) {
	r, ok := c.m[k]
	return r, ok
}

func (c *recordCache) put(k recordKey, r *model.Record) {
	if _, ok := c.m[k]; ok {
		return
	}
	if len(c.order) >= c.max {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.m[k] = r
	c.order = append(c.order, k)
}

// selectionChanged shows the record under the list cursor: at once when it
// is cached, else after a load command (the old record stays until then).
func (m *Model) selectionChanged() tea.Cmd {
	if len(m.datasets) == 0 {
		return nil
	}
	ds := m.datasets[m.cur]
	idx, ok := m.list.Selected()
	if !ok {
		m.loading = false
		m.loadID++ // a record of the previous list still being read is stale
		cmd := m.detail.SetRecord(ds, -1, nil)
		return cmd
	}
	if rec, ok := m.records.get(recordKey{ds, idx}); ok {
		m.loading, m.note = false, ""
		m.loadID++ // older requests are stale now
		cmd := m.detail.SetRecord(ds, idx, rec)
		return cmd
	}
	m.loadID++
	m.loading = true
	return tea.Batch(holding(m.deep.foreground(), loadRecordCmd(m.loadID, ds, idx)), m.spinner.start())
}

// handleRecordLoaded shows a loaded record unless a newer request
// superseded it (it is cached either way).
func (m *Model) handleRecordLoaded(msg recordLoadedMsg) tea.Cmd {
	if msg.err == nil && msg.rec != nil {
		m.records.put(recordKey{msg.ds, msg.idx}, msg.rec)
		m.trace.recordOpen(msg.took, rawSize(msg.rec))
	}
	if msg.id != m.loadID || msg.ds != m.curDataset() {
		return nil
	}
	m.loading = false
	if msg.err != nil {
		// The usual cause is a file changed since it was opened: offer
		// the reload.
		m.note = "record " + strconv.Itoa(msg.idx+1) + " could not be read; r reloads"
		return m.detail.SetLoadError(msg.ds, msg.idx, msg.err)
	}
	m.note = ""
	cmd := m.detail.SetRecord(msg.ds, msg.idx, msg.rec)
	return cmd
}

// recordLoadedMsg carries a record read from a dataset's index.
type recordLoadedMsg struct {
	id  int
	ds  *model.Dataset
	idx int
	rec *model.Record
	err error
	// took is how long reading it took (for EVALVIEW_TRACE).
	took time.Duration
}

// loadRecordCmd reads record idx of ds off the event loop; id lets the
// receiver drop answers to requests that were superseded.
func loadRecordCmd(id int, ds *model.Dataset, idx int) tea.Cmd {
	return ui.SafeCmd(func() tea.Msg {
		start := time.Now()
		rec, err := ds.Records.Record(idx)
		return recordLoadedMsg{id: id, ds: ds, idx: idx, rec: rec, err: err, took: time.Since(start)}
	})
}

// rawSize is the size of a record's source JSON.
func rawSize(rec *model.Record) int {
	n := 0
	for _, p := range rec.Raw {
		n += len(p.JSON) + p.Omitted
	}
	return n
}
