package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders/notes"
	"evalview/model"
)

// guardFixture is an lm-eval-like dataset (samples + results files) and a
// run-folder dataset in a temporary folder.
func guardFixture(t *testing.T) (dir string, lm, run *model.Dataset) {
	t.Helper()
	dir = t.TempDir()
	samples := filepath.Join(dir, "samples_x.jsonl")
	results := filepath.Join(dir, "results_x.json")
	folder := filepath.Join(dir, "run")
	os.MkdirAll(folder, 0o755)
	for p, c := range map[string]string{samples: `{"doc_id":0}` + "\n", results: "{\n}\n", filepath.Join(folder, "a.json"): "{}\n"} {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lm = &model.Dataset{Path: samples, Title: "x", Records: model.NewMemIndex(nil), Companions: []string{results}}
	run = &model.Dataset{Path: folder, Title: "run", Records: model.NewMemIndex(nil)}
	return dir, lm, run
}

func TestNotesPathThatIsADatasetFileIsRefused(t *testing.T) {
	dir, lm, run := guardFixture(t)
	cases := []struct {
		name, path string
		ds         *model.Dataset
		want       string
	}{
		{"artifact", lm.Path, lm, "is the artifact itself"},
		{"artifact relative", filepath.Join(dir, ".", "..", filepath.Base(dir), "samples_x.jsonl"), lm, "is the artifact itself"},
		{"results file", filepath.Join(dir, "results_x.json"), lm, "a file the dataset was read from"},
		{"file in a run folder", filepath.Join(run.Path, "a.json"), run, "inside the artifact folder"},
		{"new file in a run folder", filepath.Join(run.Path, "notes.jsonl"), run, "inside the artifact folder"},
		{"the run folder", run.Path, run, "is the artifact itself"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := *c.ds
			ds.Issues = nil
			o := &noteOpener{path: c.path}
			if s := o.tuiNotes(&ds); s != nil {
				t.Fatalf("notes store opened over %s", c.path)
			}
			if len(ds.Issues) != 1 || ds.Issues[0].Code != "notes-unusable" || !strings.Contains(ds.Issues[0].Message, c.want) {
				t.Errorf("issues %v, want notes-unusable %q", ds.Issues, c.want)
			}
			if _, err := o.open(&ds).Set("0", []string{"x"}, ""); err == nil {
				t.Error("Set on refused notes reported no error")
			}
		})
	}
	if b, _ := os.ReadFile(lm.Path); string(b) != `{"doc_id":0}`+"\n" {
		t.Errorf("the artifact changed: %q", b)
	}
}

func TestSharedNotesRefusedWhenALaterDatasetOwnsTheFile(t *testing.T) {
	_, lm, run := guardFixture(t)
	o := &noteOpener{path: filepath.Join(run.Path, "notes.jsonl")}
	first := o.tuiNotes(lm)
	if first == nil {
		t.Fatal("the first dataset got no notes")
	}
	if o.tuiNotes(run) != nil {
		t.Fatal("the run folder's own file became its notes")
	}
	if _, err := first.Set("0", []string{"x"}, ""); err == nil || !strings.Contains(err.Error(), "inside the artifact folder") {
		t.Errorf("write into a run folder: err %v", err)
	}
	if _, err := os.Stat(filepath.Join(run.Path, "notes.jsonl")); err == nil {
		t.Error("a notes file was written inside the run folder")
	}
}

func TestExportRefusesDatasetFilesNotesAndExistingFiles(t *testing.T) {
	dir, lm, run := guardFixture(t)
	o := &noteOpener{}
	export := exportFile(o)
	sidecar := notes.SidecarPath(lm.Path)
	os.WriteFile(sidecar, []byte(`{"artifact":"samples_x.jsonl","id":"0","labels":["x"]}`+"\n"), 0o644)
	existing := filepath.Join(dir, "old.jsonl")
	os.WriteFile(existing, []byte("keep\n"), 0o644)
	cases := []struct {
		name, path string
		ds         *model.Dataset
		want       string
	}{
		{"artifact", lm.Path, lm, "artifact itself"},
		{"results file", filepath.Join(dir, "results_x.json"), lm, "read from"},
		{"run folder file", filepath.Join(run.Path, "a.json"), run, "inside the artifact folder"},
		{"new file in run folder", filepath.Join(run.Path, "out.jsonl"), run, "inside the artifact folder"},
		{"notes sidecar", sidecar, lm, "is the notes file"},
		{"existing file", existing, lm, "already exists; choose another name or delete it"},
	}
	before := snapshot(t, dir)
	for _, c := range cases {
		if _, err := export(c.path, c.ds, nil, 0, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.name, err, c.want)
		}
	}
	if after := snapshot(t, dir); len(after) != len(before) {
		t.Errorf("files changed: %d before, %d after", len(before), len(after))
	} else {
		for p, st := range before {
			if after[p].sum != st.sum {
				t.Errorf("%s changed", p)
			}
		}
	}
	out := filepath.Join(dir, "out.jsonl")
	if _, err := export(out, lm, nil, 0, nil); err != nil {
		t.Fatalf("export to a new file: %v", err)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("export wrote nothing: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
}
