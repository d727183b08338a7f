package tui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/runstats"
	"evalview/tui/header"
	"evalview/tui/sheets/facts"
	"evalview/tui/sheets/filters"
	"evalview/tui/sheets/overview"
	"evalview/tui/sheets/pairs"
	"evalview/tui/sheets/scores"
	"evalview/tui/sheets/slice"
	"evalview/tui/ui"
)

// The sheets (tui/sheets/...) are full-body views over the list and the
// detail. The root keeps them in a stack: the top one gets the keys and
// is drawn, and closing it shows the one under it. A sheet is built from
// what it shows and never sees the root; it reports what the user chose
// with the messages of tui/ui, which handleSheetMsg applies.

// pushSheet opens s over the body, sized to it.
func (m *Model) pushSheet(s ui.Sheet) {
	s.SetSize(m.layout.Body.W, m.layout.Body.H)
	m.sheets = append(m.sheets, s)
}

// topSheet is the open sheet on top, nil when none is open.
func (m *Model) topSheet() ui.Sheet {
	if len(m.sheets) == 0 {
		return nil
	}
	return m.sheets[len(m.sheets)-1]
}

// closeSheet closes s wherever it is in the stack.
func (m *Model) closeSheet(s ui.Sheet) {
	for i := len(m.sheets) - 1; i >= 0; i-- {
		if m.sheets[i] == s {
			m.sheets = append(m.sheets[:i], m.sheets[i+1:]...)
			return
		}
	}
}

// closeSheets closes every sheet, for example when the dataset changes
// under them.
func (m *Model) closeSheets() { m.sheets = nil }

// resizeSheets gives every open sheet the new body size.
func (m *Model) resizeSheets() {
	for _, s := range m.sheets {
		s.SetSize(m.layout.Body.W, m.layout.Body.H)
	}
}

// tellSheets hands a data message to every open sheet.
func (m *Model) tellSheets(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, s := range m.sheets {
		cmds = append(cmds, s.Update(msg))
	}
	return tea.Batch(cmds...)
}

// handleSheetMsg applies what a sheet asked for; ok is false for other
// messages.
func (m *Model) handleSheetMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case ui.DoneMsg:
		m.closeSheet(msg.Sheet)
		if msg.Then == nil {
			return nil, true
		}
		return m.route(msg.Then), true
	case ui.QueryMsg:
		return m.setListQuery(msg.Query), true
	case ui.PinMsg:
		m.setFocus(focusList)
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
		return m.switchDataset(msg.Index), true
	case ui.PushMsg:
		m.pushSheet(msg.Sheet)
		return nil, true
	case ui.OpenMsg:
		back := append([]ui.Sheet(nil), m.sheets...)
		m.closeSheets()
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
		m.setFocus(focusList)
		m.back = back
		return cmd, true
	}
	return nil, false
}

// openOverview shows the overview of the datasets (T), as the user left
// it; it is the first screen when several datasets are open.
func (m *Model) openOverview() tea.Cmd {
	m.back = nil // T leaves where enter in the overview led
	if m.overview == nil {
		m.overview = overview.New(m.c, overviewSource{m.header.Metrics()}, m.datasets)
	} else {
		m.overview.Refresh()
	}
	m.closeSheet(m.overview)
	m.pushSheet(m.overview)
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

// openFacts opens the facts sheet of the current dataset (i).
func (m *Model) openFacts() tea.Cmd {
	m.pushSheet(facts.New(m.c, m.datasets[m.cur]))
	return nil
}

// openScores opens the score distribution of ds (v on a scored dataset).
func (m *Model) openScores(ds *model.Dataset) tea.Cmd {
	sc := m.scoring
	m.pushSheet(scores.New(m.c, ds, func() runstats.Figures { return sc.figures(ds) }))
	return nil
}

// openFilters compares the current dataset's filters (v).
func (m *Model) openFilters() tea.Cmd {
	m.pushSheet(filters.New(m.c, filtersSource{m.header.Metrics(), &m.deep}, m.datasets[m.cur], m.list.FilterIndex()))
	return nil
}

// openSlices groups the current dataset's records (V).
func (m *Model) openSlices() tea.Cmd {
	m.pushSheet(slice.New(m.c, m.datasets[m.cur], m.list.FilterIndex(), m.scoring.at(m.datasets[m.cur])))
	return nil
}

// openPairs compares the current dataset with another of its kind (C).
func (m *Model) openPairs() tea.Cmd {
	m.pushSheet(pairs.New(m.c, m.datasets, m.cur, m.list.FilterIndex()))
	return nil
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
	m.setFocus(focusList)
	return tea.Batch(cmd, shown)
}
