package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// goldenName files a snapshot under testdata/TestGolden/<size>/<name>
// beside the browser's other goldens, although it runs in its own test
// (the comparison views need their own fixtures).
type goldenName struct {
	testing.TB
	name string
}

// Name is the golden file's path under testdata, without extension.
func (g goldenName) Name() string { return g.name }

// compareGoldenCases snapshot the comparison views over compareFixtures.
var compareGoldenCases = []goldenCase{
	{"compare_filters", func(m *Model) { press(m, "v") }, []string{"Compare filters", "strict-match", "pass@4", "only B", "1 doc flagged by the deep check (1 reextract-mismatch)"}},
	{"compare_filters_cell", func(m *Model) { press(m, "v", "B", "j", "j") }, []string{"B maj@4", "▸"}},
	{"compare_pinned", func(m *Model) { press(m, "v", "j", "j", "enter") }, []string{"1/3 of 8", "pinned: strict-match ✗ flexible-extract ✓"}},
	{"votes", func(m *Model) { press(m, "j", "j", "tab", "3") }, []string{"Votes · maj@4 (4 repeats)", "◂ chosen", "re-extracted", "repeats ✓"}},
	{"responses_spans", func(m *Model) { press(m, "j", "tab", "2") }, []string{"no match for strict-match", "flexible-extract →"}},
	{"responses_mismatch", func(m *Model) { press(m, "G", "tab", "2") }, []string{"reextract-mismatch: strict-match logged \"13\""}},
	{"slices", func(m *Model) { press(m, "V") }, []string{"Slices", "agreement", "Extracted answers under strict-match", "Targets"}},
	{"slices_subject", func(m *Model) { press(m, "V", "s", "s") }, []string{"by subject", "algebra"}},
	{"runs_lmeval", func(m *Model) { press(m, "C") }, []string{"Compare runs", "gsm8k tuned", "Flips (4)"}},
	{"runs_scored", func(m *Model) { press(m, ">", ">", "C") }, []string{"run-b", "+3.00", "By largest change"}},
}

// TestGoldenCompare snapshots the comparison views at 100x30 and 60x15;
// `go test ./tui -run TestGolden -update` rewrites them.
func TestGoldenCompare(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {60, 15}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			for _, gc := range compareGoldenCases {
				t.Run(gc.name, func(t *testing.T) {
					m := newTestModel(t, compareFixtures(), w, h)
					gc.setup(m)
					s := screen(m)
					checkFits(t, s, w, h)
					if w >= 100 {
						for _, want := range gc.want {
							if !strings.Contains(s, want) {
								t.Errorf("screen lacks %q:\n%s", want, s)
							}
						}
					}
					golden.RequireEqual(goldenName{t, fmt.Sprintf("TestGolden/%dx%d/%s", w, h, gc.name)}, s)
				})
			}
		})
	}
}
