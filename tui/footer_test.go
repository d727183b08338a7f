package tui

import (
	"strings"
	"testing"

	"evalview/model"
)

// footer is the help line, the screen's last.
func footer(m *Model) string {
	lines := strings.Split(screen(m), "\n")
	return lines[len(lines)-1]
}

// TestFooterAt80Columns: a user who never read the README finds the
// error-analysis keys in the help line of an 80-column terminal; with a
// selection it says what acts on it; a sheet shows its own keys first.
func TestFooterAt80Columns(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 80, 24)
	f := footer(m)
	for _, want := range []string{"x wrong only", "v filters", "V slices", "F facets", ": query", "L label", "w export"} {
		if !strings.Contains(f, want) {
			t.Errorf("list footer lacks %q:\n%s", want, f)
		}
	}
	if strings.Contains(f, "j down") {
		t.Errorf("the footer spends its room on j/k:\n%s", f)
	}
	press(m, "p", "p")
	if f := footer(m); !strings.HasPrefix(strings.TrimSpace(f), "L label 2") || !strings.Contains(f, "w export 2") {
		t.Errorf("footer with a selection:\n%s", f)
	}
	press(m, "esc", "F")
	if f := footer(m); !strings.HasPrefix(strings.TrimSpace(f), "tab next field") {
		t.Errorf("facets footer does not start with its own keys:\n%s", f)
	}
	press(m, "esc", "tab")
	if f := footer(m); !strings.Contains(f, "next tab") || !strings.Contains(f, "/ search") {
		t.Errorf("detail footer:\n%s", f)
	}

	run := newTestModel(t, []*model.Dataset{runValidFixture()}, 80, 24)
	if f := footer(run); !strings.Contains(f, "v scores") || !strings.Contains(f, "F facets") || !strings.Contains(f, "L label") {
		t.Errorf("run list footer:\n%s", f)
	}
}
