package jsonl

import (
	"errors"
	"os"

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
