// Package notes keeps error-analysis notes (free labels such as
// "extraction bug" and a note text per record) in a sidecar JSONL file.
// It is the only place evalview writes a file: never the artifact itself,
// by default next to it (<artifact>.evalview-notes.jsonl), else under
// $XDG_STATE_HOME/evalview/notes/ when the artifact's folder is not
// writable, or at a path the user configures. Writes replace the whole
// file atomically (a temporary file in the same folder, then rename).
//
// Each line is one record's note:
//
//	{"artifact":"samples_gsm8k.jsonl","id":"12","labels":["extraction bug"],"note":"answer is in the last line"}
//
// artifact is the base name of the dataset's path, so that one configured
// file can hold the notes of several artifacts.
//
// # Issue codes
//
//   - notes-bad-line (warning): a line that is not a note object; it is
//     skipped and dropped at the next write.
//   - notes-unreadable (warning): the file exists but cannot be read.
//   - notes-unusable (error): the file has content but not one line of
//     it is a note (it is not a notes file, perhaps the artifact itself);
//     Open returns no store, so that nothing ever overwrites it.
package notes

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"evalview/model"
)

// Suffix is appended to an artifact's path to name its sidecar file.
const Suffix = ".evalview-notes.jsonl"

// Note is one record's error-analysis note.
type Note struct {
	Artifact string   `json:"artifact"`
	ID       string   `json:"id"`
	Labels   []string `json:"labels,omitempty"`
	Text     string   `json:"note,omitempty"`
}

// empty reports whether the note holds nothing (and is dropped).
func (n Note) empty() bool { return len(n.Labels) == 0 && strings.TrimSpace(n.Text) == "" }

type key struct{ artifact, id string }

// Store is a notes file in memory. It is safe for concurrent use: the
// browser's list filters read it off the event loop.
type Store struct {
	mu       sync.RWMutex
	path     string
	fixed    bool // the user chose the path: no fallback
	fallback string
	notes    map[key]Note
	order    []key
}

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
	sum := sha256.Sum256([]byte(abs))
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "evalview", "notes", hex.EncodeToString(sum[:8])+".jsonl")
}

// Open reads the notes of artifact. With path "" it uses the sidecar file,
// or the state-folder fallback when only that one exists; with a path it
// uses that file (created at the first write). A missing file is no
// error: the store starts empty. Problems with the file's content come
// back as issues; the store still holds every good line. A file that has
// content but not one note is not a notes file: Open returns a nil store
// and a notes-unusable issue rather than replace it at the first write.
func Open(artifact, path string) (*Store, []model.Issue) {
	s := &Store{notes: map[key]Note{}, path: path, fixed: path != ""}
	if !s.fixed {
		s.path, s.fallback = SidecarPath(artifact), StatePath(artifact)
		if !exists(s.path) && exists(s.fallback) {
			s.path, s.fallback = s.fallback, ""
		}
	}
	issues := s.load()
	bad := 0
	for _, is := range issues {
		if is.Line > 0 { // a line read but not a note (line 0: the file could not be opened)
			bad++
		}
	}
	if len(s.notes) == 0 && bad > 0 {
		// Content, yet not one note: writing would replace a file that
		// is not ours.
		return nil, append(issues, model.Errorf("notes-unusable", s.path, 0, "",
			"%s is not a notes file (no line is a note), so notes are off; choose another file with --notes", s.path))
	}
	return s, issues
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Path returns the file the store reads and writes (after a fallback, the
// state-folder file).
func (s *Store) Path() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.path
}

func (s *Store) load() []model.Issue {
	f, err := os.Open(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []model.Issue{model.Warnf("notes-unreadable", s.path, 0, "", "notes file cannot be read: %v", err)}
	}
	defer f.Close()
	var issues []model.Issue
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var n Note
		if err := json.Unmarshal(b, &n); err != nil || n.ID == "" {
			msg := "not a note object"
			if err != nil {
				msg = "not JSON: " + err.Error()
			}
			issues = append(issues, model.Warnf("notes-bad-line", s.path, line, "", "%s; the line is skipped", msg))
			continue
		}
		n.Labels = cleanLabels(n.Labels)
		k := key{n.Artifact, n.ID}
		if _, ok := s.notes[k]; !ok {
			s.order = append(s.order, k)
		}
		s.notes[k] = n
	}
	if err := sc.Err(); err != nil {
		issues = append(issues, model.Warnf("notes-unreadable", s.path, line+1, "", "notes file cannot be read: %v", err))
	}
	return issues
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
	n := s.notes[key{artifact, id}]
	return slices.Clone(n.Labels), n.Text
}

// Len returns how many records of artifact have a note.
func (s *Store) Len(artifact string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c := 0
	for k := range s.notes {
		if k.artifact == artifact {
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
	for k, n := range s.notes {
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

// Set replaces record id's labels and note in artifact and writes the
// file. An empty note removes the record's line. On a write error the
// store keeps its previous content.
//
// Another window may have written the file since it was read: Set reads
// it again first (under a lock on its folder), so that window's notes are
// kept and only this record's note is replaced.
func (s *Store) Set(artifact, id string, labels []string, text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer lockDir(filepath.Dir(s.path))()
	if err := s.refresh(); err != nil {
		return err
	}
	k := key{artifact, id}
	old, had := s.notes[k]
	n := Note{Artifact: artifact, ID: id, Labels: cleanLabels(labels), Text: strings.TrimSpace(text)}
	added := false
	if n.empty() {
		delete(s.notes, k)
	} else {
		if !had {
			s.order = append(s.order, k)
			added = true
		}
		s.notes[k] = n
	}
	if err := s.write(); err != nil {
		if had {
			s.notes[k] = old
		} else {
			delete(s.notes, k)
		}
		if added {
			// write leaves s.order alone on failure: drop the key
			// appended above so a retry does not list it twice.
			s.order = s.order[:len(s.order)-1]
		}
		return err
	}
	return nil
}

// lockWait is how long lockDir tries for the lock.
const lockWait = 500 * time.Millisecond

// refresh reads the file again into the store. It fails, keeping the
// store, when the file cannot be read or no longer holds notes (something
// else replaced it: writing would destroy it).
//
// A missing file leaves the store as it is: nothing on disk to keep, and
// the next write puts the store's notes back (a folder that vanished and
// came back).
func (s *Store) refresh() error {
	if _, err := os.Stat(s.path); errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil
	}
	fresh := &Store{notes: map[key]Note{}, path: s.path}
	bad := 0
	for _, is := range fresh.load() {
		if is.Line == 0 || is.Code == "notes-unreadable" {
			return fmt.Errorf("%s: %s", s.path, is.Message)
		}
		bad++
	}
	if len(fresh.notes) == 0 && bad > 0 {
		return fmt.Errorf("%s is no longer a notes file (no line is a note); the note was not saved", s.path)
	}
	s.notes, s.order = fresh.notes, fresh.order
	return nil
}

// lockDir takes an exclusive lock on folder dir for one read and write of
// a notes file in it, and returns its release. Locking is best effort: it
// only keeps two evalview windows from interleaving their writes, so a
// folder that cannot be opened or locked within lockWait (another process
// holding it) is written unlocked rather than freeze the browser, which
// saves notes on its event loop.
func lockDir(dir string) func() {
	f, err := os.Open(dir)
	if err != nil {
		return func() {}
	}
	locked := false
	for deadline := time.Now().Add(lockWait); ; time.Sleep(lockWait / 20) {
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			locked = true
			break
		}
		if time.Now().After(deadline) {
			break
		}
	}
	if !locked {
		f.Close()
		return func() {}
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}

// write replaces the file with the store's notes, atomically; when the
// sidecar's folder is not writable it switches to the fallback path.
func (s *Store) write() error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	// A new slice, assigned only once the file is written: compacting
	// s.order in place would lose the key of a note Set restores after a
	// failed write.
	kept := make([]key, 0, len(s.order))
	for _, k := range s.order {
		n, ok := s.notes[k]
		if !ok {
			continue
		}
		kept = append(kept, k)
		if err := enc.Encode(n); err != nil {
			return err
		}
	}
	err := writeAtomic(s.path, b.Bytes(), s.fixed)
	if err != nil && !s.fixed && s.fallback != "" {
		if ferr := writeAtomic(s.fallback, b.Bytes(), true); ferr == nil {
			s.path, s.fallback = s.fallback, ""
			err = nil
		}
	}
	if err == nil {
		s.order = kept
	}
	return err
}

// writeAtomic writes data to path through a temporary file in the same
// folder and a rename, so a reader never sees half a file; mkdir creates
// the folder first.
func writeAtomic(path string, data []byte, mkdir bool) error {
	dir := filepath.Dir(path)
	if mkdir {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync() // on disk before the rename makes it the notes
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return werr
	}
	if d, err := os.Open(dir); err == nil { // the rename itself, best effort
		_ = d.Sync()
		d.Close()
	}
	return nil
}
