package tui

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"evalview/loaders"
	"evalview/model"
)

// traceEvents reads the JSON lines of a trace file.
func traceEvents(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("trace line %q is not JSON: %v", sc.Text(), err)
		}
		out = append(out, ev)
	}
	return out
}

func TestTraceFirstRowsAndIndexed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	t.Setenv(TraceEnv, path)
	base := lmevalFixture()
	idx := &growingIndex{recs: base.Records.(*model.MemIndex).Recs}
	base.Records = idx
	m := newTestModel(t, []*model.Dataset{base}, 100, 30)
	_ = screen(m)
	if _, err := os.Stat(path); err == nil && len(traceEvents(t, path)) > 0 {
		t.Fatalf("no event is due before rows show: %v", traceEvents(t, path))
	}
	idx.grow(3, false)
	send(m, indexTickMsg{})
	_ = screen(m)
	idx.grow(6, true)
	send(m, indexTickMsg{})
	_ = screen(m)
	_ = screen(m) // a second frame must not repeat the events

	evs := traceEvents(t, path)
	if len(evs) < 2 {
		t.Fatalf("want first_rows and indexed, got %v", evs)
	}
	var names []string
	for _, ev := range evs {
		if ev["event"] != "record_open" && ev["event"] != "record_shown" {
			names = append(names, ev["event"].(string))
		}
		if ms, ok := ev["ms"].(float64); !ok || ms < 0 {
			t.Errorf("event without a time: %v", ev)
		}
	}
	if len(names) != 2 || names[0] != "first_rows" || names[1] != "indexed" {
		t.Fatalf("events %v, want [first_rows indexed] once each", names)
	}
	for _, ev := range evs {
		switch ev["event"] {
		case "first_rows":
			if ev["records"] != 3.0 {
				t.Errorf("first_rows with %v records, want 3", ev["records"])
			}
		case "indexed":
			if ev["records"] != 6.0 {
				t.Errorf("indexed with %v records, want 6", ev["records"])
			}
		case "record_open":
			if _, ok := ev["took_ms"].(float64); !ok {
				t.Errorf("record_open without took_ms: %v", ev)
			}
		}
	}
}

func TestTraceOffWithoutEnv(t *testing.T) {
	t.Setenv(TraceEnv, "")
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 30)
	_ = screen(m)
	if m.trace == nil || m.trace.f != nil {
		t.Fatal("without EVALVIEW_TRACE the tracer must write nothing")
	}
}

// TestBackgroundLMEvalSyncs opens a real lm-eval folder the way the
// browser does (in the background) and checks that the dataset's filters
// and main metric reach the panes once the index is done.
func TestBackgroundLMEvalSyncs(t *testing.T) {
	dir := filepath.Join("..", "testdata", "demo", "lm_eval")
	ds, err := loaders.Open([]string{dir}, loaders.Options{Background: true})
	if err != nil || len(ds) == 0 {
		t.Fatalf("open: %v", err)
	}
	m := newTestModel(t, ds, 100, 30)
	for _, d := range ds {
		if w, ok := d.Records.(interface{ Wait() error }); ok {
			_ = w.Wait()
		}
	}
	send(m, indexTickMsg{})
	for _, d := range ds {
		if _, samples := d.Records.(interface{ Wait() error }); d.Kind != model.KindLMEval || !samples {
			continue
		}
		if len(d.Filters) == 0 || d.MainMetric == "" {
			t.Errorf("%s: filters %v, main metric %q after the index is done", d.Title, d.Filters, d.MainMetric)
		}
	}
	if len(m.list.Visible()) != ds[m.cur].Records.Len() || len(m.list.Visible()) == 0 {
		t.Errorf("list shows %d of %d records", len(m.list.Visible()), ds[m.cur].Records.Len())
	}
}
