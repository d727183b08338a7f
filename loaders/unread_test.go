package loaders

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"evalview/model"
)

// TestNoFileOfAFolderUnmentioned: a .jsonl file in a folder that no
// format reads (not JSON Lines, or too broken to tell) is a dataset of
// its own with an error, and an empty one gets a warning, whatever the
// folder's format: before, each was left out without a word, and check
// exited 0.
func TestNoFileOfAFolderUnmentioned(t *testing.T) {
	copyDir := func(t *testing.T, from, to string) {
		t.Helper()
		ents, err := os.ReadDir(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(to, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.Type().IsRegular() {
				b, err := os.ReadFile(filepath.Join(from, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	write := func(t *testing.T, p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type want struct{ file, code string }
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string) string
		want  []want
	}{
		{"plain records", func(t *testing.T, dir string) string {
			write(t, filepath.Join(dir, "ok.jsonl"), `{"a": 1}`+"\n")
			write(t, filepath.Join(dir, "garbage.jsonl"), "not json at all\n")
			write(t, filepath.Join(dir, "blank.jsonl"), "\n\n")
			write(t, filepath.Join(dir, "readme.txt"), "not an artifact: never reported\n")
			return dir
		}, []want{{"blank.jsonl", "empty-file"}, {"garbage.jsonl", "unread-file"}}},
		{"beside an lm-eval run", func(t *testing.T, dir string) string {
			copyDir(t, filepath.Join("..", "testdata", "lmeval", "two_filters"), dir)
			write(t, filepath.Join(dir, "garbage.jsonl"), "{cut\n")
			return dir
		}, []want{{"garbage.jsonl", "unread-file"}}},
		{"in a model folder of an output folder", func(t *testing.T, dir string) string {
			copyDir(t, filepath.Join("..", "testdata", "lmeval", "two_filters"), filepath.Join(dir, "acme__m1"))
			copyDir(t, filepath.Join("..", "testdata", "lmeval", "two_filters"), filepath.Join(dir, "acme__m2"))
			write(t, filepath.Join(dir, "acme__m2", "garbage.jsonl"), "not json\n")
			return dir
		}, []want{{filepath.Join("acme__m2", "garbage.jsonl"), "unread-file"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.setup(t, t.TempDir())
			for _, stream := range []bool{false, true} {
				var dss []*model.Dataset
				err := walk([]string{dir}, Options{}, stream, func(ds *model.Dataset) error {
					dss = append(dss, ds)
					return nil
				})
				if err != nil {
					t.Fatalf("stream %v: %v", stream, err)
				}
				var got []want
				for _, ds := range dss {
					for _, is := range ds.Issues {
						if is.Code == "unread-file" || is.Code == "empty-file" {
							rel, _ := filepath.Rel(dir, ds.Path)
							got = append(got, want{rel, is.Code})
						}
					}
				}
				slices.SortFunc(got, func(a, b want) int {
					if a.file < b.file {
						return -1
					}
					return 1
				})
				if !slices.Equal(got, tc.want) {
					t.Errorf("stream %v: unread files %v, want %v", stream, got, tc.want)
				}
			}
		})
	}
}

// TestUnreadOnlyInFoldersOpened: a folder whose name starts like the
// folder opened ("run2" beside "run") is not inside it: its files are
// not reported when only one of its files was opened.
func TestUnreadOnlyInFoldersOpened(t *testing.T) {
	dir := t.TempDir()
	run, run2 := filepath.Join(dir, "run"), filepath.Join(dir, "run2", "sub")
	for _, d := range []string{run, run2} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(run, "a.jsonl"), []byte(`{"a": 1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(run2, "b.jsonl")
	if err := os.WriteFile(one, []byte(`{"b": 1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run2, "garbage.jsonl"), []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dss, err := Open([]string{run, one}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ds := range dss {
		for _, is := range ds.Issues {
			if is.Code == "unread-file" {
				t.Errorf("%s reported unread, though its folder was not opened", ds.Path)
			}
		}
	}
	if !under(filepath.Join(run, "x"), run) || under(filepath.Join(dir, "run2"), run) || under(run, run) {
		t.Error("under: wrong answer")
	}
}
