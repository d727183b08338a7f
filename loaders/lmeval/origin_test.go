package lmeval

import (
	"reflect"
	"strings"
	"testing"

	"evalview/model"
)

// TestOrigin: every samples file says its task, model and run, whatever
// the folder holds: the model the results file names, else its folder's
// name as the harness sanitized it ("other__big-70b"), said in a note;
// the groups its task sits under, from group_subtasks.
func TestOrigin(t *testing.T) {
	dss, err := Open("../../testdata/lmeval/overview")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]model.Origin{}
	for _, ds := range dss {
		got[ds.Origin.Model+" "+ds.Origin.Task] = ds.Origin
	}
	b := got["org/base-7b mmlu_b"]
	if b.Run != "2025-06-01T10-00-00.000001" || !reflect.DeepEqual(b.Groups, []string{"mmlu"}) || b.Note != "" {
		t.Errorf("base mmlu_b %+v", b)
	}
	if g := got["org/tuned-7b gsm8k"]; g.Groups != nil || g.Run != "2025-06-02T10-00-00.000001" {
		t.Errorf("tuned gsm8k %+v", g)
	}
	big, ok := got["other/big-70b mmlu_a"]
	if !ok || !strings.Contains(big.Note, "other__big-70b") || big.Groups != nil {
		t.Errorf("big mmlu_a %+v (origins %v)", big, got)
	}
}

// TestResultsOnlyTasks: a results file alone reports its tasks and
// groups, each with the groups above it (nested: mmlu > mmlu_stem >
// mmlu_anatomy), for the overview.
func TestResultsOnlyTasks(t *testing.T) {
	dss, err := Open("../../testdata/lmeval/groups")
	if err != nil || len(dss) != 1 {
		t.Fatalf("%d datasets, %v", len(dss), err)
	}
	ds := dss[0]
	if ds.Origin.Model != "acme/tiny-1b" || ds.Origin.Run != "2025-06-06T06-06-06.000006" || ds.Origin.Task != "" {
		t.Errorf("origin %+v", ds.Origin)
	}
	by := map[string]model.TaskReport{}
	for _, r := range ds.Tasks {
		by[r.Task] = r
		if rec := ds.Records.Summary(r.Record); rec.ID != r.Task {
			t.Errorf("task %s names record %d, which is %s", r.Task, r.Record, rec.ID)
		}
	}
	if a := by["mmlu_anatomy"]; !reflect.DeepEqual(a.Groups, []string{"mmlu", "mmlu_stem"}) || a.Group || len(a.Metrics) == 0 {
		t.Errorf("mmlu_anatomy %+v", a)
	}
	if g := by["mmlu_stem"]; !g.Group || !reflect.DeepEqual(g.Groups, []string{"mmlu"}) {
		t.Errorf("mmlu_stem %+v", g)
	}
	if len(ds.Tasks) != ds.Records.Len() {
		t.Errorf("%d tasks for %d records", len(ds.Tasks), ds.Records.Len())
	}
}
