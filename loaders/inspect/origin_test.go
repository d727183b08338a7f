package inspect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/model"
)

// TestOriginRun: a log's run is its creation time, which the overview
// and the picker show and tell two runs of one task apart by.
func TestOriginRun(t *testing.T) {
	dss, err := Open(filepath.Join(fixtureDir, "capitals.json"))
	if err != nil || len(dss) != 1 {
		t.Fatalf("%d datasets, %v", len(dss), err)
	}
	if o := model.OriginOf(dss[0]); o.Run != "2025-07-05T09:59:00+00:00" || model.RunTime(o.Run) != "2025-07-05 09:59 UTC" || o.Model != "openai/gpt-4o-mini" {
		t.Errorf("origin %+v", o)
	}
}

// TestOpenFolderOfDatedFolders: a log folder whose logs sit in dated
// subfolders opens every log, not only its own files' (issue 29).
func TestOpenFolderOfDatedFolders(t *testing.T) {
	root := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "inspect", "capitals.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"2025-06-10/a.json", "2025-06-11/b.json", "top.json", ".git/c.json"} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dss, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ds := range dss {
		r, _ := filepath.Rel(root, ds.Path)
		got = append(got, filepath.ToSlash(r))
	}
	if want := "2025-06-10/a.json 2025-06-11/b.json top.json"; strings.Join(got, " ") != want {
		t.Errorf("opened %q, want %s", got, want)
	}
}
