package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestGoldenTools snapshots the everyday tools' views: the facets sheet,
// the notes' label column, the query line with an error, a sorted list.
func TestGoldenTools(t *testing.T) {
	cases := []struct {
		name  string
		setup func(m *Model)
		want  []string
	}{
		{"facets_answer", func(m *Model) { press(m, "F", "tab", "tab") }, []string{"Facets of 6 records", "[answer]", "[invalid]", "33.3%"}},
		{"facets_status", func(m *Model) { drive(m, m.setListQuery("score<1")); press(m, "F") }, []string{"matching :score<1", "[status]", "fail"}},
		{"notes_column", func(m *Model) {
			press(m, "j", "L")
			typeText(m, "extraction bug")
			press(m, "enter", "j", "j", "L")
			typeText(m, "wrong reasoning")
			press(m, "enter")
		}, []string{"labels", "extraction b", "wrong reas"}},
		{"query_error", func(m *Model) { press(m, ":"); typeText(m, "status=fail score<") }, []string{":status=fail score<", "✗ col 13"}},
		{"sorted_query", func(m *Model) { drive(m, m.setListQuery("status=fail")); press(m, "right", "right", "s", "S") }, []string{":status=fail", "sort score↓", "1/2 of 6"}},
	}
	for _, size := range [][2]int{{100, 30}, {60, 15}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			for _, gc := range cases {
				t.Run(gc.name, func(t *testing.T) {
					m := newNotesModel(t, newMemNotes(), w, h)
					gc.setup(m)
					s := screen(m)
					checkFits(t, s, w, h)
					for _, want := range gc.want {
						if !strings.Contains(s, want) && w >= 100 {
							t.Errorf("screen lacks %q:\n%s", want, s)
						}
					}
					golden.RequireEqual(t, s)
				})
			}
		})
	}
}
