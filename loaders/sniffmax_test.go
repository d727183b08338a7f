package loaders

import (
	"io/fs"
	"path/filepath"
	"testing"

	"evalview/loaders/internal/folder"
)

// TestFileMaxHolds checks every format's fileMax against what its
// sniffer scores on every file of the fixtures and the real artifacts:
// detection skips a format once a format before it scored its fileMax,
// so a sniffer scoring above it would lose files it should win.
func TestFileMaxHolds(t *testing.T) {
	files := 0
	for _, root := range []string{"../testdata", "../../shared/data"} {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			head, err := folder.ReadHead(path)
			if err != nil {
				return nil
			}
			files++
			for _, f := range formats() {
				if f.fileMax == 0 {
					continue
				}
				if s := f.sniff(path, head); s > f.fileMax {
					t.Errorf("%s: %s scores %d, above its fileMax %d", path, f.kind, s, f.fileMax)
				}
			}
			return nil
		})
	}
	if files < 50 {
		t.Fatalf("only %d files sniffed: the fixtures are missing", files)
	}
}
