package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/runstats"
	"evalview/tui/text"
)

// Keys of the run views. The threshold is the site's high-score
// threshold: `t` types a new one (0 to the top of the scale, 10 for a
// run), `+` and `-` move it by 0.5;
// the header, the histogram sheet and an active high-score filter follow
// it. `H` adds "score>=T" to the list's query (the `:` language, so it
// combines with category=… errored=yes sample_status=…) or takes it out.

// scoredDataset is the current dataset when its records are scored on a
// judge's scale with a threshold (model.Scoring: run zips), else nil.
func (m *Model) scoredDataset() *model.Dataset {
	if len(m.datasets) == 0 || m.datasets[m.cur].Scoring == nil {
		return nil
	}
	return m.datasets[m.cur]
}

// highTerm is the query term of the high-score filter at threshold t.
func highTerm(t float64) string { return "score>=" + text.FormatThreshold(t) }

// highActive reports whether ds's list query holds the high-score term
// at ds's threshold (the user may have edited it out).
func (m *Model) highActive(ds *model.Dataset) bool {
	term, ok := m.scoring.high[ds]
	return ok && hasTerm(m.list.Where(), term)
}

// hasTerm reports whether q holds term as a whole term.
func hasTerm(q, term string) bool {
	for _, f := range strings.Fields(q) {
		if f == term {
			return true
		}
	}
	return false
}

// withoutTerm removes the first whole occurrence of term from q.
func withoutTerm(q, term string) string {
	fs := strings.Fields(q)
	for i, f := range fs {
		if f == term {
			return strings.Join(append(fs[:i:i], fs[i+1:]...), " ")
		}
	}
	return q
}

// toggleHighScore narrows the list to the samples on the site's
// high-score list (scored, average at or above the threshold), or lifts
// that filter, keeping the rest of the query.
func (m *Model) toggleHighScore() tea.Cmd {
	ds := m.scoredDataset()
	if ds == nil {
		return nil
	}
	q := m.list.Where()
	if m.highActive(ds) {
		term := m.scoring.high[ds]
		delete(m.scoring.high, ds)
		return m.setListQuery(withoutTerm(q, term))
	}
	term := highTerm(m.scoring.threshold(ds))
	m.scoring.high[ds] = term
	return m.setListQuery(strings.TrimSpace(q + " " + term))
}

// setThreshold sets ds's threshold (clamped to 0..10) and moves an
// active high-score filter with it. The header's "N ≥ T" and ✓/✗ counts,
// the list's glyphs and the record's attempts follow it.
func (m *Model) setThreshold(ds *model.Dataset, t float64) tea.Cmd {
	active := m.highActive(ds)
	old := m.scoring.high[ds]
	t = m.scoring.set(ds, t)
	var cmd tea.Cmd
	switch {
	case active:
		term := highTerm(t)
		m.scoring.high[ds] = term
		q := withoutTerm(m.list.Where(), old)
		cmd = m.setListQuery(strings.TrimSpace(q + " " + term))
	case ds == m.curDataset():
		// The statuses moved with the threshold: a status term, the
		// wrong-only switch or a sort by status lists other rows now.
		cmd = m.list.Refilter()
	}
	return cmd
}

// openThresholdPrompt asks for a threshold from 0 to the top of the
// scale in the status line; enter sets it, esc keeps the old one.
func (m *Model) openThresholdPrompt() tea.Cmd {
	ds := m.scoredDataset()
	if ds == nil {
		return nil
	}
	top := runstats.Max(ds)
	p := &lineInput{prefix: "high-score threshold (0-" + text.FormatThreshold(top) + "): ", hint: "enter set · esc cancel"}
	p.setValue(text.FormatThreshold(m.scoring.threshold(ds)))
	p.submit = func(v string) (bool, tea.Cmd) {
		t, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(t >= 0 && t <= top) { // also NaN, which fails every comparison
			p.errText = "a number from 0 to " + text.FormatThreshold(top)
			return true, nil
		}
		return false, m.setThreshold(ds, t)
	}
	m.input = p
	return nil
}
