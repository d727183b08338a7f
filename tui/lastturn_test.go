package tui

import (
	"strings"
	"testing"

	"evalview/model"
)

// TestJumpToTheLastUserTurn: with the few-shot examples unfolded, u in the
// Prompt tab scrolls to the question they lead up to.
func TestJumpToTheLastUserTurn(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 20)
	press(m, "tab", "1", "z")
	if m.detail.Doc().LastUser <= 0 {
		t.Fatalf("no last user turn found in the unfolded prompt (at %d)", m.detail.Doc().LastUser)
	}
	if !strings.Contains(footer(m), "u question") {
		t.Errorf("the footer does not offer u:\n%s", footer(m))
	}
	press(m, "u")
	y, lu := m.detail.Offset(), m.detail.Doc().LastUser
	shown := strings.Split(m.detail.View(), "\n")[1:] // under the tab bar
	if y == 0 || lu < y || lu >= y+len(shown) {
		t.Errorf("u scrolled to %d; the user turn at line %d is not in view", y, lu)
	}
	if line := shown[lu-y]; !strings.Contains(line, "user") {
		t.Errorf("line %d is %q, want the user turn's rule", lu, line)
	}
}
