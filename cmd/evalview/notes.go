package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"evalview/loaders/notes"
	"evalview/model"
	"evalview/tui"
)

// artifactNotes is one dataset's view of a notes file: the tui's
// NoteStore over loaders/notes. Without a store (notes are off for the
// dataset) it reads as empty and refuses writes.
type artifactNotes struct {
	s   *notes.Store
	art string
	o   *noteOpener
}

func (a artifactNotes) Get(id string) ([]string, string) {
	if a.s == nil {
		return nil, ""
	}
	return a.s.Get(a.art, id)
}

func (a artifactNotes) Set(id string, labels []string, note string) ([]model.NoteConflict, error) {
	if a.s == nil {
		return nil, fmt.Errorf("notes are off")
	}
	if why := a.o.refusal(); why != "" {
		// A dataset opened later found the shared file is one of its own.
		return nil, fmt.Errorf("notes are off: %s", why)
	}
	return a.s.Set(a.art, id, labels, note)
}

func (a artifactNotes) Update(ids []string, edit model.NoteEdit) ([]model.NoteConflict, error) {
	if a.s == nil {
		return nil, fmt.Errorf("notes are off")
	}
	if why := a.o.refusal(); why != "" {
		return nil, fmt.Errorf("notes are off: %s", why)
	}
	return a.s.Update(a.art, ids, edit)
}

// Refresh reads the notes file again before an edit starts, so that it
// starts from what other windows saved.
func (a artifactNotes) Refresh() {
	if a.s != nil {
		a.s.Refresh()
	}
}

func (a artifactNotes) Labels() []string {
	if a.s == nil {
		return nil
	}
	return a.s.Labels(a.art)
}

func (a artifactNotes) Len() int {
	if a.s == nil {
		return 0
	}
	return a.s.Len(a.art)
}

func (a artifactNotes) Path() string {
	if a.s == nil {
		return ""
	}
	return a.s.Path()
}

// Where names the file record id's note is kept in ("" while its save is
// pending): the sidecar or the state-folder fallback, which are merged.
func (a artifactNotes) Where(id string) string {
	if a.s == nil {
		return ""
	}
	return a.s.Where(a.art, id)
}

// exitLockWait is how long the last save at exit waits for another
// window's lock: longer than a save in the browser, which must not
// freeze it.
const exitLockWait = 10 * time.Second

// flush saves the notes whose save found the file locked (they are kept
// in memory), at exit, and reports on stderr what still could not be,
// and the records another window had changed too (both changes kept).
func (o *noteOpener) flush(stderr io.Writer) {
	o.mu.Lock()
	stores := map[*notes.Store]bool{}
	for _, a := range o.opened {
		if a.s != nil {
			stores[a.s] = true
		}
	}
	o.mu.Unlock()
	for s := range stores {
		if n := s.Pending(); n > 0 {
			conflicts, err := s.Flush(exitLockWait)
			if err != nil {
				fmt.Fprintf(stderr, "evalview: %d notes not saved: %v\n", n, err)
			}
			for _, c := range conflicts {
				fmt.Fprintf(stderr, "evalview: record %s of %s was changed in another window too: both changes kept in %s\n",
					c.ID, c.Artifact, s.Path())
			}
		}
	}
}

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
// with a notes file are added to the dataset's issues. A path that is one
// of a dataset's own files (the artifact, its results file, a file inside
// a folder artifact) turns notes off, with a notes-unusable issue, so
// that saving a note never overwrites an artifact.
type noteOpener struct {
	path    string
	mu      sync.Mutex
	shared  *notes.Store
	refused string // why the shared path is unusable, once known
	opened  map[*model.Dataset]artifactNotes
}

func (o *noteOpener) open(ds *model.Dataset) artifactNotes {
	o.mu.Lock()
	defer o.mu.Unlock()
	if a, ok := o.opened[ds]; ok {
		return a
	}
	var s *notes.Store
	var issues []model.Issue
	if why := clash(o.path, ds); why != "" && o.refused == "" {
		o.refused = why
	}
	switch {
	case o.path != "" && o.refused != "":
		issues = []model.Issue{model.Errorf("notes-unusable", o.path, 0, "",
			"notes are off: %s; choose another file with --notes", o.refused)}
	case o.path != "" && o.shared != nil:
		s = o.shared
	case o.path != "":
		s, issues = notes.Open(ds.Path, o.path)
		o.shared = s
	default:
		s, issues = notes.Open(ds.Path, "")
	}
	ds.Issues = append(ds.Issues, issues...)
	a := artifactNotes{s: s, art: artifactName(ds), o: o}
	if o.opened == nil {
		o.opened = map[*model.Dataset]artifactNotes{}
	}
	o.opened[ds] = a
	return a
}

// forget drops ds from the opener, for commands that hand datasets over
// one at a time and must not keep them all.
func (o *noteOpener) forget(ds *model.Dataset) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.opened, ds)
}

// refusal is why the shared notes file is unusable ("" while it is fine).
func (o *noteOpener) refusal() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.refused
}

// tuiNotes adapts the opener to tui.Options.Notes.
func (o *noteOpener) tuiNotes(ds *model.Dataset) tui.NoteStore {
	if ds.Path == "" && o.path == "" {
		return nil // nothing to put a sidecar next to (demo data in a temp folder still has a path)
	}
	if a := o.open(ds); a.s != nil {
		return a
	}
	return nil // notes are off; the dataset's notes-unusable issue says why
}

// exportFile writes rows of ds to path for the browser's `w`: JSONL, or
// CSV when the path ends in .csv. It never overwrites anything: not the
// dataset's own files, not its notes file, not any existing file (the
// user picks another name or deletes it). The file appears whole or not
// at all (a temporary file in the target folder, then a rename).
func exportFile(opener *noteOpener) func(path string, ds *model.Dataset, rows []int, filter int, threshold *float64) (int, error) {
	return func(path string, ds *model.Dataset, rows []int, filter int, threshold *float64) (int, error) {
		if why := clash(path, ds); why != "" {
			return 0, fmt.Errorf("%s; choose another file", why)
		}
		an := opener.open(ds)
		for _, np := range []string{an.Path(), opener.path} {
			if np != "" && (sameFile(path, np) || resolved(path) == resolved(np)) {
				return 0, fmt.Errorf("%s is the notes file; choose another file", path)
			}
		}
		if _, err := os.Lstat(path); err == nil {
			return 0, fmt.Errorf("%s already exists; choose another name or delete it", path)
		}
		format := "jsonl"
		if strings.EqualFold(filepath.Ext(path), ".csv") {
			format = "csv"
		}
		f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
		if err != nil {
			return 0, err
		}
		tmp := f.Name()
		n, werr := writeExport(f, io.Discard, format, []exportSet{{ds: ds, rows: rows, notes: an, threshold: threshold}})
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr == nil {
			werr = os.Chmod(tmp, 0o644)
		}
		if werr == nil {
			// Link, not rename: it fails rather than replace a file
			// created since the check above.
			if werr = os.Link(tmp, path); werr != nil && !errors.Is(werr, fs.ErrExist) {
				werr = os.Rename(tmp, path) // file systems without hard links
			}
		}
		os.Remove(tmp)
		if werr != nil {
			return 0, werr
		}
		return n, nil
	}
}
