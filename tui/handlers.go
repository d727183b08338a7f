package tui

import (
	"strconv"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/text"
)

// handleWindowSize lays the panes out again.
func (m *Model) handleWindowSize(msg tea.WindowSizeMsg) tea.Cmd {
	m.ready = true
	m.layout = ComputeLayout(msg.Width, msg.Height)
	l := m.layout
	if l.TooSmall {
		return nil
	}
	m.header.SetSize(l.Width, l.HeaderLines, l.HeaderRule)
	m.list.SetSize(l.List.W, l.List.H)
	m.status.w = l.Width
	m.helpOv.SetSize(l.Body.W, l.Body.H)
	m.picker.SetSize(l.Body.W, l.Body.H)
	m.resizeSheets()
	cmd := m.detail.SetSize(l.Detail.W, l.Detail.H)
	m.enableKeys()
	return cmd
}

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
		cmd := m.detail.SetRecord(ds, -1, nil, m.list.st.tab)
		m.enableKeys()
		return cmd
	}
	if rec, ok := m.records.get(recordKey{ds, idx}); ok {
		m.loading, m.note = false, ""
		m.loadID++ // older requests are stale now
		cmd := m.detail.SetRecord(ds, idx, rec, m.list.st.tab)
		m.enableKeys()
		return cmd
	}
	m.loadID++
	m.loading = true
	return tea.Batch(loadRecordCmd(m.loadID, ds, idx), m.spin())
}

// handleRecordLoaded shows a loaded record unless a newer request
// superseded it (it is cached either way).
func (m *Model) handleRecordLoaded(msg recordLoadedMsg) tea.Cmd {
	if msg.err == nil && msg.rec != nil {
		m.records.put(recordKey{msg.ds, msg.idx}, msg.rec)
		m.traceRecordOpen(msg.took, rawSize(msg.rec))
	}
	if msg.id != m.loadID {
		return nil
	}
	m.loading = false
	if msg.err != nil {
		// The usual cause is a file changed since it was opened: offer
		// the reload.
		m.note = "record " + strconv.Itoa(msg.idx+1) + " could not be read; r reloads"
		cmd := m.detail.SetRecord(msg.ds, msg.idx, nil, m.list.st.tab)
		m.detail.loadErr = msg.err.Error()
		m.detail.tabs = nil // the dataset's issues stay in reach from other records
		return cmd
	}
	m.note = ""
	cmd := m.detail.SetRecord(msg.ds, msg.idx, msg.rec, m.list.st.tab)
	m.enableKeys()
	return cmd
}

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
	m.states[m.cur] = m.list.st
	m.closeSheets() // they show the dataset being left
	cancelListSearch(m.datasets[m.cur])
	m.cur = i
	m.list.SetDataset(m.datasets[i], m.states[i])
	m.syncFilter()
	m.note = ""
	m.detail.clearSearch()
	m.syncListHits()
	m.enableKeys()
	return tea.Batch(m.selectionChanged(), m.pollCmd())
}

// syncFilter passes the list's filter to the header and the detail.
func (m *Model) syncFilter() {
	fi := m.list.st.filter
	m.header.SetDataset(m.datasets[m.cur], m.cur, len(m.datasets), fi)
	m.header.refresh()
	m.detail.filter = fi
}

// cycleFilter selects the next lm-eval filter.
func (m *Model) cycleFilter() tea.Cmd {
	ds := m.datasets[m.cur]
	if len(ds.Filters) < 2 {
		return nil
	}
	m.list.st.filter = (m.list.st.filter + 1) % len(ds.Filters)
	if m.list.filtered() {
		m.list.rebuild()
	}
	m.syncFilter()
	return tea.Batch(m.detail.SetFilter(m.list.st.filter), m.selectionChanged(), m.researchList())
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

// pollCmd ticks while the current dataset's index is still growing.
func (m *Model) pollCmd() tea.Cmd {
	m.syncIndexes()
	if m.polling || len(m.datasets) == 0 || !m.anyGrowing() {
		return nil
	}
	m.polling = true
	return tea.Batch(tea.Tick(indexPoll, func(time.Time) tea.Msg { return indexTickMsg{} }), m.spin())
}

// handleIndexTick takes in the records a background index found.
func (m *Model) handleIndexTick() tea.Cmd {
	m.polling = false
	m.syncIndexes()
	before := len(m.list.st.visible)
	m.list.refresh()
	m.header.refresh()
	var cmd tea.Cmd
	if before == 0 && len(m.list.st.visible) > 0 {
		cmd = m.selectionChanged()
	}
	return tea.Batch(cmd, m.pollCmd(), m.startDeep())
}

// busy reports work the status bar shows a spinner for.
func (m *Model) busy() bool {
	return m.loading || m.detail.Busy() || (len(m.datasets) > 0 && !m.datasets[m.cur].Records.Done())
}

// spin starts the spinner unless it runs already.
func (m *Model) spin() tea.Cmd {
	if m.spinning {
		return nil
	}
	m.spinning = true
	return m.spinner.Tick
}

// handleSpin advances the spinner while there is work, and stops it after.
func (m *Model) handleSpin(msg spinner.TickMsg) tea.Cmd {
	if !m.busy() {
		m.spinning = false
		return nil
	}
	var cmd tea.Cmd
	m.spinner, cmd = m.spinner.Update(msg)
	return cmd
}

// handleBackground picks the light or dark theme from the terminal's
// answer, unless the user chose one.
func (m *Model) handleBackground(msg tea.BackgroundColorMsg) tea.Cmd {
	if !autoTheme(m.opts.Theme) {
		return nil
	}
	st := themeStyles("auto", msg.IsDark())
	if st.Dark == m.c.Styles.Dark && st.NoColor == m.c.Styles.NoColor {
		return nil
	}
	m.c.SetStyles(st)
	m.help.Styles = st.Help
	m.helpOv.SetSize(m.layout.Body.W, m.layout.Body.H)
	return m.detail.refresh()
}

// statusInfo gathers the status bar's content.
func (m *Model) statusInfo() statusInfo {
	in := statusInfo{note: m.note}
	if len(m.datasets) == 0 {
		return in
	}
	ds := m.datasets[m.cur]
	st := m.list.st
	in.shown, in.all = len(st.visible), ds.Records.Len()
	in.pos = st.cursor + 1
	if st.filter >= 0 && st.filter < len(ds.Filters) {
		in.filter = ds.Filters[st.filter]
	}
	in.wrongOnly = st.wrongOnly
	in.pin, in.work = m.pinLabel(), m.deepStatus()
	in.listQuery = m.listQueryStatus()
	switch {
	case m.detailFollowsListSearch():
		in.query, in.hits, in.where = st.query, len(m.detail.search.matches), m.detail.TabName()
		in.matchCur = m.detail.search.cur + 1
	case m.searchIn == focusList && st.query != "":
		in.query, in.hits, in.where = st.query, len(st.matches), "list"
		in.matchCur = st.matchIdx + 1
	case m.searchIn == focusDetail && m.detail.search.query != "":
		in.query, in.hits, in.where = m.detail.search.query, len(m.detail.search.matches), m.detail.TabName()
		in.matchCur = m.detail.search.cur + 1
	}
	if s := m.topSheet(); s != nil && m.overlay == overlayNone {
		// The sheet covers the detail: name it, not the hidden scroll.
		in.scroll = text.OneLine(s.Title())
	} else if mark := m.detail.scrollMark(); mark != "" && m.overlay == overlayNone {
		in.scroll = m.detail.TabName() + " " + mark
	}
	switch {
	case !ds.Records.Done():
		in.loading = m.spinner.View() + " indexing…"
	case m.loading:
		in.loading = m.spinner.View() + " loading record…"
	case m.detail.Busy():
		in.loading = m.spinner.View() + " rendering…"
	}
	return in
}

func itoa(n int) string { return strconv.Itoa(n) }
