package jsonl

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"evalview/loaders/internal/zipsafe"
	"evalview/loaders/source"
)

// ErrNotRegular is returned for paths that are not regular files: FIFOs,
// devices, sockets, folders.
var ErrNotRegular = errors.New("not a regular file; refusing to read it")

// OpenRegular opens path read-only if it is a regular file. It checks
// before opening because opening a FIFO blocks until a writer appears, and
// a device such as /dev/zero never ends; loaders use it for every file they
// find in a folder, where nothing has been checked yet.
func OpenRegular(path string) (source.File, error) {
	st, err := source.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &os.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return source.Open(path)
}

// ErrTooLarge is ReadRegular's error for a file larger than it reads
// (errors.Is finds it).
var ErrTooLarge = errors.New("too large to read whole")

type tooLargeError struct{ size, limit int64 }

func (e tooLargeError) Error() string {
	return fmt.Sprintf("the file is %s; evalview reads it whole, and only up to %s", zipsafe.SizeOf(e.size), zipsafe.SizeOf(e.limit))
}

func (e tooLargeError) Is(target error) bool { return target == ErrTooLarge }

// Bare is err without the path an *fs.PathError adds, for a message that
// names the file already.
func Bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Refused reports whether err is OpenRegular's or ReadRegular's refusal
// of a file (not a regular file, or too large to read whole): an issue
// of reading it (read-error), not of what it holds.
func Refused(err error) bool { return errors.Is(err, ErrNotRegular) || errors.Is(err, ErrTooLarge) }

// ReadCode is the code of an issue of a file that did not read:
// read-error when it was refused (Refused), else bad, the format's code
// for what it holds (bad-json).
func ReadCode(err error, bad string) string {
	if Refused(err) {
		return "read-error"
	}
	return bad
}

// ReadRegular reads the regular file at path whole, as OpenRegular opens
// it (a FIFO, device or folder is refused unopened), into a buffer of
// its size: a file larger than limit bytes is refused before anything is
// read or allocated, its size and the limit said (a sparse file declares
// terabytes in a few bytes of disk), and a file that grows past limit
// while it is read fails at the limit.
//
// Its errors do not name the file: the issue that says them does.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, Bare(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, tooLargeError{st.Size(), limit}
	}
	data, err := zipsafe.ReadCappedSized(f, limit, st.Size())
	if errors.Is(err, zipsafe.ErrTooLarge) {
		return nil, tooLargeError{limit + 1, limit} // it grew while it was read
	}
	return data, err
}
