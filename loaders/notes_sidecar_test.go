package loaders

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders/notes"
)

// copyFiles copies the regular files of src into a new folder.
func copyFiles(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestNotesSidecarIsNoDataset: the notes file the browser writes beside
// an artifact (<artifact>.evalview-notes.jsonl) is never opened as a
// dataset of the folder. An lm-eval samples file's sidecar starts with
// "samples_" and ends in .jsonl, which the folder scan took at its word:
// after labelling, the folder gained a dataset with hundreds of errors
// (check failed) and the overview a bogus task.
func TestNotesSidecarIsNoDataset(t *testing.T) {
	note := `{"artifact":"x","id":"0","labels":["extraction bug"],"note":"","edited":"2026-11-27T09:00:00Z"}` + "\n"
	for _, src := range []string{"../testdata/lmeval/overview/org__base-7b", "../testdata/jsonl", "../testdata/sample"} {
		t.Run(filepath.Base(src), func(t *testing.T) {
			dir := copyFiles(t, src)
			before, _ := Open([]string{dir}, Options{})
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if strings.HasSuffix(e.Name(), ".jsonl") {
					if err := os.WriteFile(filepath.Join(dir, e.Name()+notes.Suffix), []byte(note), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			after, _ := Open([]string{dir}, Options{})
			if len(after) != len(before) || len(before) == 0 {
				t.Errorf("%d datasets without notes files, %d with them", len(before), len(after))
			}
			for _, ds := range after {
				if strings.HasSuffix(ds.Path, notes.Suffix) {
					t.Errorf("a notes file opened as a %s dataset: %s", ds.Kind, ds.Path)
				}
			}
		})
	}
}
