package lmeval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"evalview/model"
)

// TestContinuousMainMetricHasNoStatus: truthfulqa_gen's main metric,
// bleu_max, is a sentence's BLEU from 0 to 100 (testdata/lmeval/
// sentence_scores): each row keeps its score and passes or fails
// nothing; the list, the header counts, export's status and the
// wrong-only filter all read these statuses. They were pass from 0.5 up.
func TestContinuousMainMetricHasNoStatus(t *testing.T) {
	dss, err := Open("../../testdata/lmeval/sentence_scores")
	if err != nil || len(dss) != 1 {
		t.Fatalf("%d datasets, %v", len(dss), err)
	}
	ds := dss[0]
	waitIndex(t, ds)
	if ds.MainMetric != "bleu_max" {
		t.Fatalf("main metric %q", ds.MainMetric)
	}
	scores := []float64{100, 24.3, 13.48, 0, 6.57}
	for i := 0; i < ds.Records.Len(); i++ {
		s := ds.Records.Summary(i)
		if s.Status != model.StatusUnscored || !s.HasScore || s.Score != scores[i] {
			t.Errorf("row %d: status %v, score %v", i, s.Status, s.Score)
		}
		rec, err := ds.Records.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		if st := rec.Filters[0].Status; st != model.StatusUnscored {
			t.Errorf("row %d's filter: status %v", i, st)
		}
	}
}

// TestStatusOnlyWhileBinary: a metric whose rows are 0 or 1 passes and
// fails them; the first row with another value (an f1 of 0.37) takes the
// pass or fail from every row, those listed before it included.
func TestStatusOnlyWhileBinary(t *testing.T) {
	write := func(vals ...float64) string {
		dir := t.TempDir()
		var b strings.Builder
		for i, v := range vals {
			fmt.Fprintf(&b, `{"doc_id": %d, "doc": {"q": "%d"}, "target": "x", "arguments": {"gen_args_0": {"arg_0": "q", "arg_1": {}}}, "resps": [["x"]], "filtered_resps": ["x"], "filter": "none", "metrics": ["f1"], "f1": %v}`+"\n", i, i, v)
		}
		path := filepath.Join(dir, "samples_squadish_2025-01-01T00-00-00.000001.jsonl")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	statuses := func(path string) []model.Status {
		dss, err := Open(path)
		if err != nil || len(dss) != 1 {
			t.Fatalf("%d datasets, %v", len(dss), err)
		}
		ds := dss[0]
		waitIndex(t, ds)
		var out []model.Status
		for i := 0; i < ds.Records.Len(); i++ {
			out = append(out, ds.Records.Summary(i).Status)
		}
		return out
	}
	if got := statuses(write(1, 0, 1)); fmt.Sprint(got) != fmt.Sprint([]model.Status{model.StatusPass, model.StatusFail, model.StatusPass}) {
		t.Errorf("0 or 1: %v", got)
	}
	if got := statuses(write(1, 0, 0.37, 1)); fmt.Sprint(got) != fmt.Sprint([]model.Status{model.StatusUnscored, model.StatusUnscored, model.StatusUnscored, model.StatusUnscored}) {
		t.Errorf("with 0.37: %v", got)
	}
}

// waitIndex waits for ds's index to be complete.
func waitIndex(t *testing.T, ds *model.Dataset) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ds.Records.Done() {
		if time.Now().After(deadline) {
			t.Fatal("index not complete")
		}
		time.Sleep(time.Millisecond)
	}
}
