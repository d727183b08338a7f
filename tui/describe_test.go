package tui

import (
	"strings"
	"testing"
)

// TestHeaderDescribesTheSheet: on the overview the header and the status
// bar say what the overview holds and where its cursor is, not the
// current dataset's title and list position; on the list they describe
// the dataset again; a sheet over the dataset keeps its header and names
// itself in the status bar.
func TestHeaderDescribesTheSheet(t *testing.T) {
	m := newOverviewModel(t, overviewFixtures(3), 100, 30)
	lines := strings.Split(screen(m), "\n")
	if !strings.HasPrefix(lines[0], "Overview  3 tasks × 3 columns · 9 datasets") {
		t.Errorf("overview header: %q", lines[0])
	}
	if !strings.Contains(lines[1], "baseline: base-7b") || !strings.Contains(lines[1]+lines[2], "3 models: org/base-7b, org/tuned-7b, other/big-70b") {
		t.Errorf("overview facts:\n%s\n%s", lines[1], lines[2])
	}
	status := lines[len(lines)-2]
	if !strings.HasPrefix(strings.TrimSpace(status), "overview · row 1/") || strings.Contains(status, "filter") {
		t.Errorf("overview status: %q", status)
	}
	press(m, "enter")
	lines = strings.Split(screen(m), "\n")
	if strings.HasPrefix(lines[0], "Overview") || !strings.Contains(lines[0], "lm-eval") {
		t.Errorf("list header after enter: %q", lines[0])
	}
	press(m, "F")
	lines = strings.Split(screen(m), "\n")
	if !strings.Contains(lines[0], "lm-eval") || !strings.HasPrefix(strings.TrimSpace(lines[len(lines)-2]), "facets") {
		t.Errorf("facets: header %q, status %q", lines[0], lines[len(lines)-2])
	}
}
