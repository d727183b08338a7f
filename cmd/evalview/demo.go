package main

import (
	"io/fs"
	"os"
	"path/filepath"

	"evalview"
)

// writeDemo copies the embedded demo artifacts into a fresh temporary
// folder, read-only, so the loaders open them like any user's files. It
// returns one path per format folder, and a cleanup that removes them.
func writeDemo() ([]string, func(), error) {
	dir, err := os.MkdirTemp("", "evalview-demo-")
	if err != nil {
		return nil, nil, err
	}
	cleanup := func() {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(p, 0o755)
			}
			return nil
		})
		_ = os.RemoveAll(dir)
	}
	root := "testdata/demo"
	err = fs.WalkDir(evalview.Demo, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		dst := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := evalview.Demo.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o444)
	})
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	// lm-eval first: its models share tasks, and the overview's first
	// column is its baseline, so that the first screen compares.
	var paths []string
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if e.Name() == "lm_eval" {
			paths = append([]string{p}, paths...)
			continue
		}
		paths = append(paths, p)
	}
	return paths, cleanup, nil
}
