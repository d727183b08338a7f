package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"evalview/model"
)

// roomCase is one room drawn alone: the browser over datasets, put in a
// state by setup, and the room's own rectangle (view).
type roomCase struct {
	name     string
	datasets func() []*model.Dataset
	setup    func(m *Model)
	view     func(m *Model) string
	// want are strings the room must show at both sizes.
	want []string
}

// sheetView is the open sheet's rectangle.
func sheetView(m *Model) string { return m.sheets.top().View() }

var roomCases = []roomCase{
	// Panes.
	{"header", allFixtures, func(*Model) {}, func(m *Model) string { return m.header.View() },
		[]string{"gsm8k", "lm-eval · 6 records", "▸strict-match exact_match"}},
	{"header_compact", runFixtures, func(*Model) {}, func(m *Model) string { return m.header.View() },
		[]string{"completed", "mean 8.48 · 4 ≥ 8.5"}},
	{"list", allFixtures, func(m *Model) { press(m, "j") }, func(m *Model) string { return m.list.View() },
		[]string{"question", "exact_match", "▸"}},
	{"list_run", runFixtures, func(*Model) {}, func(m *Model) string { return m.list.View() },
		[]string{"category", "score"}},
	{"detail", allFixtures, func(m *Model) { press(m, "j", "tab", "3") }, func(m *Model) string { return m.detail.View() },
		[]string{"[3 Filters]", "Target: 3", "id 1"}},
	{"status", allFixtures, func(m *Model) { press(m, "x") }, func(m *Model) string { return m.status.View(m.statusInfo()) },
		[]string{"1/2 of 6", "filter strict-match", "wrong only"}},
	{"input", allFixtures, func(m *Model) { press(m, ":"); typeText(m, "status=") }, func(m *Model) string { return m.inputView() },
		[]string{":status="}},
	// Sheets.
	{"facts", runFixtures, func(m *Model) { press(m, "i") }, sheetView, []string{"Run 2026-04-07_101500", "endpoint"}},
	{"scores", runFixtures, func(m *Model) { press(m, "v") }, sheetView, []string{"Score distribution", "at or above 8.5"}},
	{"facets", allFixtures, func(m *Model) { press(m, "F") }, sheetView, []string{"Facets of 6 records", "[status]"}},
	{"columns", allFixtures, func(m *Model) { press(m, "c") }, sheetView, []string{"List columns", "[x] id"}},
	{"slice", compareFixtures, func(m *Model) { press(m, "V") }, sheetView, []string{"Slices", "count"}},
	{"filters", compareFixtures, func(m *Model) { press(m, "v") }, sheetView, []string{"A strict-match", "both"}},
	{"pairs", compareFixtures, func(m *Model) { press(m, "C") }, sheetView, []string{"Compare runs", "Flips"}},
	{"pairs_scored", compareFixtures, func(m *Model) { press(m, ">", ">", "C") }, sheetView, []string{"Compare runs", "By largest change"}},
	{"keyhelp", allFixtures, func(m *Model) { press(m, "?") }, sheetView, []string{"Keys", "Move"}},
	{"datasets", allFixtures, func(m *Model) { press(m, "D") }, sheetView, []string{"Datasets", "▸ 1  gsm8k"}},
	{"overview", func() []*model.Dataset { return overviewFixtures(3) }, func(m *Model) { press(m, "T") }, sheetView,
		[]string{"Overview", "▾ mmlu", "worst task"}},
	{"runs", func() []*model.Dataset { return overviewFixtures(3) }, func(m *Model) { press(m, "T", "j", "j", "C") }, sheetView,
		[]string{"Compare runs", "Agreement"}},
}

func runFixtures() []*model.Dataset { return []*model.Dataset{runValidFixture()} }

// TestGoldenRooms snapshots each pane and sheet alone (ANSI stripped),
// in the rectangle the layout gives it at 80x24 and 200x50, beside the
// whole screens of the other golden tests: a change to one room shows
// in its own file. `go test ./tui -run TestGoldenRooms -update` rewrites
// testdata/TestGoldenRooms.
func TestGoldenRooms(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			for _, rc := range roomCases {
				t.Run(rc.name, func(t *testing.T) {
					m := newTestModel(t, rc.datasets(), w, h)
					rc.setup(m)
					s := ansi.Strip(rc.view(m))
					for _, l := range strings.Split(s, "\n") {
						if lw := ansi.StringWidth(l); lw > w {
							t.Errorf("a line is %d cells wide (> %d): %q", lw, w, l)
						}
					}
					for _, want := range rc.want {
						if !strings.Contains(s, want) {
							t.Errorf("%s lacks %q:\n%s", rc.name, want, s)
						}
					}
					golden.RequireEqual(t, s)
				})
			}
		})
	}
}
