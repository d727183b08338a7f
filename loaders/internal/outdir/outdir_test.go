package outdir

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"evalview/internal/testos"
	"evalview/model"
)

func TestStamp(t *testing.T) {
	for name, want := range map[string]string{
		"20250301_101500": "2025-03-01T10:15:00",
		"2025031_101500":  "2025031_101500",
		"20250301-101500": "20250301-101500",
		"default":         "default",
		"":                "",
	} {
		if got := Run(name); got != want {
			t.Errorf("Run(%q) = %q, want %q", name, got, want)
		}
		if IsStamp(name) != (name == "20250301_101500") {
			t.Errorf("IsStamp(%q) = %v", name, IsStamp(name))
		}
	}
}

// tree makes files (paths ending in "/" are folders) under a new folder.
func tree(t *testing.T, paths ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, p := range paths {
		full := filepath.Join(root, filepath.FromSlash(p))
		if p[len(p)-1] == '/' {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestLayout: a run folder's entries (hidden ones left out), its model
// folders' files, and the run folders among a folder's entries, as
// EvalScope's and OpenCompass's loaders read them.
func TestLayout(t *testing.T) {
	root := tree(t,
		"out/20250301_101500/predictions/m-b/x.json", "out/20250301_101500/predictions/m-b/y.jsonl",
		"out/20250301_101500/predictions/m-a/x.json", "out/20250301_101500/predictions/m-a/sub/",
		"out/20250301_101500/predictions/.ipynb_checkpoints/x.json", "out/20250301_101500/results/m-a/x.json",
		"out/20250302_000000/notes.txt", "out/default/results/", "out/.hidden", "out/a-b", "out/a/")
	out := filepath.Join(root, "out")
	names, err := Entries(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"20250301_101500/", "20250302_000000/", "a-b", "a/", "default/"}; !reflect.DeepEqual(names, want) {
		t.Errorf("Entries = %q, want %q", names, want)
	}
	isRun := func(names []string) bool { return slices.Contains(names, "results/") }
	if got, want := StampFolders(out, names, isRun), []string{filepath.Join(out, "20250301_101500")}; !reflect.DeepEqual(got, want) {
		t.Errorf("StampFolders = %q, want %q", got, want)
	}
	models, files := ModelFiles(filepath.Join(out, "20250301_101500", "predictions"), func(f string) bool { return filepath.Ext(f) == ".json" })
	if want := []string{"m-a", "m-b"}; !reflect.DeepEqual(models, want) {
		t.Errorf("models = %q, want %q", models, want)
	}
	if want := map[string][]string{"m-a": {"x.json"}, "m-b": {"x.json"}}; !reflect.DeepEqual(files, want) {
		t.Errorf("files = %q, want %q", files, want)
	}
	if m, f := ModelFiles(filepath.Join(out, "none"), func(string) bool { return true }); m != nil || f != nil {
		t.Errorf("a folder that is not there has no models: %q %q", m, f)
	}
}

// TestOpenFolder: a run folder opens itself, a folder of run folders
// each one, a folder inside a run folder its run folder; anything else
// is ErrNotRun.
func TestOpenFolder(t *testing.T) {
	root := tree(t, "o/20250301_101500/results/m/x.json", "o/20250302_101500/results/m/x.json", "o/20250303_101500/logs/", "plain/x.json")
	isRun := func(names []string) bool { return slices.Contains(names, "results/") }
	var opened []string
	open := func(run string) ([]*model.Dataset, error) {
		opened = append(opened, filepath.Base(run))
		if filepath.Base(run) == "20250302_101500" {
			return nil, errors.New("broken")
		}
		return []*model.Dataset{{Path: run}}, nil
	}
	for _, c := range []struct {
		dir  string
		want []string
		ds   int
		err  bool
	}{
		{"o/20250301_101500", []string{"20250301_101500"}, 1, false},
		{"o", []string{"20250301_101500", "20250302_101500"}, 1, true},
		{"o/20250301_101500/results", []string{"20250301_101500"}, 1, false},
		{"plain", nil, 0, true},
	} {
		opened = nil
		dss, err := OpenFolder(filepath.Join(root, c.dir), isRun, open)
		if !reflect.DeepEqual(opened, c.want) || len(dss) != c.ds || (err != nil) != c.err {
			t.Errorf("%s: opened %q, %d datasets, error %v", c.dir, opened, len(dss), err)
		}
		if c.dir == "plain" && !errors.Is(err, ErrNotRun) {
			t.Errorf("plain: %v, want ErrNotRun", err)
		}
	}
}

// TestHolds: the evidence a run folder needs is a file the tool's own
// sniffer accepts, found in its first folders and files, depth levels
// down; a FIFO is passed over unread.
func TestHolds(t *testing.T) {
	root := tree(t, "p/m1/a.txt", "p/m1/b.json", "p/m2/c.json", "q/x.json", "r/m/a.txt")
	own := func(name string, head []byte) bool { return filepath.Ext(name) == ".json" && string(head) == "{}" }
	for dir, want := range map[string]bool{"p": true, "r": false, "none": false} {
		if got := Holds(filepath.Join(root, dir), 1, own); got != want {
			t.Errorf("Holds(%s, 1) = %v", dir, got)
		}
	}
	if !Holds(filepath.Join(root, "q"), 0, own) || Holds(filepath.Join(root, "q"), 1, own) {
		t.Error("q holds x.json at depth 0 only")
	}
	many := make([]string, 0, MaxLook+1)
	for i := range MaxLook + 1 {
		many = append(many, filepath.Join("s", "m", string(rune('a'+i))+".txt"))
	}
	many[MaxLook] = filepath.Join("s", "m", "z.json")
	root2 := tree(t, many...)
	if Holds(filepath.Join(root2, "s"), 1, own) {
		t.Errorf("Holds read past the first %d files of a folder", MaxLook)
	}
	// A FIFO: opening it to read would wait for a writer for ever.
	fifo := filepath.Join(root, "f", "m", "a.json")
	if err := os.MkdirAll(filepath.Dir(fifo), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := testos.Mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if Holds(filepath.Join(root, "f"), 1, func(string, []byte) bool { return true }) {
		t.Error("a FIFO is no evidence")
	}
}
