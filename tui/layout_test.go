package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"evalview/tui/header"
	"evalview/tui/styles"
	"evalview/tui/ui"
)

func TestComputeLayout(t *testing.T) {
	tests := []struct {
		name           string
		w, h           int
		tooSmall       bool
		stacked        bool
		headerLines    int
		rule           bool
		listH, detailH int
		listW, detailW int
	}{
		{name: "zero", w: 0, h: 0, tooSmall: true},
		{name: "tiny", w: 10, h: 3, tooSmall: true},
		{name: "one short", w: 59, h: 15, tooSmall: true},
		{name: "one low", w: 60, h: 14, tooSmall: true},
		{name: "minimum", w: 60, h: 15, stacked: true, headerLines: 2, listH: 4, detailH: 7, listW: 60, detailW: 60},
		{name: "80x24", w: 80, h: 24, stacked: true, headerLines: 3, rule: true, listH: 7, detailH: 11, listW: 80, detailW: 80},
		{name: "100x30", w: 100, h: 30, headerLines: 3, rule: true, listH: 24, detailH: 24, listW: 40, detailW: 59},
		{name: "250x80", w: 250, h: 80, headerLines: 4, rule: true, listH: 73, detailH: 73, listW: 90, detailW: 159},
		{name: "wide but low", w: 200, h: 15, headerLines: 2, listH: 11, detailH: 11, listW: 80, detailW: 119},
		{name: "narrow but tall", w: 60, h: 80, stacked: true, headerLines: 4, rule: true, listH: 29, detailH: 44, listW: 60, detailW: 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := ComputeLayout(tt.w, tt.h)
			if l.TooSmall != tt.tooSmall {
				t.Fatalf("TooSmall = %v, want %v", l.TooSmall, tt.tooSmall)
			}
			if l.TooSmall {
				return
			}
			if l.Stacked != tt.stacked || l.HeaderLines != tt.headerLines || l.HeaderRule != tt.rule {
				t.Errorf("stacked %v header %d rule %v, want %v %d %v", l.Stacked, l.HeaderLines, l.HeaderRule, tt.stacked, tt.headerLines, tt.rule)
			}
			if l.List.H != tt.listH || l.Detail.H != tt.detailH || l.List.W != tt.listW || l.Detail.W != tt.detailW {
				t.Errorf("list %dx%d detail %dx%d, want %dx%d and %dx%d", l.List.W, l.List.H, l.Detail.W, l.Detail.H, tt.listW, tt.listH, tt.detailW, tt.detailH)
			}
			// Every row of the screen belongs to exactly one part.
			rows := l.Header.H + l.Status.H + l.Help.H + l.Body.H
			if rows != tt.h {
				t.Errorf("rows add up to %d, want %d", rows, tt.h)
			}
			if l.Stacked {
				if l.List.H+l.Detail.H != l.Body.H || l.Detail.Y != l.List.Y+l.List.H {
					t.Errorf("stacked panes do not fill the body: %+v %+v %+v", l.List, l.Detail, l.Body)
				}
			} else if l.List.W+l.Divider.W+l.Detail.W != tt.w || l.Detail.X != l.List.W+1 {
				t.Errorf("side-by-side panes do not fill the width: %+v %+v", l.List, l.Detail)
			}
			// Each pane has its heading plus at least two rows.
			if l.List.H < 3 || l.Detail.H < 3 {
				t.Errorf("pane too small: list %d detail %d", l.List.H, l.Detail.H)
			}
			if l.Status.Y != tt.h-2 || l.Help.Y != tt.h-1 {
				t.Errorf("status %d help %d", l.Status.Y, l.Help.Y)
			}
		})
	}
}

func TestRectContains(t *testing.T) {
	r := Rect{X: 2, Y: 3, W: 4, H: 2}
	for _, c := range []struct {
		x, y int
		in   bool
	}{{2, 3, true}, {5, 4, true}, {6, 4, false}, {1, 3, false}, {2, 5, false}} {
		if got := r.Contains(c.x, c.y); got != c.in {
			t.Errorf("Contains(%d,%d) = %v", c.x, c.y, got)
		}
	}
}

// The header reads its lines and rule from the height the layout gives.
func TestHeaderSizeFromLayout(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	hp := header.New(ui.NewCommon(styles.New(true)), header.Sources{})
	for h := MinHeight; h <= 60; h++ {
		l := ComputeLayout(100, h)
		hp.SetSize(l.Header.W, l.Header.H)
		lines := strings.Split(ansi.Strip(hp.View()), "\n")
		rule := strings.HasPrefix(lines[len(lines)-1], "──")
		if len(lines) != l.HeaderLines+btoi(l.HeaderRule) || rule != l.HeaderRule {
			t.Errorf("height %d: header %d lines rule %v, layout %d lines rule %v", h, len(lines), rule, l.HeaderLines, l.HeaderRule)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
