package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"evalview/loaders/notes"
	"evalview/model"
	"evalview/tui"
)

// artifactNotes is one dataset's view of a notes file: the tui's
// NoteStore over loaders/notes.
type artifactNotes struct {
	s   *notes.Store
	art string
}

func (a artifactNotes) Get(id string) ([]string, string) { return a.s.Get(a.art, id) }
func (a artifactNotes) Set(id string, labels []string, note string) error {
	return a.s.Set(a.art, id, labels, note)
}
func (a artifactNotes) Labels() []string { return a.s.Labels(a.art) }
func (a artifactNotes) Len() int         { return a.s.Len(a.art) }
func (a artifactNotes) Path() string     { return a.s.Path() }

// artifactName is the key of a dataset's notes in a notes file: its
// path's base name (the title for datasets without a path).
func artifactName(ds *model.Dataset) string {
	if ds.Path == "" {
		return ds.Title
	}
	return filepath.Base(strings.TrimSuffix(ds.Path, string(filepath.Separator)))
}

// noteOpener opens datasets' notes: each artifact's sidecar file, or the
// one file path names (shared by every dataset, opened once). Problems
// with a notes file are added to the dataset's issues.
type noteOpener struct {
	path   string
	mu     sync.Mutex
	shared *notes.Store
	opened map[*model.Dataset]artifactNotes
}

func (o *noteOpener) open(ds *model.Dataset) artifactNotes {
	o.mu.Lock()
	defer o.mu.Unlock()
	if a, ok := o.opened[ds]; ok {
		return a
	}
	var s *notes.Store
	var issues []model.Issue
	switch {
	case o.path != "" && o.shared != nil:
		s = o.shared
	case o.path != "":
		s, issues = notes.Open(ds.Path, o.path)
		o.shared = s
	default:
		s, issues = notes.Open(ds.Path, "")
	}
	ds.Issues = append(ds.Issues, issues...)
	a := artifactNotes{s: s, art: artifactName(ds)}
	if o.opened == nil {
		o.opened = map[*model.Dataset]artifactNotes{}
	}
	o.opened[ds] = a
	return a
}

// tuiNotes adapts the opener to tui.Options.Notes.
func (o *noteOpener) tuiNotes(ds *model.Dataset) tui.NoteStore {
	if ds.Path == "" && o.path == "" {
		return nil // nothing to put a sidecar next to (demo data in a temp folder still has a path)
	}
	return o.open(ds)
}

// exportFile writes rows of ds to path for the browser's `w`: JSONL, or
// CSV when the path ends in .csv. It refuses to overwrite the dataset's
// own files.
func exportFile(opener *noteOpener) func(path string, ds *model.Dataset, rows []int, filter int) (int, error) {
	return func(path string, ds *model.Dataset, rows []int, filter int) (int, error) {
		if same(path, ds.Path) {
			return 0, fmt.Errorf("%s is the artifact itself; choose another file", path)
		}
		format := "jsonl"
		if strings.EqualFold(filepath.Ext(path), ".csv") {
			format = "csv"
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return 0, err
		}
		n, werr := writeExport(f, io.Discard, format, []exportSet{{ds: ds, rows: rows, notes: opener.open(ds)}})
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		return n, werr
	}
}

// same reports whether two paths name the same file.
func same(a, b string) bool {
	if b == "" {
		return false
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
