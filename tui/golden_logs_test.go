package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"evalview/loaders"
	"evalview/model"
)

// Golden screens of the Inspect and lighteval formats, opened through
// the loaders' registry as the browser opens them (their Presentation
// applied): the list and each detail tab a user reads, at 100x30 and
// 60x15. Nothing in tui knows these formats; these screens show what
// their loaders describe.

var logCases = []formatCase{
	{"inspect_prompt", "inspect/capitals_zstd.eval", func(m *Model) { press(m, "1") },
		[]string{"capitals", "inspect · 3 records", "What is the capital of France?", "[1 Prompt]", "Messages"}, false, nil},
	{"inspect_responses", "inspect/capitals_zstd.eval", func(m *Model) { press(m, "j", "2") },
		[]string{"#2 of 2", "Cusco", "limit: message"}, false, nil},
	{"inspect_messages", "inspect/capitals_zstd.eval", func(m *Model) { press(m, "3") },
		[]string{"messages, epoch 1", "Answer with one word.", "tool call lookup", "answers call_1 (lookup)"}, false, nil},
	{"inspect_scores", "inspect/capitals_zstd.eval", func(m *Model) { press(m, "4") },
		[]string{"explanation", "compared Paris"}, false, nil},
	{"inspect_transcript", "inspect/capitals_zstd.eval", func(m *Model) { press(m, "6") },
		[]string{"transcript, epoch 1: solvers", "tool lookup"}, false, nil},
	{"inspect_error", "inspect/capitals_zstd.eval", func(m *Model) { press(m, "j", "j", "2") },
		[]string{"sandbox died"}, false, nil},
	{"lighteval_prompt", "demo/lighteval/details/acme/tiny-1b/2025-07-05T09-59-00.123456/details_arc-challenge_0_2025-07-05T09-59-00.123456.parquet",
		func(m *Model) { press(m, "1") },
		[]string{"lighteval · 2 records", "carbon dioxide ✓ correct", "acc_norm"}, false, nil},
	{"lighteval_responses", "demo/lighteval/details/acme/tiny-1b/2025-07-05T09-59-00.123456/details_gsm8k_5_2025-07-05T09-59-00.123456.parquet",
		func(m *Model) { press(m, "2") },
		[]string{"gsm8k_5", "72"}, false, nil},
}

// TestGoldenLogs snapshots the Inspect and lighteval screens; `go test
// ./tui -run TestGoldenLogs -update` rewrites testdata/TestGoldenLogs.
func TestGoldenLogs(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {60, 15}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			for _, lc := range logCases {
				t.Run(lc.name, func(t *testing.T) {
					m := newTestModel(t, []*model.Dataset{openLog(t, lc.file)}, w, h)
					lc.setup(m)
					s := screen(m)
					checkFits(t, s, w, h)
					if w >= 100 {
						for _, want := range lc.want {
							if !strings.Contains(s, want) {
								t.Errorf("screen lacks %q:\n%s", want, s)
							}
						}
					}
					golden.RequireEqual(t, s)
				})
			}
		})
	}
}

// openLog opens testdata/<file> through the loaders' registry, with the
// paths it resolves made relative to testdata.
func openLog(t *testing.T, file string) *model.Dataset {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	dss, err := loaders.Open([]string{filepath.Join(root, file)}, loaders.Options{})
	if err != nil || len(dss) != 1 {
		t.Fatalf("open %s: %d datasets, %v", file, len(dss), err)
	}
	ds := dss[0]
	ds.Path = "testdata/" + file
	for i := range ds.Facts {
		ds.Facts[i].Value = strings.ReplaceAll(ds.Facts[i].Value, root, "testdata")
	}
	ds.Records = relIndex{Index: ds.Records, root: root}
	return ds
}
