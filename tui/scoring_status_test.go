package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"evalview/model"
	"evalview/model/runstats"
)

// listGlyph is the status glyph of the list row whose id cell is id.
func listGlyph(t *testing.T, m *Model, id string) string {
	t.Helper()
	for _, l := range strings.Split(ansi.Strip(m.list.View()), "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == "▸" || len(f) >= 2 && f[0] == "▹" {
			f = f[1:]
		}
		if len(f) >= 2 && (f[1] == id || len(f) >= 3 && f[2] == id) {
			return f[0]
		}
	}
	t.Fatalf("no row %s in the list:\n%s", id, m.list.View())
	return ""
}

// TestThresholdMovesStatuses: after t, + or -, a sample scoring under the
// threshold is ✗ in the list, the header's ✓/✗ counts, a status query,
// the Responses tab and the export follow, and the counts are those
// summary computes (runstats) at the same threshold.
func TestThresholdMovesStatuses(t *testing.T) {
	var exported *float64
	t.Setenv("NO_COLOR", "1")
	m := New([]*model.Dataset{runValidFixture()}, Options{Theme: "dark",
		Export: func(_ string, _ *model.Dataset, rows []int, _ int, th *float64) (int, error) {
			exported = th
			return len(rows), nil
		}})
	drive(m, m.Init())
	send(m, windowSize(120, 40))
	ds := m.datasets[0]
	if g := listGlyph(t, m, "1"); g != "✓" {
		t.Fatalf("sample 1 (8.85) at 8.5: %q, want ✓", g)
	}
	if !strings.Contains(screen(m), "✓4 ✗3 !1") {
		t.Fatalf("header at 8.5:\n%s", screen(m))
	}
	press(m, "+") // 9
	if g := listGlyph(t, m, "1"); g != "✗" {
		t.Errorf("sample 1 (8.85) at 9: %q, want ✗", g)
	}
	if g := listGlyph(t, m, "5"); g != "✓" {
		t.Errorf("sample 5 (9.6) at 9: %q, want ✓", g)
	}
	if g := listGlyph(t, m, "3"); g != "!" {
		t.Errorf("sample 3 (errored) at 9: %q, want !", g)
	}
	if s := screen(m); !strings.Contains(s, "✓2 ✗5 !1") || !strings.Contains(s, "2 ≥ 9") {
		t.Errorf("header at 9 should count ✓2 ✗5 !1 and 2 ≥ 9:\n%s", s)
	}
	f := runstats.ComputeAt(ds, 9)
	if f.Statuses[model.StatusPass] != 2 || f.Statuses[model.StatusFail] != 5 || f.Statuses[model.StatusError] != 1 {
		t.Errorf("summary's figures at 9: %v, want the header's 2 pass 5 fail 1 error", f.Statuses)
	}
	// The slices by status count the same.
	press(m, "V")
	if s := screen(m); !strings.Contains(s, "pass       2 100.0%") || !strings.Contains(s, "fail       5   0.0%") {
		t.Errorf("slices at 9 should count 2 pass and 5 fail:\n%s", s)
	}
	press(m, "esc")
	// The Responses tab of sample 1: attempt 1 (9.35) passes at 9,
	// attempt 2 (8.35) fails.
	press(m, "enter", "2")
	s := screen(m)
	if !strings.Contains(s, "✓ pass") || !strings.Contains(s, "✗ fail") {
		t.Errorf("attempts at 9 should show a pass and a fail:\n%s", s)
	}
	press(m, "esc")
	drive(m, m.setListQuery("status=pass"))
	if got := len(m.list.Visible()); got != 2 {
		t.Errorf("status=pass at 9 lists %d, want 2", got)
	}
	press(m, "-", "-") // 8: the query's rows follow
	if got := len(m.list.Visible()); got != 5 {
		t.Errorf("status=pass at 8 lists %d, want 5", got)
	}
	drive(m, m.setListQuery(""))
	press(m, "w", "enter")
	if exported == nil || *exported != 8 {
		t.Errorf("export got threshold %v, want 8", exported)
	}
}
