package main

import (
	"errors"
	"path/filepath"
	"strings"

	"evalview/loaders"
	"evalview/model"
)

// reopener loads a dataset again from its path for the browser's `r`: the
// dataset of the same kind and task found there (a folder may hold more).
func reopener(o loaders.Options) func(ds *model.Dataset) (*model.Dataset, error) {
	return func(ds *model.Dataset) (*model.Dataset, error) {
		if ds.Path == "" {
			return nil, errors.New("the dataset has no file to reload")
		}
		// An lm-eval dataset's path is its samples file, and the file alone
		// opens without its results file (no reported metrics, no filter
		// configs): reopen its folder and pick the dataset back out.
		path := ds.Path
		if ds.Kind == model.KindLMEval && hasResultsFact(ds) {
			path = filepath.Dir(ds.Path)
		}
		fresh, err := loaders.Open([]string{path}, o)
		if len(fresh) == 0 && path != ds.Path {
			fresh, err = loaders.Open([]string{ds.Path}, o)
		}
		if len(fresh) == 0 {
			if err == nil {
				err = errors.New("no dataset found")
			}
			return nil, err
		}
		for _, f := range fresh {
			if f.Kind == ds.Kind && f.Task == ds.Task && filepath.Clean(f.Path) == filepath.Clean(ds.Path) {
				return f, nil
			}
		}
		return fresh[0], nil
	}
}

// hasResultsFact reports whether an lm-eval dataset was opened with a
// results file (its facts do not say "results file: none found").
func hasResultsFact(ds *model.Dataset) bool {
	for _, f := range ds.Facts {
		if f.Key == "results file" && strings.HasPrefix(f.Value, "none found") {
			return false
		}
	}
	return true
}
