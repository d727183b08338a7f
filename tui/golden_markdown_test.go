package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"evalview/loaders/lmeval"
	"evalview/model"
)

// Golden views of response text under the markdown toggle (m): an lm-eval
// response with LaTeX, a <think> block and the span each filter's regex
// matched (raw by default for lm-eval), and a run's attempts (markdown by
// default).

// lmevalTestdata opens testdata/lmeval/<dir> by the lm-eval loader, by a
// relative path so that goldens do not depend on where the repository is.
func lmevalTestdata(t *testing.T, dir string) *model.Dataset {
	t.Helper()
	dss, err := lmeval.Open(filepath.Join("..", "testdata", "lmeval", dir))
	if err != nil || len(dss) != 1 {
		t.Fatalf("open %s: %d datasets, %v", dir, len(dss), err)
	}
	return dss[0]
}

var markdownCases = []struct {
	name string
	ds   func(t *testing.T) *model.Dataset
	keys []string
	// want must show at 100x30; lack must not.
	want, lack []string
}{
	{"lmeval_responses_raw", func(t *testing.T) *model.Dataset { return lmevalTestdata(t, "two_filters") },
		[]string{"j", "j", "j", "2"},
		[]string{`<think>5 减 2 等于 3</think>`, `答案是 $\frac{6}{2}$ = 3`, "#### 3", "strict-match →", `matched "3"`}, nil},
	{"lmeval_responses_markdown", func(t *testing.T) *model.Dataset { return lmevalTestdata(t, "two_filters") },
		[]string{"j", "j", "j", "2", "m"},
		[]string{`<think>5 减 2 等于 3</think>`, `$\frac{6}{2}$`, "#### 3", "strict-match →", `matched "3"`},
		[]string{"not highlighted"}},
	{"run_responses_raw", func(t *testing.T) *model.Dataset { return runValidFixture() },
		[]string{"2", "m"},
		[]string{"#1 of 3", "**short** and to the point"}, nil},
}

// TestGoldenMarkdown snapshots responses raw and as markdown at 100x30
// and 60x15; `go test ./tui -run TestGoldenMarkdown -update` rewrites
// testdata/TestGoldenMarkdown.
func TestGoldenMarkdown(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {60, 15}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			for _, mc := range markdownCases {
				t.Run(mc.name, func(t *testing.T) {
					m := newTestModel(t, []*model.Dataset{mc.ds(t)}, w, h)
					press(m, mc.keys...)
					s := screen(m)
					checkFits(t, s, w, h)
					if w >= 100 {
						for _, want := range mc.want {
							if !strings.Contains(s, want) {
								t.Errorf("screen lacks %q:\n%s", want, s)
							}
						}
					}
					for _, lack := range mc.lack {
						if strings.Contains(s, lack) {
							t.Errorf("screen shows %q:\n%s", lack, s)
						}
					}
					golden.RequireEqual(t, s)
				})
			}
		})
	}
}
