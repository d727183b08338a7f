package tui

import (
	"strings"
	"testing"

	"evalview/model"
)

// TestRawFoldsALevelAtATime: z in the Raw tab folds the record's JSON
// below its top level, each z opens a level more, and past the deepest
// everything shows again; wrapped lines keep their indentation.
func TestRawFoldsALevelAtATime(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 30)
	press(m, "tab")
	for i, tab := range m.detail.Tabs() {
		if tab.Content == model.TabRaw {
			press(m, string(rune('1'+i)))
		}
	}
	if m.detail.TabName() != "Raw" {
		t.Fatalf("no Raw tab: %v", m.detail.TabName())
	}
	open := strings.Join(m.detail.Doc().Plain, "\n")
	press(m, "z")
	folded := strings.Join(m.detail.Doc().Plain, "\n")
	if !strings.Contains(folded, `"doc": {…}`) || len(m.detail.Doc().Plain) >= len(strings.Split(open, "\n")) {
		t.Fatalf("z did not fold the top level's members:\n%s", folded)
	}
	presses := 0
	for ; presses < 10 && strings.Join(m.detail.Doc().Plain, "\n") != open; presses++ {
		press(m, "z")
	}
	if strings.Join(m.detail.Doc().Plain, "\n") != open {
		t.Errorf("z past the deepest level did not open everything (%d more presses)", presses)
	}
	wrapped := 0
	for _, l := range m.detail.Doc().Plain {
		// Pretty JSON: only the braces of the document and the rules
		// start at the left edge; wrapped lines keep their indentation.
		if l != "" && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "{") && !strings.HasPrefix(l, "}") && !strings.HasPrefix(l, "──") && !strings.HasPrefix(l, "⚠") && !strings.Contains(l, ".jsonl:") {
			t.Errorf("a Raw line starts at the left edge: %q", l)
		}
		if strings.HasPrefix(l, "    ") && !strings.Contains(l, `": `) && !strings.HasSuffix(strings.TrimSpace(l), ",") {
			wrapped++
		}
	}
	if wrapped == 0 {
		t.Errorf("no wrapped line at this width:\n%s", open)
	}
}
