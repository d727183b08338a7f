package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestEverySizeFits walks every dataset, record and tab at several sizes
// and checks that no rendered line is wider than the terminal and that the
// screen has exactly the terminal's height.
func TestEverySizeFits(t *testing.T) {
	sizes := [][2]int{{60, 15}, {61, 16}, {80, 24}, {95, 20}, {96, 24}, {100, 30}, {120, 40}, {250, 80}}
	for _, size := range sizes {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			m := newTestModel(t, allFixtures(), w, h)
			for d := 0; d < len(m.datasets); d++ {
				n := m.datasets[m.cur].Records.Len()
				for r := 0; r < n; r++ {
					press(m, "tab") // detail
					for tab := 1; tab <= len(m.detail.Tabs()); tab++ {
						press(m, fmt.Sprint(tab))
						checkFits(t, screen(m), w, h)
						press(m, "z")
						checkFits(t, screen(m), w, h)
						press(m, "z", "G")
						checkFits(t, screen(m), w, h)
					}
					press(m, "tab", "j") // back to the list, next record
				}
				for _, overlay := range []string{"?", "D"} {
					press(m, overlay)
					checkFits(t, screen(m), w, h)
					press(m, "esc")
				}
				press(m, "x")
				checkFits(t, screen(m), w, h)
				press(m, "x", ">")
			}
		})
	}
}

// TestTooSmall checks the notice below 60x15, at sizes where even the
// notice must be cut.
func TestTooSmall(t *testing.T) {
	for _, size := range [][2]int{{59, 15}, {60, 14}, {40, 10}, {20, 5}, {10, 2}, {1, 1}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			m := newTestModel(t, allFixtures(), w, h)
			s := screen(m)
			checkFits(t, s, w, h)
			flat := strings.Join(strings.Fields(s), " ")
			if w >= 20 && !strings.Contains(flat, "Terminal too small") {
				t.Errorf("no notice at %dx%d:\n%s", w, h, s)
			}
			if w >= 40 && !strings.Contains(flat, "60x15") {
				t.Errorf("notice does not say the minimum:\n%s", s)
			}
			// Growing back restores the browser.
			send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
			if s := screen(m); !strings.Contains(s, "gsm8k") || strings.Contains(s, "too small") {
				t.Errorf("browser not back at 80x24:\n%s", s)
			}
		})
	}
}
