package tui

import (
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"evalview/tui/ui"
)

// exportDoneMsg reports an export of the list (`w`).
type exportDoneMsg struct {
	path string
	n    int
	err  error
}

func (msg exportDoneMsg) applyTo(m *Model) tea.Cmd {
	if msg.err != nil {
		m.note = "export failed: " + msg.err.Error()
		return nil
	}
	m.flash = "exported " + strconv.Itoa(msg.n) + " records to " + msg.path
	return nil
}

// openExportPrompt asks where to write the visible records (`w`): JSONL,
// or CSV when the name ends in .csv, as `evalview export` writes them.
func (m *Model) openExportPrompt() tea.Cmd {
	if m.opts.Export == nil {
		m.note = "export is not available here"
		return nil
	}
	ds := m.datasets[m.cur]
	base := strings.TrimSuffix(filepath.Base(ds.Path), filepath.Ext(ds.Path))
	if base == "" || base == "." {
		base = "evalview"
	}
	rows, what := m.list.Visible(), " records"
	if sel := m.list.SelectedRows(); len(sel) > 0 {
		rows, what = sel, " selected records" // the selection, in list order
	}
	p := &lineInput{prefix: "export " + strconv.Itoa(len(rows)) + what + " to: ",
		hint: ".jsonl or .csv · enter write · esc cancel"}
	p.setValue(base + "-export.jsonl")
	p.submit = func(v string) (bool, tea.Cmd) {
		path := strings.TrimSpace(v)
		if path == "" {
			p.errText = "give a file name"
			return true, nil
		}
		rows := append([]int(nil), rows...)
		export, fi, th := m.opts.Export, m.list.FilterIndex(), m.scoring.at(ds)
		return false, ui.SafeCmd(func() tea.Msg {
			n, err := export(path, ds, rows, fi, th)
			return exportDoneMsg{path: path, n: n, err: err}
		})
	}
	m.input = p
	return nil
}
