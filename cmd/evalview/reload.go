package main

import (
	"errors"
	"path/filepath"

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
		// An lm-eval samples file opened alone finds its results file
		// beside it, as its folder would pair them.
		fresh, err := loaders.Open([]string{ds.Path}, o)
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
