package notes

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"evalview/internal/safefile"
	"evalview/internal/termsafe"
	"evalview/model"
)

// editedLayout writes Note.Edited with a fixed width (RFC 3339 in UTC,
// nanoseconds), so that the times of one file read as they sort.
const editedLayout = "2006-01-02T15:04:05.000000000Z"

// editedTime is n's edit time; the zero time (older than any edit) for a
// line written before notes had one, or one whose time cannot be read.
func (n Note) editedTime() time.Time {
	t, err := time.Parse(time.RFC3339Nano, n.Edited)
	if err != nil {
		return time.Time{}
	}
	return t
}

// newer reports whether a is a later edit than b.
func newer(a, b Note) bool { return a.editedTime().After(b.editedTime()) }

// entry is one line of a notes file, in file order: a note's key, or a
// line that is not a note, kept verbatim.
type entry struct {
	k   key
	raw []byte // nil for a note
}

// fileData is what one notes file holds.
type fileData struct {
	path    string
	exists  bool
	entries []entry
	notes   map[key]Note
	issues  []model.Issue
	// bad counts the lines that are not notes; unreadable is set when the
	// file exists but could not be read (whole or to its end).
	bad        int
	unreadable bool
	// refused is set when what is at path is not a notes file evalview
	// will read or write: not a regular file (a symbolic link, a FIFO, a
	// device, a folder: safefile.NotFileError) or too large.
	refused error
}

// maxFileSize bounds what a notes file may hold: 64 MiB is some 300,000
// notes, far past what people label by hand, and far less than a file
// that is something else (a link to /dev/zero, a data file) would have
// the store hold in memory.
var maxFileSize int64 = 64 << 20

// readFile reads the notes file at path. A missing file is an empty one.
// Lines that are not notes are kept (entries with raw set) and reported as
// notes-bad-line warnings with their line numbers. What is not a regular
// file (a symbolic link, a FIFO, a device, a folder) is refused without
// being read, as is a file larger than maxFileSize: refused says why.
func readFile(path string) *fileData {
	fd := &fileData{path: path, notes: map[key]Note{}}
	f, fi, err := safefile.Open(path)
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist) || isNotDir(err):
		return fd
	case errors.Is(err, safefile.ErrNotFile):
		fd.exists, fd.refused = true, err
		return fd
	default:
		fd.exists, fd.unreadable = true, true
		fd.issues = append(fd.issues, model.Warnf("notes-unreadable", path, 0, "", "notes file cannot be read: %v", err))
		return fd
	}
	defer f.Close()
	fd.exists = true
	tooLarge := func() *fileData {
		return &fileData{path: path, notes: map[key]Note{}, exists: true,
			refused: &safefile.TooLargeError{Path: path, Limit: maxFileSize}}
	}
	if fi.Size() > maxFileSize {
		return tooLarge()
	}
	r := bufio.NewReaderSize(io.LimitReader(f, maxFileSize+1), 64*1024)
	line, size := 0, int64(0)
	for {
		b, err := r.ReadBytes('\n')
		if size += int64(len(b)); size > maxFileSize {
			return tooLarge() // it grew while read
		}
		if len(b) > 0 {
			line++
			fd.addLine(bytes.TrimSuffix(b, []byte("\n")), line)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				fd.unreadable = true
				fd.issues = append(fd.issues, model.Warnf("notes-unreadable", path, line+1, "", "notes file cannot be read: %v", err))
			}
			return fd
		}
	}
}

// addLine adds line number n (its bytes without the newline).
func (fd *fileData) addLine(b []byte, n int) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return // blank lines carry nothing; a write drops them
	}
	var note Note
	err := json.Unmarshal(t, &note)
	if err != nil || note.ID == "" {
		msg := "not a note object"
		if err != nil {
			msg = "not JSON: " + err.Error()
		}
		fd.bad++
		fd.entries = append(fd.entries, entry{raw: bytes.Clone(b)})
		fd.issues = append(fd.issues, model.Warnf("notes-bad-line", fd.path, n, "",
			"%s; evalview skips the line and keeps it in the file as it is (mend or delete it by hand)", msg))
		return
	}
	note.Labels = cleanLabels(note.Labels)
	k := key{note.Artifact, note.ID}
	if _, ok := fd.notes[k]; !ok {
		fd.entries = append(fd.entries, entry{k: k})
	}
	fd.notes[k] = note
}

// notNotes reports whether the file has content but not one note: it is
// not a notes file (perhaps the artifact itself), and must not be
// replaced.
func (fd *fileData) notNotes() bool { return len(fd.notes) == 0 && fd.bad > 0 }

// encode is the file's new content: its entries in their order (a note
// as merged holds it, dropped when it is gone; a kept line as it was),
// then the notes it did not hold, in order. A removal is written as a
// tombstone (a note with an edit time and nothing else) only while other
// holds the note, which would otherwise bring it back at the next merge.
func (fd *fileData) encode(merged map[key]Note, order []key, other *fileData) ([]byte, error) {
	var b bytes.Buffer
	put := func(n Note) error {
		if n.empty() && (other == nil || other.notes[key{n.Artifact, n.ID}].ID == "") {
			return nil
		}
		line, err := json.Marshal(n)
		if err != nil {
			return err
		}
		// The file is output too: no raw C1 or bidi control in it.
		b.Write(termsafe.EscapeJSON(line))
		b.WriteByte('\n')
		return nil
	}
	done := map[key]bool{}
	for _, e := range fd.entries {
		if e.raw != nil {
			b.Write(e.raw)
			b.WriteByte('\n')
			continue
		}
		if n, ok := merged[e.k]; ok && !done[e.k] {
			done[e.k] = true
			if err := put(n); err != nil {
				return nil, err
			}
		}
	}
	for _, k := range order {
		if n, ok := merged[k]; ok && !done[k] {
			done[k] = true
			if err := put(n); err != nil {
				return nil, err
			}
		}
	}
	return b.Bytes(), nil
}

// writeAtomic writes data to path through a new file in the same folder
// and a rename (safefile.WriteAtomic: a reader never sees half a file, a
// kill leaves the old one, nothing planted at any name is written
// through); mkdir creates the folder first. The caller holds path's lock.
func writeAtomic(path string, data []byte, mkdir bool) error {
	if mkdir {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
	}
	return safefile.WriteAtomic(path, data, 0o644)
}

// removeLeftovers removes the temporary files that writes of path killed
// before their rename left in its folder: only writeAtomic's own names,
// only regular files of this user. The caller holds path's lock, so no
// evalview is writing one now.
func removeLeftovers(path string) {
	ents, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return
	}
	base := filepath.Base(path)
	for _, e := range ents {
		if !e.Type().IsRegular() || !safefile.IsTemp(e.Name(), base) {
			continue
		}
		if fi, err := e.Info(); err == nil && safefile.Owned(fi) {
			os.Remove(filepath.Join(filepath.Dir(path), e.Name()))
		}
	}
}

// isNotDir reports an error for a path under a regular file: no notes
// file can be there.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }
