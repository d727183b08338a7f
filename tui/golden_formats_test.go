package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"evalview/loaders/sample"
	"evalview/loaders/testset"
	"evalview/model"
)

// Golden views of the Sample and testset formats, loaded by their real
// loaders from testdata: what a user sees of an agent transcript, a
// multimodal prompt, tool calls, a judged answer, and a pipeline test
// case with steps, a batch and an aggregation.

// formatCase opens one testdata file and puts the browser in a state.
type formatCase struct {
	name string
	// file is under testdata/; it must give one dataset.
	file  string
	setup func(m *Model)
	// want are strings the screen must show at 100x30 and wider.
	want []string
	// whole marks cases also snapshotted at 120x40, where one screen must
	// hold the whole view, wantWhole included.
	whole     bool
	wantWhole []string
}

var formatCases = []formatCase{
	{"sample_multimodal_prompt", "sample/multimodal.jsonl", func(m *Model) { press(m, "1") },
		[]string{"[image] inputs/apple_0001.png · detail: high", "(found)", "(missing)", "(remote)", "(inline data)", "What is shown?"}, false, nil},
	{"sample_tools_prompt", "sample/tools.jsonl", func(m *Model) { press(m, "1") },
		[]string{"tool call get_weather", `{"city":"Paris"}`, "answers call_1 (get_weather)", "Sunny, 22C"}, false, nil},
	{"sample_agent_responses", "sample/agent.jsonl", func(m *Model) { press(m, "2") },
		[]string{"prediction #1", "✓ pass", "search_flights", "answers c1 (search_flights)"}, true,
		[]string{"Booked UA 512", "judge_match", "verdict: correct", "prompt_tokens: 812"}},
	{"sample_agent_responses_raw", "sample/agent.jsonl", func(m *Model) { press(m, "2", "m", "tab", "G") },
		[]string{"**UA 512**", "`Q7X2LM`", "expected"}, false, nil},
	{"sample_agent_trajectories", "sample/agent.jsonl", func(m *Model) { press(m, "4") },
		[]string{"Golden trajectory 1", "book_flight", "answers g2 (book_flight)"}, false, nil},
	{"sample_judged_eval", "sample/judged.jsonl", func(m *Model) { press(m, "tab", "l", "l", "l") },
		[]string{"[4 Eval]", "Overall", "Metrics", "Judge"}, false, nil},
	{"testset_case", "testset/spec/ex4_full.jsonl", func(m *Model) { press(m, "1") },
		[]string{"[1 Case]", "dataset_id: customer_feedback_2024_q1", "step id", "load_data", "Batch items", "Great service"}, true,
		[]string{"total_feedback: 3", "overall_rating: excellent", "tolerance: 0.05", "ignore_fields"}},
	{"testset_case_unfolded", "testset/spec/ex4_full.jsonl", func(m *Model) { press(m, "tab", "1", "z") },
		[]string{"load_data", "2024-01-01"}, false, nil},
	{"testset_batch_aggregation", "testset/spec/ex3_batch.jsonl", func(m *Model) { press(m, "1") },
		[]string{"Batch items", "Expected aggregation"}, true,
		[]string{"Highly recommend", "average_rating: 3.4", "evaluate_aggregation: true (default)"}},
}

// TestGoldenFormats snapshots the format views at 100x30 and 60x15, and
// the whole-screen ones at 120x40; `go test ./tui -run TestGoldenFormats
// -update` rewrites testdata/TestGoldenFormats.
func TestGoldenFormats(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {60, 15}, {120, 40}} {
		w, h := size[0], size[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			for _, fc := range formatCases {
				if w == 120 && !fc.whole {
					continue
				}
				t.Run(fc.name, func(t *testing.T) {
					m := newTestModel(t, []*model.Dataset{openTestdata(t, fc.file)}, w, h)
					fc.setup(m)
					s := screen(m)
					checkFits(t, s, w, h)
					wants := fc.want
					if w == 120 {
						wants = append(wants, fc.wantWhole...)
					}
					if w >= 100 {
						for _, want := range wants {
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

// The 120x40 Case tab holds a whole pipeline case: nothing below the
// screen.
func TestTestsetCaseFitsOneScreen(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{openTestdata(t, "testset/spec/ex4_full.jsonl")}, 120, 40)
	press(m, "1")
	if mark := m.detail.ScrollMark(); mark != "" && mark != "end" {
		t.Errorf("the Case tab of a full pipeline case scrolls at 120x40:\n%s", screen(m))
	}
}

// The markdown toggle is per kind and survives moving between records.
func TestMarkdownToggle(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{openTestdata(t, "sample/agent.jsonl")}, 100, 30)
	press(m, "2", "tab", "G")
	if s := screen(m); strings.Contains(s, "**UA 512**") {
		t.Fatalf("Sample text starts raw; want markdown:\n%s", s)
	}
	press(m, "m", "G")
	if s := screen(m); !strings.Contains(s, "**UA 512**") {
		t.Errorf("m should show the raw text:\n%s", s)
	}
	press(m, "m", "G")
	if s := screen(m); strings.Contains(s, "**UA 512**") {
		t.Errorf("m again should render markdown:\n%s", s)
	}
}

// openTestdata opens testdata/<file> with its format's loader, and makes
// the absolute paths the loader resolves relative to testdata, so that
// goldens do not depend on where the repository lives.
func openTestdata(t *testing.T, file string) *model.Dataset {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, file)
	open := sample.Open
	if strings.HasPrefix(file, "testset/") {
		open = testset.Open
	}
	dss, err := open(path)
	if err != nil || len(dss) != 1 {
		t.Fatalf("open %s: %d datasets, %v", file, len(dss), err)
	}
	ds := dss[0]
	ds.Path = "testdata/" + file
	ds.Records = relIndex{Index: ds.Records, root: root}
	return ds
}

// relIndex rewrites root to "testdata" in the paths of the records it
// returns.
type relIndex struct {
	model.Index
	root string
}

func (x relIndex) Record(i int) (*model.Record, error) {
	r, err := x.Index.Record(i)
	if err != nil || r == nil {
		return r, err
	}
	rel := func(s string) string { return strings.ReplaceAll(s, x.root, "testdata") }
	fix := func(msgs []model.Message) {
		for i := range msgs {
			for j := range msgs[i].Segments {
				msgs[i].Segments[j].Resolved = rel(msgs[i].Segments[j].Resolved)
			}
		}
	}
	fix(r.Messages)
	for i := range r.Attempts {
		fix(r.Attempts[i].Messages)
	}
	for i := range r.Sections {
		fix(r.Sections[i].Messages)
	}
	for i := range r.Raw {
		r.Raw[i].File = rel(r.Raw[i].File)
	}
	for i := range r.Issues {
		r.Issues[i].File = rel(r.Issues[i].File)
		r.Issues[i].Message = rel(r.Issues[i].Message)
	}
	return r, nil
}
