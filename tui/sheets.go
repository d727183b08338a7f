package tui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/header"
	"evalview/tui/sheets/overview"
	"evalview/tui/ui"
)

// The sheets (tui/sheets/...) are full-body views over the list and the
// detail. The root keeps them in a stack: the top one gets the keys and
// is drawn, and closing it shows the one under it. A sheet is built from
// what it shows and never sees the root; it reports what the user chose
// with the messages of tui/ui, which handleSheetMsg applies.

// sheetStack is the sheets open over the body, the top one last.
type sheetStack struct {
	list []ui.Sheet
	// w, h are the body's size, which every sheet gets.
	w, h int
}

// push opens s over the body, sized to it.
func (st *sheetStack) push(s ui.Sheet) {
	s.SetSize(st.w, st.h)
	st.list = append(st.list, s)
}

// top is the open sheet on top, nil when none is open.
func (st *sheetStack) top() ui.Sheet {
	if len(st.list) == 0 {
		return nil
	}
	return st.list[len(st.list)-1]
}

// close closes s wherever it is in the stack.
func (st *sheetStack) close(s ui.Sheet) {
	for i := len(st.list) - 1; i >= 0; i-- {
		if st.list[i] == s {
			st.list = append(st.list[:i], st.list[i+1:]...)
			return
		}
	}
}

// closeAll closes every sheet, for example when the dataset changes
// under them.
func (st *sheetStack) closeAll() { st.list = nil }

// resize gives every open sheet, and those opened next, the body's size.
func (st *sheetStack) resize(w, h int) {
	st.w, st.h = w, h
	for _, s := range st.list {
		s.SetSize(w, h)
	}
}

// tell hands a data message to every open sheet.
func (st *sheetStack) tell(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, s := range st.list {
		cmds = append(cmds, s.Update(msg))
	}
	return tea.Batch(cmds...)
}

// handleSheetMsg applies what a sheet asked for; ok is false for other
// messages.
func (m *Model) handleSheetMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case ui.DoneMsg:
		m.sheets.close(msg.Sheet)
		if msg.Then == nil {
			m.trail.Arrived(m.sheets.list, m.cur, m.focus) // closed: back where the user came from
			return nil, true
		}
		cmd, _ := m.routed(msg.Then)
		return cmd, true
	case ui.QueryMsg:
		return m.setListQuery(msg.Query), true
	case ui.PinMsg:
		m.focus = focusList
		return m.list.Pin(msg.Label, msg.Rows), true
	case ui.ShowRecordMsg:
		return m.showRecord(msg.Dataset, msg.Index), true
	case ui.NoteMsg:
		m.note = msg.Text
		return nil, true
	case ui.ColumnsMsg:
		m.list.SetColumns(msg.Columns)
		return nil, true
	case ui.ThresholdMsg:
		return m.setThreshold(msg.Dataset, m.scoring.threshold(msg.Dataset)+msg.Delta), true
	case ui.ThresholdPromptMsg:
		return m.openThresholdPrompt(), true
	case ui.HighScoresMsg:
		if m.highActive(msg.Dataset) {
			return nil, true
		}
		return m.toggleHighScore(), true
	case ui.DatasetMsg:
		if msg.Index != m.cur {
			m.trail.Leave(m.sheets.list, m.cur, m.focus)
		}
		return m.switchDataset(msg.Index), true
	case ui.PushMsg:
		m.sheets.push(msg.Sheet)
		return nil, true
	case ui.OpenMsg:
		m.trail.Leave(m.sheets.list, m.cur, m.focus)
		m.sheets.closeAll()
		var cmd tea.Cmd
		if i := slices.Index(m.datasets, msg.Dataset); i >= 0 && i != m.cur {
			cmd = m.switchDataset(i)
		}
		if m.list.WrongOnly() != msg.WrongOnly {
			cmd = tea.Batch(cmd, m.list.ToggleWrongOnly())
		}
		if msg.Record >= 0 {
			cmd = tea.Batch(cmd, m.showRecord(msg.Dataset, msg.Record))
		}
		m.focus = focusList
		return cmd, true
	}
	return nil, false
}

// openOverview shows the overview of the datasets (T), as the user left
// it; it is the first screen when several datasets are open.
func (m *Model) openOverview() tea.Cmd {
	if m.overview != nil && m.sheets.top() == ui.Sheet(m.overview) {
		return nil
	}
	if m.ready {
		m.trail.Leave(m.sheets.list, m.cur, m.focus) // not the first screen: nothing was left
	}
	if m.overview == nil {
		m.overview = overview.New(m.c, overviewSource{m.header.Metrics()}, m.datasets)
	} else {
		m.overview.Grow(m.datasets) // the datasets opened since (opening.go)
		m.overview.Refresh()
	}
	m.sheets.close(m.overview)
	m.sheets.push(m.overview)
	return nil
}

// overviewSource gives the overview and the picker each dataset's
// metrics: recomputed beside the reported ones once its index is
// complete and the dataset has taken in all it learnt (final; cached, as
// the header shows them), the reported ones before. It runs on the
// browser's goroutine, which may sync a dataset.
type overviewSource struct{ metrics *header.Metrics }

func (s overviewSource) Metrics(ds *model.Dataset) (comps []model.MetricComparison, final bool) {
	done := ds.Records.Done() // before the sync: a sync after completion takes in everything
	if sy, ok := ds.Records.(datasetSyncer); ok {
		sy.SyncDataset(ds)
	}
	if done {
		return s.metrics.Get(ds), true
	}
	out := make([]model.MetricComparison, 0, len(ds.Metrics))
	for _, m := range ds.Metrics {
		out = append(out, model.MetricComparison{Filter: m.Filter, Name: m.Name, Reported: m.Value, HasReport: true, Stderr: m.Stderr, HasStderr: m.HasStderr})
	}
	return out, false
}

// filtersSource is what the filter comparison reads of the root: the
// recomputed metrics the header caches and the deep passes.
type filtersSource struct {
	metrics *header.Metrics
	deep    *deepState
}

func (s filtersSource) Metrics(ds *model.Dataset) []model.MetricComparison { return s.metrics.Get(ds) }

func (s filtersSource) Deep(ds *model.Dataset) (*model.DeepReport, string) {
	return s.deep.report(ds), s.deep.status(ds)
}

// showRecord puts the list cursor on record idx of ds (switching to it),
// showing every record again if a pin or wrong-only hid it.
func (m *Model) showRecord(ds *model.Dataset, idx int) tea.Cmd {
	var cmd tea.Cmd
	for i, d := range m.datasets {
		if d == ds && i != m.cur {
			cmd = m.switchDataset(i)
		}
	}
	shown, ok := m.list.Show(idx)
	if !ok {
		m.note = "record " + itoa(idx+1) + " is not in the list"
		return cmd
	}
	m.focus = focusList
	return tea.Batch(cmd, shown)
}

// goBack returns to the last place left on the back stack (tui/back):
// its dataset, its sheets as they were left, its pane.
func (m *Model) goBack() tea.Cmd {
	p, ok := m.trail.Pop()
	if !ok {
		return nil
	}
	var cmd tea.Cmd
	if p.Dataset != m.cur && p.Dataset < len(m.datasets) {
		cmd = m.switchDataset(p.Dataset)
	}
	m.sheets.closeAll()
	for _, s := range p.Sheets {
		m.sheets.push(s)
		if s == ui.Sheet(m.overview) {
			m.overview.Refresh()
		}
	}
	m.focus = p.Focus
	return cmd
}

// backName is where esc goes from the room on screen, for the help line
// (ui.Common.BackTo): what is under the top sheet, or in the list the
// last place left; "" when esc goes nowhere.
func (m *Model) backName() string {
	return m.trail.Where(m.sheets.list, m.focus == focusList, m.cur, func(i int) (string, bool) {
		if i >= len(m.datasets) {
			return "", false
		}
		return m.datasets[i].Title, true
	})
}
