// Package safefile opens and writes the files evalview keeps beside an
// artifact or in a shared folder (notes, their lock, the temporary copies
// a pager gets, the block cache, the crash log) so that someone who can
// write that folder cannot turn a write of evalview's into a write
// elsewhere, nor hang or flood it with a special file:
//
//   - a path that is a symbolic link, a named pipe (FIFO), a device, a
//     socket or a folder is refused with a NotFileError that names the
//     path and what it is (Check, Open); it is never opened, and a path
//     swapped for one between the check and the open is caught by the
//     open itself (no-follow, non-blocking where the system has them) and
//     by comparing the file opened with the one checked;
//   - a new file is created exclusively (O_CREATE|O_EXCL: an existing
//     name, a symbolic link included, fails) under a name nobody can
//     predict (crypto/rand), so there is nothing to plant in advance
//     (CreateTemp);
//   - a file is replaced through such a file in its folder and a rename,
//     which replaces a link rather than write through it (WriteAtomic).
//
// The standard library's os.CreateTemp is exclusive and unpredictable
// too, but fixes the mode at 0600; notes files are shared with the other
// users of a folder as before (0644, less the umask), so CreateTemp here
// takes a mode. github.com/google/renameio, the well-kept library for
// atomic replacement, does not build its temporary files on Windows,
// which evalview ships for; and neither checks what the path was.
package safefile

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrNotFile is matched (errors.Is) by every NotFileError.
var ErrNotFile = errors.New("not a regular file")

// NotFileError refuses a path that is not a regular file.
type NotFileError struct {
	Path string
	// What it is: "a symbolic link to /etc/passwd", "a named pipe (FIFO)",
	// "a device", "a socket", "a folder".
	What string
}

func (e *NotFileError) Error() string { return e.Path + " is " + e.What + ", not a regular file" }

// Is makes errors.Is(err, ErrNotFile) match.
func (e *NotFileError) Is(target error) bool { return target == ErrNotFile }

// TooLargeError refuses a file larger than what its reader takes.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, more than evalview reads of such a file", e.Path, Size(e.Limit))
}

// Size writes n bytes for a message: "64 MiB", "512 KiB", "100 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// what describes a file mode that is not a regular file's.
func what(path string, fi fs.FileInfo) string {
	m := fi.Mode()
	switch {
	case m&fs.ModeSymlink != 0:
		if to, err := os.Readlink(path); err == nil {
			return "a symbolic link to " + to
		}
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	}
	return "a special file"
}

// Check reports what is at path without following a link: a nil info and
// nil error when nothing is (fs.ErrNotExist, or a path under a regular
// file); the info of a regular file; a *NotFileError for anything else;
// another error when the path cannot be looked at.
func Check(path string) (fs.FileInfo, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
			return nil, nil
		}
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotFileError{Path: path, What: what(path, fi)}
	}
	return fi, nil
}

// Open opens the regular file at path for reading. Anything else at path
// is refused (Check) and never opened; a missing file is fs.ErrNotExist.
// The open neither follows a link nor waits for a FIFO's writer (where
// the system has the flags), and the file opened must be the one checked,
// so that a swap between the two is refused too.
func Open(path string) (*os.File, fs.FileInfo, error) {
	fi, err := Check(path)
	if err != nil {
		return nil, nil, err
	}
	if fi == nil {
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|NoFollow, 0)
	if err != nil {
		if isLoop(err) { // O_NOFOLLOW met a link put there since the check
			return nil, nil, &NotFileError{Path: path, What: "a symbolic link"}
		}
		return nil, nil, err
	}
	opened, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !opened.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotFileError{Path: path, What: what(path, opened)}
	}
	if !os.SameFile(fi, opened) {
		f.Close()
		return nil, nil, fmt.Errorf("%s was replaced while evalview opened it", path)
	}
	return f, opened, nil
}

// ReadFile reads the regular file at path (Open), refusing one larger
// than limit bytes with a *TooLargeError: the size is checked before
// reading and the read stops past the limit (a file that grows).
func ReadFile(path string, limit int64) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return b, nil
}

// CreateTemp creates a new file in dir named prefix, a random part and
// suffix, with mode perm (less the umask), open for writing. The create
// is exclusive and does not follow a link, so nothing planted at the name
// is opened; the random part (128 bits from crypto/rand) is what makes
// the name impossible to plant in advance. A name taken is tried again
// with another random part, a few times.
func CreateTemp(dir, prefix, suffix string, perm fs.FileMode) (*os.File, error) {
	var err error
	for range 10 {
		name := filepath.Join(dir, prefix+rand.Text()+suffix)
		var f *os.File
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL|NoFollow, perm)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
	}
	return nil, err
}

// WriteAtomic replaces the file at path with data: written to a new file
// in the same folder (CreateTemp), synced, then renamed over path, so
// that a reader sees the old file or the new one, whole, and a kill
// leaves the old file. The new file keeps the old one's permissions, or
// gets perm (less the umask) when there was none. A path that is anything
// but a regular file is refused (Check): the rename would replace a link
// rather than follow it, yet a link there was put by someone else, and
// the user must know. The folder must exist.
func WriteAtomic(path string, data []byte, perm fs.FileMode) error {
	old, err := Check(path)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	f, err := CreateTemp(dir, "."+filepath.Base(path)+".tmp-", "", perm)
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil && old != nil {
		werr = f.Chmod(old.Mode().Perm())
	}
	if werr == nil {
		werr = f.Sync() // on disk before the rename makes it the file
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
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

// IsTemp reports whether name (a base name) is one of WriteAtomic's
// temporary files for the file named base: what a kill during a write
// leaves, which the next writer holding the file's lock may remove.
func IsTemp(name, base string) bool {
	prefix := "." + base + ".tmp-"
	return len(name) == len(prefix)+26 && name[:len(prefix)] == prefix
}
