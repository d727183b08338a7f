package runs

import (
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"evalview/model"
	"evalview/tui/styles"
	"evalview/tui/ui"
)

// manyRuns is n runs of one task, docs docs each, right on alternate docs
// shifted by run.
func manyRuns(n, docs int) []Run {
	var out []Run
	for r := range n {
		recs := make([]*model.Record, docs)
		for d := range docs {
			st := model.StatusFail
			if (d+r)%2 == 0 {
				st = model.StatusPass
			}
			recs[d] = &model.Record{Summary: model.Summary{ID: strconv.Itoa(d), Title: "question " + strconv.Itoa(d), Status: st}}
		}
		ds := &model.Dataset{Kind: model.KindRun, Title: "gsm8k", Records: model.NewMemIndex(recs)}
		out = append(out, Run{Dataset: ds, Label: "model-" + strconv.Itoa(r+1), Filter: -1})
	}
	return out
}

// TestManyRunsFit: at 80x18, twelve runs of a hundred docs (agreement
// cells of 7 columns) fit: every run's row and column of the agreement
// table can be brought into view with l, the doc list keeps its rows, and
// no line is wider than the body.
func TestManyRunsFit(t *testing.T) {
	const n, w, h = 12, 80, 18
	s := New(ui.NewCommon(styles.Plain()), "gsm8k", manyRuns(n, 100))
	s.SetSize(w, h)
	right := tea.KeyPressMsg{Code: tea.KeyRight}
	for j := range n {
		if j > 0 {
			s.Update(right)
		}
		lines := strings.Split(ansi.Strip(s.View()), "\n")
		if len(lines) != h {
			t.Fatalf("run %d: %d lines, want %d", j+1, len(lines), h)
		}
		var heading, row string
		docs := 0
		for _, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Errorf("run %d: line wider than %d: %q", j+1, w, l)
			}
			switch {
			case strings.Contains(l, " run ") && strings.Contains(l, "│"):
				heading = l
			case strings.HasPrefix(l, "▸") && strings.Contains(l, "model-"+strconv.Itoa(j+1)+" "):
				row = l
			case strings.Contains(l, "question "):
				docs++
			}
		}
		if !strings.Contains(heading+" ", " "+strconv.Itoa(j+1)+" ") {
			t.Errorf("run %d: column not shown in the heading %q", j+1, heading)
		}
		if row == "" {
			t.Errorf("run %d: its row is not shown under the cursor:\n%s", j+1, strings.Join(lines, "\n"))
		}
		if docs < minDocRows {
			t.Errorf("run %d: %d doc rows shown, want %d at least", j+1, docs, minDocRows)
		}
	}
	// The cursor's own column holds – against itself, the rest counts.
	if !strings.Contains(ansi.Strip(s.View()), "100/100") && !strings.Contains(ansi.Strip(s.View()), "0/100") {
		t.Errorf("no agreement count shown:\n%s", ansi.Strip(s.View()))
	}
}
