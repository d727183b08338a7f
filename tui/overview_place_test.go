package tui

import (
	"strings"
	"testing"
)

// TestOverviewPlacedOnSharedTasks: the overview compares the first model
// with the one that shares the most tasks with it and opens on the first
// task they share; while the user has not moved, datasets coming in
// (Grow) place it again, and once a key moved the cursor they do not.
func TestOverviewPlacedOnSharedTasks(t *testing.T) {
	dss := sweepDatasets(t, "sweeps/gemma-2b-fewshot")
	m := newOverviewModel(t, dss, 120, 30)
	if s := screen(m); !strings.Contains(s, "overview · row 2/5 afrisenti_swa_prompt_1") {
		t.Fatalf("not placed on the first shared task:\n%s", s)
	}

	// Streaming: two datasets first, the rest coming in.
	m = newOverviewModel(t, dss[:2], 120, 30)
	m.overview.Grow(dss)
	if s := screen(m); !strings.Contains(s, "row 2/5 afrisenti_swa_prompt_1") {
		t.Errorf("grown untouched, not placed again:\n%s", s)
	}
	m = newOverviewModel(t, dss[:2], 120, 30)
	press(m, "h") // the column cursor moves: the user chose
	before := rowName(m.overview.Describe().Pos)
	m.overview.Grow(dss)
	if after := rowName(m.overview.Describe().Pos); after != before {
		t.Errorf("grown after a key: the cursor went from %q to %q", before, after)
	}
	if s := screen(m); !strings.Contains(s, "Δ 5-shot dtype unset − 0-shot dtype unset (baseline)") {
		t.Errorf("grown after a key: the compared columns changed:\n%s", s)
	}
}

// rowName is the task of a sheet position "row 2/5 task · column".
func rowName(pos string) string {
	_, rest, _ := strings.Cut(pos, " ")
	_, rest, _ = strings.Cut(rest, " ")
	name, _, _ := strings.Cut(rest, " ")
	return name
}
