package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/sheets/runs"
)

// click sends a left click at body-relative (x, y) through the root.
// The screen is drawn first, as the program draws it after every
// message: the sheets learn where their rows are from their last view.
func click(m *Model, x, y int) {
	screen(m)
	send(m, tea.MouseClickMsg{X: m.layout.Body.X + x, Y: m.layout.Body.Y + y, Button: tea.MouseLeft})
}

// wheel sends one notch of the wheel (down when d > 0) over the body.
func wheel(m *Model, d int) {
	b := tea.MouseWheelDown
	if d < 0 {
		b = tea.MouseWheelUp
	}
	send(m, tea.MouseWheelMsg{X: m.layout.Body.X + 2, Y: m.layout.Body.Y + 3, Button: b})
}

// bodyLine is line y of the body as drawn.
func bodyLine(m *Model, y int) string {
	lines := strings.Split(screen(m), "\n")
	return lines[m.layout.Body.Y+y]
}

// overviewPos is where the overview says its cursors are.
func overviewPos(m *Model) string { return m.overview.Describe().Pos }

// TestMouseOverview: a click on a cell moves both cursors there, a
// second click on it opens the task in that column (as enter), a click
// on a heading sorts by its column, the wheel moves the cursor; the
// overview ignored the mouse.
func TestMouseOverview(t *testing.T) {
	m := newOverviewModel(t, overviewFixtures(3), 120, 30)
	heading := strings.Split(screen(m), "\n")[m.layout.Body.Y+1]
	x := strings.Index(heading, "big-70b")
	if x < 0 {
		t.Fatalf("no big-70b heading: %q", heading)
	}
	click(m, x+2, 3) // the second task's row, big-70b's column
	if p := overviewPos(m); !strings.HasPrefix(p, "row 2/") || !strings.HasSuffix(p, "big-70b") {
		t.Fatalf("click on a cell: %q", p)
	}
	wheel(m, 1) // three rows a notch, kept on the last
	if p := overviewPos(m); !strings.HasPrefix(p, "row 4/4") {
		t.Errorf("wheel down: %q", p)
	}
	wheel(m, -1)
	if p := overviewPos(m); !strings.HasPrefix(p, "row 1/") {
		t.Errorf("wheel up: %q", p)
	}
	click(m, x+2, 4) // mmlu_a (the second row is the group mmlu)
	click(m, x+2, 4) // again: opens
	if m.sheets.top() != nil || !strings.Contains(m.curDataset().Origin.Model, "big-70b") {
		t.Fatalf("double click did not open the task: top %T, dataset %s", m.sheets.top(), m.curDataset().Origin.Model)
	}
	press(m, "esc")
	// The runs of a task: a click on a doc's glyph of the second run
	// puts both cursors there.
	press(m, "C") // mmlu_a, as the cursor was left
	rs, ok := m.sheets.top().(*runs.Sheet)
	if !ok {
		t.Fatalf("C: %T", m.sheets.top())
	}
	first := -1
	for i := 0; i < m.layout.Body.H; i++ {
		if strings.HasPrefix(bodyLine(m, i), "▸") {
			first = i
		}
	}
	if first < 0 {
		t.Fatal("runs: no doc row")
	}
	head := bodyLine(m, first-1)
	gx := strings.Index(head, " 2 ")
	click(m, text2cells(head, gx)+1, first)
	if p := rs.Describe().Pos; !strings.HasPrefix(p, "doc 1/") || !strings.HasSuffix(p, "tuned-7b") {
		t.Errorf("runs: click on run 2's glyph: %q", p)
	}
	press(m, "esc")
	click(m, x+2, 1) // the heading: sort by big-70b
	var sorted string
	for _, f := range m.overview.Describe().Facts {
		if f.Key == "sorted by" {
			sorted = f.Value
		}
	}
	if !strings.Contains(sorted, "big-70b") {
		t.Errorf("click on a heading: sorted by %q", sorted)
	}
}

// TestMouseSheets: in every sheet a click on a row moves the cursor
// there, and a second click does what enter does; the wheel moves it.
func TestMouseSheets(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
	// Facets: title, fields, heading, then the values.
	press(m, "F")
	click(m, 3, 4)
	if l := bodyLine(m, 4); !strings.HasPrefix(l, "▸") {
		t.Fatalf("facets: click on the second value: %q", l)
	}
	wheel(m, -1)
	if l := bodyLine(m, 3); !strings.HasPrefix(l, "▸") {
		t.Errorf("facets: wheel up: %q", bodyLine(m, 3))
	}
	click(m, 3, 4)
	click(m, 3, 4)
	if m.sheets.top() != nil || m.list.QueryStatus() == nil {
		t.Errorf("facets: a double click did not filter the list (top %T)", m.sheets.top())
	}
	press(m, "esc")
	// Columns: the title, then the fields.
	press(m, "c")
	click(m, 3, 2)
	if l := bodyLine(m, 2); !strings.HasPrefix(l, "▸") {
		t.Fatalf("columns: click: %q", l)
	}
	field := strings.TrimSpace(bodyLine(m, 2)[len("▸ [x] "):])
	before := l2(bodyLine(m, 2))
	click(m, 3, 2)
	after := ""
	for i := 1; i < m.layout.Body.H; i++ {
		if l := bodyLine(m, i); strings.Contains(l, field) {
			after = l2(l)
		}
	}
	if after == before {
		t.Errorf("columns: a double click did not show or hide %q: %q", field, after)
	}
	press(m, "esc")
	// Slices: the title, a blank line, the heading, the rows.
	press(m, "V")
	click(m, 3, 4)
	if l := bodyLine(m, 4); !strings.Contains(l, "▸") {
		t.Errorf("slices: click on the second row: %q", l)
	}
	press(m, "esc")
	// The filter comparison: a click on the "only B" cell.
	press(m, "v")
	var y, x int
	for i := 0; i < m.layout.Body.H; i++ {
		if k := strings.Index(bodyLine(m, i), "only B"); k >= 0 {
			y, x = i, k
		}
	}
	if x == 0 {
		t.Fatal("filters: no only B cell")
	}
	click(m, text2cells(bodyLine(m, y), x)-2, y)
	if l := bodyLine(m, y); !strings.Contains(l, "▸") {
		t.Errorf("filters: click on only B: %q", l)
	}
	press(m, "esc")
}

// l2 is a columns-sheet line's checkbox.
func l2(line string) string {
	if i := strings.Index(line, "["); i >= 0 && i+3 <= len(line) {
		return line[i : i+3]
	}
	return ""
}

// text2cells is the cell column of byte offset b in line.
func text2cells(line string, b int) int { return len([]rune(line[:b])) }
