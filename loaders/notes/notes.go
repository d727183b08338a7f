// Package notes keeps error-analysis notes (free labels such as
// "extraction bug" and a note text per record) in sidecar JSONL files.
// It is the only place evalview writes a file: never the artifact itself,
// by default next to it (<artifact>.evalview-notes.jsonl), else under
// $XDG_STATE_HOME/evalview/notes/ when the artifact's folder is not
// writable (read-only, full), or at a path the user configures.
//
// Each line is one record's note:
//
//	{"artifact":"samples_gsm8k.jsonl","id":"12","labels":["extraction bug"],"note":"answer is in the last line","edited":"2026-11-25T10:00:00.000000000Z"}
//
// artifact is the base name of the dataset's path, so that one configured
// file can hold the notes of several artifacts. edited is when the note
// was last changed: a record's note may be in both the sidecar and the
// fallback file (the folder was read-only for a while), and a store reads
// both and keeps each record's newest. A note removed while the other file
// still holds it is written as a tombstone (edited, nothing else).
//
// No note is lost: every write takes the file's lock (a lock file beside
// it, there only while a save holds it), reads the files again and merges
// under it, so several windows labelling one artifact keep each other's
// notes. The merge is record by record and three-way: each edit carries
// the record's note as this window last read it (its base), so a record
// another window changed since is merged rather than overwritten; when
// both changed it, the note saved keeps both changes (the labels either
// added, both texts) and the save reports a model.NoteConflict. A save
// that cannot have the lock in time says so and keeps the note for the
// next save (Flush at exit). Writes replace the file atomically (a new
// file under a name nobody can predict, then a rename), so a kill during
// a save leaves the previous file whole. Lines that are not notes (a hand
// edit gone wrong) are kept as they are.
//
// Nothing is written through what someone else may have put at a path
// evalview writes: a notes file or lock file that is a symbolic link, a
// FIFO, a device or a folder is refused by name (internal/safefile), and
// a notes file is read only up to maxFileSize.
//
// # Issue codes
//
//   - notes-bad-line (warning): a line that is not a note object; it is
//     skipped, and kept in the file as it is.
//   - notes-unreadable (warning): the file exists but cannot be read.
//   - notes-unusable (error): the file has content but not one line of
//     it is a note (it is not a notes file, perhaps the artifact itself),
//     or it is not a regular file (a symbolic link, a FIFO, a device, a
//     folder), or it is larger than maxFileSize; Open returns no store, so
//     that nothing ever overwrites it or writes through it.
package notes

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"evalview/internal/safefile"
	"evalview/internal/xdg"
	"evalview/loaders/source"
	"evalview/model"
)

// Suffix is appended to an artifact's path to name its sidecar file.
const Suffix = ".evalview-notes.jsonl"

// IsFile reports whether a file name is a notes sidecar's: evalview's
// own file, which a folder scan never opens as a dataset (an lm-eval
// samples file's sidecar is named samples_*.jsonl too).
func IsFile(name string) bool { return strings.HasSuffix(name, Suffix) }

// Note is one record's error-analysis note.
type Note struct {
	Artifact string   `json:"artifact"`
	ID       string   `json:"id"`
	Labels   []string `json:"labels,omitempty"`
	Text     string   `json:"note,omitempty"`
	// Edited is when the note was last changed (RFC 3339, UTC); empty in
	// lines written before notes had it, which count as the oldest.
	Edited string `json:"edited,omitempty"`
}

// empty reports whether the note holds nothing (a removal).
func (n Note) empty() bool { return len(n.Labels) == 0 && strings.TrimSpace(n.Text) == "" }

type key struct{ artifact, id string }

// Store is the notes of one or more artifacts, from one or two files. It
// is safe for concurrent use: the browser's list filters read it off the
// event loop.
type Store struct {
	mu    sync.RWMutex
	fixed bool // the user chose the path: no fallback
	// paths are the files read and merged, in the order saves try them:
	// the sidecar, then the fallback (one path when fixed).
	paths []string
	files []*fileData // their content as last read or written
	// seen holds each record's note as the files hold it (the newest of
	// the two; removals as empty notes): what this window last read.
	// merged is what Get shows: seen with the pending edits merged in.
	// from names the file each came from ("" for a pending one).
	seen   map[key]Note
	merged map[key]Note
	from   map[key]string
	order  []key
	// pending are edits not yet written (their save could not have the
	// lock), each with the record's note it was made on. Every save
	// writes them too.
	pending      map[key]edit
	pendingOrder []key
	written      string          // the file the last save went to
	swept        map[string]bool // files whose folder had its leftovers removed
}

// edit is one record's change not yet written: the note as the window
// made it, and its base, the record's note as the window had last read
// it when the change was made (the zero Note when it had none), against
// which a save merges what another window saved since.
type edit struct{ note, base Note }

// SidecarPath is the default notes file of an artifact: next to it, named
// after it (a folder's notes sit beside the folder).
func SidecarPath(artifact string) string {
	return filepath.Clean(artifact) + Suffix
}

// StatePath is the fallback notes file of an artifact whose folder is not
// writable: $XDG_STATE_HOME/evalview/notes/<hash of the absolute path>.jsonl
// ($HOME/.local/state when XDG_STATE_HOME is unset).
func StatePath(artifact string) string {
	abs, err := filepath.Abs(artifact)
	if err != nil {
		abs = artifact
	}
	if source.IsRemote(artifact) {
		abs = source.Display(artifact) // a URL: the same wherever evalview runs
	}
	sum := sha256.Sum256([]byte(abs))
	dir, _ := xdg.Dir("XDG_STATE_HOME", filepath.Join(".local", "state"))
	return filepath.Join(dir, "evalview", "notes", hex.EncodeToString(sum[:8])+".jsonl")
}

// Open reads the notes of artifact. With path "" it reads both the sidecar
// and the state-folder fallback and merges them (each record's newest
// note wins); with a path it uses that file (created at the first write).
// A missing file is no error: the store starts empty. Problems with a
// file's content come back as issues; the store still holds every good
// line. A file that has content but not one note is not a notes file:
// Open returns a nil store and a notes-unusable issue rather than replace
// it at the first write.
func Open(artifact, path string) (*Store, []model.Issue) {
	s := &Store{fixed: path != "", pending: map[key]edit{}}
	if s.fixed {
		s.paths = []string{path}
	} else if source.IsRemote(artifact) {
		// Nothing is written next to a remote artifact.
		s.paths = []string{StatePath(artifact)}
	} else {
		s.paths = []string{SidecarPath(artifact), StatePath(artifact)}
	}
	var issues []model.Issue
	for _, p := range s.paths {
		fd := readFile(p)
		issues = append(issues, fd.issues...)
		if fd.refused != nil {
			r := &refusedError{role: "the notes file", err: fd.refused}
			return nil, append(issues, model.Errorf("notes-unusable", p, 0, "",
				"notes are off: %s; evalview neither reads nor writes notes through it: remove it, or choose another file with --notes", r.describe()))
		}
		if fd.notNotes() {
			return nil, append(issues, model.Errorf("notes-unusable", p, 0, "",
				"%s is not a notes file (no line is a note), so notes are off; choose another file with --notes", p))
		}
		s.files = append(s.files, fd)
	}
	s.remerge()
	return s, issues
}

// remerge rebuilds seen from the files, newest edit first (on a tie the
// earlier file, the sidecar, wins), and merged from seen and the pending
// edits, each merged with what the files hold now (merge3).
func (s *Store) remerge() {
	s.seen, s.from, s.order = map[key]Note{}, map[key]string{}, nil
	put := func(k key, n Note, from string) {
		cur, ok := s.seen[k]
		if !ok {
			s.order = append(s.order, k)
		} else if !newer(n, cur) {
			return
		}
		s.seen[k], s.from[k] = n, from
	}
	for _, fd := range s.files {
		for _, e := range fd.entries {
			if e.raw == nil {
				put(e.k, fd.notes[e.k], fd.path)
			}
		}
	}
	s.merged = maps.Clone(s.seen)
	for _, k := range s.pendingOrder {
		e := s.pending[k]
		cur, ok := s.seen[k]
		if !ok {
			s.order = append(s.order, k)
		}
		s.merged[k], _ = merge3(e.base, cur, e.note)
		s.from[k] = ""
	}
}

// base is the note an edit of record k made now is made on: the pending
// edit's base when the record has one (the edit replaces that edit, which
// was never written), else the record as the files held it when last read.
func (s *Store) base(k key) Note {
	if e, ok := s.pending[k]; ok {
		return e.base
	}
	return s.seen[k]
}

// Refresh reads the files again, so that an edit about to start begins
// from what other windows have saved (the browser calls it when a label
// or note prompt opens).
func (s *Store) Refresh() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reread()
}

// Path returns the file saves go to: the one the last save wrote, else the
// fallback when only it exists (the folder was read-only before), else
// the sidecar (or the configured file).
func (s *Store) Path() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.written != "" {
		return s.written
	}
	if len(s.files) == 2 && !s.files[0].exists && s.files[1].exists {
		return s.files[1].path
	}
	return s.paths[0]
}

// Where returns the file record id's note of artifact is kept in, "" when
// it is not saved yet (its save is pending) or the record has none.
func (s *Store) Where(artifact, id string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	k := key{artifact, id}
	if n, ok := s.merged[k]; !ok || n.empty() {
		return ""
	}
	return s.from[k]
}

// Pending returns how many edits are not saved yet (their save could not
// have the lock).
func (s *Store) Pending() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.pending)
}

// cleanLabels trims labels, drops empty ones and duplicates, keeping order.
func cleanLabels(in []string) []string {
	var out []string
	for _, l := range in {
		l = strings.Join(strings.Fields(l), " ")
		if l != "" && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// Get returns record id's labels and note text in artifact.
func (s *Store) Get(artifact, id string) (labels []string, note string) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := s.merged[key{artifact, id}]
	return slices.Clone(n.Labels), n.Text
}

// Len returns how many records of artifact have a note.
func (s *Store) Len(artifact string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c := 0
	for k, n := range s.merged {
		if k.artifact == artifact && !n.empty() {
			c++
		}
	}
	return c
}

// Labels returns the labels used in artifact's notes, most used first
// (ties alphabetical), for completion.
func (s *Store) Labels(artifact string) []string {
	s.mu.RLock()
	counts := map[string]int{}
	for k, n := range s.merged {
		if k.artifact == artifact {
			for _, l := range n.Labels {
				counts[l]++
			}
		}
	}
	s.mu.RUnlock()
	out := make([]string, 0, len(counts))
	for l := range counts {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool {
		if counts[out[i]] != counts[out[j]] {
			return counts[out[i]] > counts[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}

// Set replaces record id's labels and note in artifact and saves them. An
// empty note removes the record's note.
//
// The save takes the file's lock, reads the files again and merges under
// it, so other windows' notes are kept: a record another window changed
// since this one read it is merged with this change (merge3), and when
// both changed it the conflicts returned name it (the note saved keeps
// both). When the lock cannot be had in time the error wraps ErrLocked
// and the note is kept: Get shows it, and the next save (or Flush) writes
// it. On any other error (no file can be written, or one is refused) the
// note is not kept and the store is as before.
func (s *Store) Set(artifact, id string, labels []string, text string) ([]model.NoteConflict, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := key{artifact, id}
	prev, hadPrev := s.pending[k]
	n := Note{Artifact: artifact, ID: id, Labels: cleanLabels(labels), Text: strings.TrimSpace(text),
		Edited: time.Now().UTC().Format(editedLayout)}
	if !hadPrev {
		s.pendingOrder = append(s.pendingOrder, k)
	}
	s.pending[k] = edit{note: n, base: s.base(k)}
	conflicts, err := s.flush(lockWait)
	switch {
	case err == nil:
		return conflicts, nil
	case errors.Is(err, ErrLocked):
		s.remerge()
		// What matters first: a status bar cuts the end (the path).
		return nil, fmt.Errorf("another evalview is writing the notes: the note is kept, and saved with the next one or when evalview quits (%w)", err)
	}
	if hadPrev {
		s.pending[k] = prev
	} else {
		delete(s.pending, k)
		s.pendingOrder = slices.DeleteFunc(s.pendingOrder, func(p key) bool { return p == k })
	}
	s.remerge()
	return nil, err
}

// Flush saves the pending edits, waiting up to wait for the lock (at exit:
// longer than a save in the browser may), and returns the records merged
// with another window's change to them.
func (s *Store) Flush(wait time.Duration) ([]model.NoteConflict, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.flush(wait)
}

// refusedError is a save refused where it is, rather than sent to the
// fallback file: what is at the notes file's path or its lock file's is
// not a file evalview writes notes through (someone put a link, a FIFO or
// a device there), or is too large. The user must learn of it; a save
// elsewhere would hide it. Its message says what first, since a status
// bar cuts the end: "the lock file is a symbolic link to
// /home/u/.bashrc (/data/.x.evalview-notes.jsonl.lock); ...".
type refusedError struct {
	role string // "the notes file", "the lock file"
	err  error  // a *safefile.NotFileError or *safefile.TooLargeError
}

func (e *refusedError) Error() string {
	return e.describe() + "; evalview does not write notes through it: remove it, or choose another notes file with --notes"
}

// describe says what the path is: "the lock file is a symbolic link to
// /home/u/.bashrc (/data/.x.evalview-notes.jsonl.lock)".
func (e *refusedError) describe() string {
	var nf *safefile.NotFileError
	var tl *safefile.TooLargeError
	what, path := e.err.Error(), ""
	switch {
	case errors.As(e.err, &nf):
		what, path = nf.What, nf.Path
	case errors.As(e.err, &tl):
		what, path = "larger than "+safefile.Size(tl.Limit), tl.Path
	}
	return fmt.Sprintf("%s is %s (%s)", e.role, what, path)
}

func (e *refusedError) Unwrap() error { return e.err }

// refusal wraps err, when it refuses a path, as a refusedError of role.
func refusal(role string, err error) error {
	var tl *safefile.TooLargeError
	if errors.Is(err, safefile.ErrNotFile) || errors.As(err, &tl) {
		return &refusedError{role: role, err: err}
	}
	return err
}

// flush writes the pending edits to the first file that can be written,
// under its lock: the sidecar, else the fallback. A lock held by another
// process stops it (the notes then stay pending): writing the other file
// instead would leave that process's save unmerged with this one. So
// does a file refused (refusedError).
func (s *Store) flush(wait time.Duration) ([]model.NoteConflict, error) {
	if len(s.pending) == 0 {
		return nil, nil
	}
	var errs []error
	for i, p := range s.paths {
		mkdir := s.fixed || i > 0
		release, err := acquire(p, mkdir, wait)
		if errors.Is(err, ErrLocked) {
			return nil, err
		}
		err = refusal("the lock file", err)
		var conflicts []model.NoteConflict
		if err == nil {
			conflicts, err = s.saveTo(i, mkdir)
			err = refusal("the notes file", err)
			release()
		}
		if err == nil {
			return conflicts, nil
		}
		if _, ok := err.(*refusedError); ok {
			return nil, err
		}
		errs = append(errs, err)
	}
	if len(errs) == 2 {
		return nil, fmt.Errorf("%w (nor could the fallback %s be written: %v)", errs[0], s.paths[1], errs[1])
	}
	return nil, errs[0]
}

// saveTo writes file i with every file's notes merged with the pending
// edits, and returns the records both this window and another changed.
// The caller holds file i's lock. It refuses a file that can no longer be
// read, no longer holds notes (something else replaced it: writing would
// destroy it) or is no longer a regular file.
func (s *Store) saveTo(i int, mkdir bool) ([]model.NoteConflict, error) {
	fresh := make([]*fileData, len(s.paths))
	for j, p := range s.paths {
		fresh[j] = readFile(p)
		if j != i && fresh[j].refused != nil || !fresh[j].exists && s.files[j].exists {
			// Gone since it was read (a folder that vanished and came
			// back), or the other file became something that is not
			// read: its notes are still in memory, and go back.
			fresh[j] = s.files[j]
		}
	}
	t := fresh[i]
	if t.refused != nil {
		return nil, t.refused
	}
	if t.unreadable {
		return nil, fmt.Errorf("%s cannot be read, so the note was not saved: %s", t.path, t.issues[0].Message)
	}
	if t.notNotes() {
		return nil, fmt.Errorf("%s is no longer a notes file (no line is a note); the note was not saved", t.path)
	}
	if !s.swept[t.path] {
		// Once a session: a big folder costs a listing.
		removeLeftovers(t.path)
		if s.swept == nil {
			s.swept = map[string]bool{}
		}
		s.swept[t.path] = true
	}
	old := s.files
	s.files = fresh
	s.remerge()
	var conflicts []model.NoteConflict
	for _, k := range s.pendingOrder {
		e := s.pending[k]
		if n, both := merge3(e.base, s.seen[k], e.note); both {
			conflicts = append(conflicts, model.NoteConflict{Artifact: k.artifact, ID: k.id, Labels: slices.Clone(n.Labels), Note: n.Text})
		}
	}
	var other *fileData
	if len(fresh) == 2 {
		other = fresh[1-i]
	}
	data, err := t.encode(s.merged, s.order, other)
	if err == nil {
		err = writeAtomic(t.path, data, mkdir)
	}
	if err != nil {
		s.files = old
		s.remerge()
		return nil, err
	}
	s.files[i] = readFile(t.path)
	if s.files[i].unreadable || s.files[i].refused != nil {
		// Written, yet not readable back: keep the edits pending, so
		// that the next save writes them again.
		s.files[i] = t
		s.remerge()
		return conflicts, nil
	}
	s.pending, s.pendingOrder = map[key]edit{}, nil
	s.written = t.path
	s.remerge()
	return conflicts, nil
}
