package promptfoo

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders/internal/dump"
	"evalview/loaders/internal/folder"
	"evalview/model"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func open(t *testing.T, name string) []*model.Dataset {
	t.Helper()
	dss, err := Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return dss
}

// TestGolden: the first column of each shape, its list and every
// record's detail (read them like code).
func TestGolden(t *testing.T) {
	for _, name := range []string{"v3.json", "v3.jsonl", "v3.csv", "v2.json", "v1.json", "unversioned.json"} {
		t.Run(strings.ReplaceAll(name, ".", "_"), func(t *testing.T) {
			dss := open(t, name)
			var b strings.Builder
			for _, ds := range dss {
				b.WriteString(dump.Dataset(t, ds))
				for _, tr := range ds.Tasks {
					b.WriteString("task " + tr.Task)
					for _, m := range tr.Metrics {
						b.WriteString(" " + m.Name + "=" + model.FormatFloat(m.Value, 4))
					}
					b.WriteString("\n")
				}
				o := model.OriginOf(ds)
				b.WriteString("origin model=" + o.Model + " run=" + o.Run)
				for _, c := range o.Config {
					b.WriteString(" " + c.Key + "=" + c.Value)
				}
				b.WriteString("\n\n")
				if name != "v3.json" {
					break // one column is enough for the older shapes
				}
			}
			dump.Check(t, *update, "list_and_detail", b.String())
		})
	}
}

// TestShapesAgree: every shape of the same eval gives the same columns,
// tests, statuses and scores (the older ones without what they did not
// write).
func TestShapesAgree(t *testing.T) {
	type key struct{ col, id string }
	want := map[key]model.Summary{}
	for _, ds := range open(t, "v3.json") {
		for i := 0; i < ds.Records.Len(); i++ {
			s := ds.Records.Summary(i)
			want[key{ds.Title, s.ID}] = s
		}
	}
	if len(want) != 12 {
		t.Fatalf("v3: %d cells, want 12", len(want))
	}
	for _, name := range []string{"v3.jsonl", "v2.json", "v3.csv"} {
		n := 0
		for _, ds := range open(t, name) {
			for i := 0; i < ds.Records.Len(); i++ {
				s := ds.Records.Summary(i)
				w, ok := want[key{ds.Title, s.ID}]
				if name == "v2.json" && w.Status == model.StatusError {
					w.Status = model.StatusFail // version 2 had no failureReason: an error was a failure
				}
				if name == "v3.csv" {
					// The CSV writer rounds scores to two decimals.
					w.Score = math.Round(w.Score*100) / 100
				}
				if !ok || w.Status != s.Status || w.Score != s.Score || w.HasScore != s.HasScore || w.Title != s.Title {
					t.Errorf("%s: %s %s: %v %v %v, v3 has %v %v %v", name, ds.Title, s.ID, s.Status, s.Score, s.Title, w.Status, w.Score, w.Title)
				}
				n++
			}
		}
		if n != len(want) {
			t.Errorf("%s: %d cells, want %d", name, n, len(want))
		}
	}
}

// TestRecomputed: every reported metric of every shape is recomputed
// from the results and equals the writer's; a file whose metrics were
// changed says where.
func TestRecomputed(t *testing.T) {
	for _, name := range []string{"v3.json", "v3.jsonl", "v2.json", "v1.json", "unversioned.json"} {
		for _, ds := range open(t, name) {
			for _, is := range ds.Issues {
				t.Errorf("%s: %s", name, is)
			}
			for _, c := range model.RecomputeMetrics(ds) {
				if c.HasReport && !c.HasSamples {
					t.Errorf("%s %s: %s/%s not recomputed", name, ds.Title, c.Filter, c.Name)
				}
				if c.Differs() {
					t.Errorf("%s %s: %s/%s: %v vs %v", name, ds.Title, c.Filter, c.Name, c.Samples, c.Reported)
				}
			}
		}
	}
	var differs []string
	for _, ds := range open(t, "differs.json") {
		for _, is := range ds.Issues {
			if is.Code == "metric-differs" {
				differs = append(differs, is.Message)
			}
		}
	}
	if len(differs) != 2 || !strings.Contains(differs[0], "score") || !strings.Contains(differs[1], "successes") {
		t.Errorf("differs.json: %q", differs)
	}
}

// TestErrorStatus: a result that failed by an error is an error, not a
// fail; its message is the attempt's error.
func TestErrorStatus(t *testing.T) {
	ds := open(t, "v3.json")[1] // gpt-4o-mini on the chat prompt
	r, err := ds.Records.Record(2)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != model.StatusError || r.Attempts[0].Error != "API error: 529 overloaded" {
		t.Errorf("%s: %v %q", ds.Title, r.Status, r.Attempts[0].Error)
	}
	if len(r.Messages) != 2 || r.Messages[0].Role != model.RoleSystem {
		t.Errorf("the chat prompt is not its messages: %+v", r.Messages)
	}
}

// TestSniff: promptfoo's shapes score 3; an lm-eval results file, an
// Inspect-like log and plain JSON Lines score 0.
func TestSniff(t *testing.T) {
	for _, name := range []string{"v3.json", "v3.jsonl", "v3.csv", "v2.json", "v1.json", "unversioned.json", "eval_object.json"} {
		head, err := folder.ReadHead(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if got := SniffFile(name, head); got != 3 {
			t.Errorf("SniffFile(%s) = %d, want 3", name, got)
		}
	}
	for _, c := range []struct{ name, head string }{
		{"results.json", `{"results": {"gsm8k": {"acc,none": 0.5}}, "config": {}}`},
		{"log.json", `{"version": 2, "status": "success", "eval": {"run_id": "x"}, "results": {"scores": []}}`},
		{"x.jsonl", `{"prompt": "a", "output": "b"}` + "\n"},
		{"x.jsonl", `{"promptIdx": 0}` + "\n"},
		{"list.json", `[{"prompt": "a", "output": "b", "body": "c"}]`},
		{"scores.csv", "id,Status,Score\n1,PASS,1\n"},
	} {
		if got := SniffFile(c.name, []byte(c.head)); got != 0 {
			t.Errorf("SniffFile(%s, %q) = %d, want 0", c.name, c.head, got)
		}
	}
}

// TestSniffDir: a folder of exports is promptfoo's whole (3, above
// lm-eval's 2 for any JSON with "results"); beside another JSON file it
// is only likely (1); without one, not promptfoo's.
func TestSniffDir(t *testing.T) {
	names, err := folder.Names("testdata")
	if err != nil {
		t.Fatal(err)
	}
	if got := SniffDir("testdata", names); got != 3 {
		t.Errorf("SniffDir(testdata) = %d, want 3", got)
	}
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("testdata", "v3.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"out.json": string(data), "results_2025.json": `{"results": {"gsm8k": {"acc,none": 1}}}`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := SniffDir(dir, []string{"out.json", "results_2025.json"}); got != 1 {
		t.Errorf("SniffDir(mixed) = %d, want 1", got)
	}
	if got := SniffDir(dir, []string{"results_2025.json"}); got != 0 {
		t.Errorf("SniffDir(lm-eval) = %d, want 0", got)
	}
	dss, err := Open(dir)
	if err != nil || len(dss) != 4 {
		t.Errorf("Open(mixed folder): %d datasets, %v; want the export's 4", len(dss), err)
	}
}
