package runzip

import (
	"archive/zip"

	"evalview/loaders/internal/zipsafe"
)

// Records of a zipped run are read back from the zip when they are asked
// for, from the archive zipsafe keeps open (shared with Inspect's .eval
// reader): opening the zip for every record made check and export take
// time in n².

// acquireZip returns the open archive at path and its release function.
func acquireZip(path string) (*zip.Reader, func(), error) { return zipsafe.Acquire(path) }
