package loaders

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"evalview/model"
)

// A folder's walk tells Reading each file it comes to, and stops at the
// next file once the opening's context is done, returning its error: the
// browser quitting ends the opening of a folder of many files.
func TestEachContextEnds(t *testing.T) {
	dir := t.TempDir()
	for i := range 40 {
		p := filepath.Join(dir, fmt.Sprintf("part%02d.jsonl", i))
		if err := os.WriteFile(p, []byte(fmt.Sprintf(`{"id": %d, "question": "q", "answer": "a"}`+"\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var read []string
	all := 0
	err := Each([]string{dir}, Options{Reading: func(p string) { read = append(read, p) }}, func(*model.Dataset) error {
		all++
		return nil
	})
	if err != nil || all != 40 || len(read) != 41 { // the folder, then its files
		t.Fatalf("whole walk: %d datasets, %d files told, %v", all, len(read), err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := 0
	err = Each([]string{dir, filepath.Join(dir, "part00.jsonl")}, Options{Context: ctx}, func(*model.Dataset) error {
		got++
		if got == 3 {
			cancel()
		}
		return nil
	})
	if got != 3 {
		t.Errorf("%d datasets handed over after the context ended at the third", got)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("the walk's error is %v, not the context's", err)
	}

	// A context done before the opening opens nothing.
	got = 0
	err = Each([]string{filepath.Join(dir, "part00.jsonl")}, Options{Context: ctx}, func(*model.Dataset) error {
		got++
		return nil
	})
	if got != 0 || !errors.Is(err, context.Canceled) {
		t.Errorf("done context: %d datasets, %v", got, err)
	}
}
