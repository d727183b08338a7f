package folder

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/internal/testos"
	"evalview/model"
)

// tree writes files (path: content) under a new folder and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// testFormat takes files whose content starts with "yes", and fails to
// open those whose content holds "broken".
func testFormat(depth int) Format {
	return Format{
		Kind:  model.KindSample,
		What:  "test files",
		Depth: depth,
		Sniff: func(name string, head []byte) int {
			if bytes.HasPrefix(head, []byte("yes")) {
				return 2
			}
			return 0
		},
		OpenFile: func(path string) (*model.Dataset, error) {
			b, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			if bytes.Contains(b, []byte("broken")) {
				return nil, errors.New("broken file")
			}
			return &model.Dataset{Kind: model.KindSample, Path: path, Title: "ok " + filepath.Base(path)}, nil
		},
		Title: filepath.Base,
	}
}

// rel makes paths relative to dir, with forward slashes.
func rel(dir string, paths []string) string {
	var out []string
	for _, p := range paths {
		r, _ := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(r))
	}
	return strings.Join(out, " ")
}

// TestFiles: a search reads hidden files and folders too (lm-eval names a
// model folder "..__adapters__x" for an adapter given as ../adapters/x),
// and passes over only tools' folders and evalview's notes.
func TestFiles(t *testing.T) {
	dir := tree(t, map[string]string{
		"b.jsonl":                            "yes b",
		"a.JSONL":                            "yes a",
		"c.jsonl":                            "no",
		"d.txt":                              "yes but not jsonl",
		".hidden.jsonl":                      "yes hidden",
		"__MACOSX/x.jsonl":                   "yes resource fork",
		"sub/e.jsonl":                        "yes e",
		"sub/deeper/f.jsonl":                 "yes f",
		".git/g.jsonl":                       "yes g",
		"node_modules/p/g.jsonl":             "yes g",
		"sub2/h.jsonl":                       "yes h",
		"sub2/i_not_it.jsonl":                "nope",
		"sub2/.j_hidden.jsonl":               "yes",
		"..__adapters__x/k.jsonl":            "yes k",
		"b.jsonl.evalview-notes.jsonl":       "yes notes",
		".b.jsonl.evalview-notes.jsonl.lock": "yes lock",
	})
	tests := []struct {
		name  string
		depth int
		names []string
		lim   Limits
		want  string
	}{
		{"own files", 0, nil, Limits{}, ".hidden.jsonl a.JSONL b.jsonl"},
		{"and subfolders", 1, nil, Limits{}, ".hidden.jsonl a.JSONL b.jsonl ..__adapters__x/k.jsonl sub/e.jsonl sub2/.j_hidden.jsonl sub2/h.jsonl"},
		{"two levels", 2, nil, Limits{}, ".hidden.jsonl a.JSONL b.jsonl ..__adapters__x/k.jsonl sub/e.jsonl sub/deeper/f.jsonl sub2/.j_hidden.jsonl sub2/h.jsonl"},
		{"found limit", 1, nil, Limits{Found: 4}, ".hidden.jsonl a.JSONL b.jsonl ..__adapters__x/k.jsonl"},
		{"read limit", 1, nil, Limits{Read: 3}, ".hidden.jsonl a.JSONL b.jsonl"},
		{"given names", 1, []string{"b.jsonl", "c.jsonl", "sub2/"}, Limits{}, "b.jsonl sub2/.j_hidden.jsonl sub2/h.jsonl"},
	}
	for _, tc := range tests {
		got := rel(dir, testFormat(tc.depth).Files(dir, tc.names, tc.lim))
		if got != tc.want {
			t.Errorf("%s: Files = %q, want %q", tc.name, got, tc.want)
		}
	}
	f := testFormat(0)
	if got := f.SniffDir(dir, nil, 0); got != 1 {
		t.Errorf("SniffDir = %d, want 1", got)
	}
	if got := f.SniffDir(dir, []string{"c.jsonl", "d.txt", "sub/"}, 0); got != 0 {
		t.Errorf("SniffDir of names without a file of the format = %d, want 0", got)
	}
	if got := f.SniffDir(filepath.Join(dir, "missing"), nil, 0); got != 0 {
		t.Errorf("SniffDir of a missing folder = %d, want 0", got)
	}
}

// A FIFO named like a data file is passed over, not opened: opening it
// would block until a writer came.
func TestFilesSkipsFIFO(t *testing.T) {
	dir := tree(t, map[string]string{"a.jsonl": "yes"})
	if err := testos.Mkfifo(filepath.Join(dir, "pipe.jsonl")); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if got := rel(dir, testFormat(0).Files(dir, nil, Limits{})); got != "a.jsonl" {
		t.Errorf("Files = %q, want a.jsonl", got)
	}
	if _, err := ReadHead(filepath.Join(dir, "pipe.jsonl")); err == nil {
		t.Error("ReadHead of a FIFO succeeded")
	}
}

func TestReadHead(t *testing.T) {
	big := strings.Repeat("x", HeadSize+10)
	dir := tree(t, map[string]string{"small": "abc", "big": big})
	for name, want := range map[string]int{"small": 3, "big": HeadSize} {
		head, err := ReadHead(filepath.Join(dir, name))
		if err != nil || len(head) != want {
			t.Errorf("ReadHead(%s) = %d bytes, %v; want %d", name, len(head), err, want)
		}
	}
	if _, err := ReadHead(dir); err == nil {
		t.Error("ReadHead of a folder succeeded")
	}
}

func TestOpen(t *testing.T) {
	dir := tree(t, map[string]string{
		"a.jsonl":     "yes a",
		"b.jsonl":     "yes broken",
		"sub/c.jsonl": "yes c",
		"other.jsonl": "no",
	})
	ds, err := testFormat(1).Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		s := d.Title
		for _, is := range d.Issues {
			s += " [" + is.Code + ": " + is.Message + "]"
		}
		got = append(got, s)
	}
	want := "ok a.jsonl|b.jsonl [read-error: cannot read the file: broken file]|ok c.jsonl"
	if strings.Join(got, "|") != want {
		t.Errorf("datasets %q, want %q", strings.Join(got, "|"), want)
	}
	if ds[1].Kind != model.KindSample || ds[1].Records == nil || ds[1].Path != filepath.Join(dir, "b.jsonl") {
		t.Errorf("the unreadable file's dataset: %+v", ds[1])
	}

	// A file opens whatever it holds; its own error is the error.
	if ds, err := testFormat(0).Open(filepath.Join(dir, "other.jsonl")); err != nil || len(ds) != 1 {
		t.Errorf("Open(file) = %d datasets, %v", len(ds), err)
	}
	if _, err := testFormat(0).Open(filepath.Join(dir, "b.jsonl")); err == nil || err.Error() != "broken file" {
		t.Errorf("Open(broken file) error = %v", err)
	}
	empty := tree(t, map[string]string{"x.jsonl": "no"})
	if _, err := testFormat(1).Open(empty); err == nil || err.Error() != "no test files in this folder" {
		t.Errorf("Open(folder without files) error = %v", err)
	}
	if _, err := testFormat(0).Open(filepath.Join(dir, "missing")); err == nil {
		t.Error("Open(missing) succeeded")
	}
}
