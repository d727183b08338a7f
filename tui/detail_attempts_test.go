package tui

import (
	"fmt"
	"strings"
	"testing"

	"evalview/loaders/runzip"
	"evalview/model"
)

// y and Y on Responses take the attempt scrolled to, or the side of a
// pair moved last.
func TestCopyFocusedAttempt(t *testing.T) {
	t.Setenv("DISPLAY", "") // no system clipboard tool in tests
	t.Setenv("WAYLAND_DISPLAY", "")
	tests := []struct {
		name  string
		ds    func() *model.Dataset
		setup func(m *Model)
		what  string
		path  string
		text  func(r *model.Record) string
	}{
		{"run first", runValidFixture, func(m *Model) {}, "response #1", "samples/", nil},
		{"run scrolled to #2", runValidFixture, func(m *Model) { scrollToAttempt(t, m, 1) }, "response #2", ": .attempts[1].response", nil},
		{"run scrolled to #3", runValidFixture, func(m *Model) { scrollToAttempt(t, m, 2) }, "response #3", ": .attempts[2].response", nil},
		{"run side by side", runValidFixture, func(m *Model) { press(m, "|") }, "response #1", ".attempts[0].response", nil},
		{"run side by side right moved", runValidFixture, func(m *Model) { press(m, "|", "}") }, "response #3", ".attempts[2].response", nil},
		{"run side by side left moved", runValidFixture, func(m *Model) { press(m, "|", "}", ")") }, "response #2", ".attempts[1].response", nil},
		{"lm-eval repeat 2", lmevalFixture, func(m *Model) { press(m, "tab", "j", "j", "tab"); scrollToAttempt(t, m, 1) }, "response #2", ".resps[0][1]", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// 60x15: the detail is short enough for every record to scroll.
			m := newTestModel(t, []*model.Dataset{tc.ds()}, 60, 15)
			press(m, "2", "tab") // Responses, focused
			tc.setup(m)
			if m.detail.TabName() != "Responses" {
				t.Fatalf("tab %q", m.detail.TabName())
			}
			c, ok := m.focusedClipFor(true)
			if !ok {
				t.Fatal("nothing to copy")
			}
			if c.What != tc.what || !strings.Contains(c.Path, tc.path) {
				t.Errorf("clip %q path %q, want %q and a path with %q", c.What, c.Path, tc.what, tc.path)
			}
			var n int // the attempt the clip names: "response #N"
			fmt.Sscanf(tc.what, "response #%d", &n)
			pos := n - 1
			if c.Text != m.detail.Record().Attempts[pos].Text || c.Text == "" {
				t.Errorf("copied %q, want attempt %d's text", c.Text, pos)
			}
			press(m, "y")
			if !strings.Contains(screen(m), "copied "+tc.what) {
				t.Errorf("status bar lacks %q:\n%s", "copied "+tc.what, screen(m))
			}
		})
	}
}

// scrollToAttempt scrolls the Responses tab down to attempt pos's
// heading ("── #2 of 3 …"), to the top line if it can.
func scrollToAttempt(t *testing.T, m *Model, pos int) {
	t.Helper()
	head := -1
	for i, l := range m.detail.Doc().Plain {
		if strings.HasPrefix(l, fmt.Sprintf("── #%d of ", pos+1)) {
			head = i
			break
		}
	}
	if head < 0 {
		t.Fatalf("attempt %d has no heading in:\n%s", pos, strings.Join(m.detail.Doc().Plain, "\n"))
	}
	for y := -1; m.detail.Offset() < head && m.detail.Offset() != y; {
		y = m.detail.Offset()
		press(m, "j")
	}
}

// TestAttemptWithoutResponseSaysWhy: a run's score without its sample
// gives attempts whose response is not in the run: the Responses tab says
// so where the response would be (not "(empty response)"), and y and o
// say why there is nothing to copy or open instead of copying "".
func TestAttemptWithoutResponseSaysWhy(t *testing.T) {
	dss, err := runzip.Open("../testdata/run/scores_only")
	if err != nil || len(dss) != 1 {
		t.Fatalf("open: %v", err)
	}
	m := newTestModel(t, dss, 100, 30)
	press(m, "tab", "2")
	s := screen(m)
	if !strings.Contains(s, "response not in this run: no sample file has") || strings.Contains(s, "(empty response)") {
		t.Errorf("Responses tab:\n%s", s)
	}
	press(m, "y")
	if !strings.Contains(m.note, "nothing to copy: response #1 not in this run") {
		t.Errorf("y: note %q, flash %q", m.note, m.flash)
	}
}
