package tui

import (
	"strings"
	"testing"

	"evalview/model"
)

// TestCompletionMenu: the `:` line shows every candidate of the word being
// typed as a menu over the body, with its count; tab takes the first and
// marks it, tab again the next.
func TestCompletionMenu(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 30)
	press(m, ":")
	typeText(m, "status=")
	s := screen(m)
	if !strings.Contains(s, "tab takes the first") || !strings.Contains(s, "pass") || !strings.Contains(s, "fail") {
		t.Fatalf("no menu of statuses:\n%s", s)
	}
	checkFits(t, s, 100, 30)
	press(m, "tab")
	s = screen(m)
	lines := strings.Split(s, "\n")
	marked := ""
	for _, l := range lines {
		if strings.HasPrefix(l, "▸ ") {
			marked = l
		}
	}
	if !strings.Contains(marked, strings.TrimPrefix(prompt(m).Value(), "status=")) || !strings.Contains(s, "tab next") {
		t.Errorf("the taken candidate %q is not marked:\n%s", prompt(m).Value(), s)
	}
	first := prompt(m).Value()
	press(m, "tab")
	if prompt(m).Value() == first {
		t.Errorf("tab again kept %q", first)
	}
	press(m, "esc")
	if strings.Contains(screen(m), "completion") {
		t.Errorf("the menu stays after esc")
	}
}
