package lmeval

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"

	"evalview/loaders/source"
	"evalview/model"
)

// Each opens a folder as Open does and hands fn each dataset as soon as
// its samples file is indexed, keeping none: check, summary and export
// of a folder of 100,000 samples files hold a few datasets at a time,
// not all of them (which took gigabytes, and minutes of collection under
// the commands' memory limit). A file opens as with Open.
// An error from fn stops it and is returned.
func Each(path string, fn func(*model.Dataset) error) error {
	files, err := folderFiles(path)
	if err != nil {
		return err
	}
	return each(files, openMode{}, fn)
}

// EachForDeep is Each for a caller that runs every dataset's Deep (see
// OpenForDeep).
func EachForDeep(path string, fn func(*model.Dataset) error) error {
	files, err := folderFiles(path)
	if err != nil {
		return err
	}
	return each(files, openMode{deep: true}, fn)
}

// EachFiles is Each over files a caller's own search found (see
// OpenFiles); deep is as for EachForDeep.
func EachFiles(files []File, deep bool, fn func(*model.Dataset) error) error {
	return each(foundOf(files), openMode{deep: deep}, fn)
}

// each gives the datasets assemble would, in its order and with its
// titles and warnings: what those need of every dataset (its task, its
// results file) comes from the file names and the results files, read
// first, not from the samples. Up to two samples files per core are
// indexed ahead of the one handed over.
//
// One difference: assemble's task-missing warning leaves out the tasks of
// samples files that fail to open; here they count as present (the
// warning is given with the run's first dataset, before they are read).
func each(files []found, mode openMode, fn func(*model.Dataset) error) error {
	res, samples, companion, broken, unreadable, errs := sortFiles(files)

	// What the titles depend on: a samples dataset's title is its task
	// until uniqueTitles makes titles unique across the folder (as
	// disambiguate does for assemble), with the results datasets' after.
	type planned struct {
		path   string
		r      *results
		broken *brokenResults
		task   string
	}
	plans := make([]planned, len(samples))
	titles := make([]titled, 0, len(samples))
	used := map[*results]map[string]bool{}
	byContent, ambiguous := pairByContent(samples, res)
	for i, sp := range samples {
		r, task := pairOf(sp, res, byContent)
		if task == "" {
			task = taskOf(sp, r)
		}
		plans[i] = planned{path: sp, r: r, task: task}
		if r == nil {
			plans[i].broken = brokenFor(sp, broken)
		}
		titles = append(titles, titled{title: task, path: sp, stamp: stampOf(filepath.Base(sp))})
		if r != nil {
			if used[r] == nil {
				used[r] = map[string]bool{}
			}
			used[r][task] = true
		}
	}
	var resultsOnly []*model.Dataset
	missing := map[*results]model.Issue{}
	comps := map[*results][]model.GroupComparison{}
	for _, r := range res {
		comps[r] = r.groupComparisons()
		if companion[r] {
			continue
		}
		if used[r] == nil {
			ds := resultsDataset(r)
			setGroups(ds, comps[r])
			resultsOnly = append(resultsOnly, ds)
			titles = append(titles, titled{title: ds.Title, path: ds.Path}) // no stamp, as disambiguate: only samples files have one
			continue
		}
		var m []string
		for _, t := range r.Tasks {
			if !used[r][t] {
				m = append(m, t)
			}
		}
		if len(m) > 0 {
			missing[r] = model.Warnf("task-missing", r.Path, 0, "", "results file lists %s with no samples file here", plural(len(m), "task", m))
		}
	}
	for _, ds := range unreadable { // after the readable ones, as assemble puts them
		titles = append(titles, titled{title: ds.Title, path: ds.Path})
	}
	uniqueTitles(titles)
	for i, ds := range resultsOnly {
		ds.Title = titles[len(plans)+i].title
	}
	for i, ds := range unreadable {
		ds.Title = titles[len(plans)+len(resultsOnly)+i].title
	}

	type started struct {
		planned
		title string
		ds    *model.Dataset
		err   error
	}
	window := max(2, 2*runtime.GOMAXPROCS(0))
	var queue []started
	next := 0
	fill := func() {
		for next < len(plans) && len(queue) < window {
			p := plans[next]
			ds, err := samplesDatasetOf(p.path, p.r, p.broken, p.task, openMode{deep: mode.deep})
			if ds != nil {
				ds.Issues = append(ds.Issues, ambiguousIssues(p.path, ambiguous)...)
			}
			queue = append(queue, started{p, titles[next].title, ds, err})
			next++
		}
	}
	warned, grouped := map[*results]bool{}, map[*results]bool{}
	handed := 0
	fill()
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if s.err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.path, s.err))
			fill()
			continue
		}
		if is, ok := missing[s.r]; ok && !warned[s.r] {
			warned[s.r] = true
			s.ds.Issues = append(s.ds.Issues, is)
		}
		if x, ok := s.ds.Records.(*index); ok {
			_ = x.Wait() // a read error is a dataset issue, set by SyncDataset
			x.SyncDataset(s.ds)
		}
		if s.r != nil {
			gs := s.r.groupsOf(comps[s.r], s.ds.Task)
			if !grouped[s.r] {
				grouped[s.r] = true
				gs = append(gs, s.r.unheldGroups(comps[s.r], used[s.r])...)
			}
			setGroups(s.ds, gs)
		}
		s.ds.Title = s.title
		fill() // index the next files while fn works on this one
		handed++
		if err := fn(s.ds); err != nil {
			return err
		}
	}
	for _, ds := range append(resultsOnly, unreadable...) {
		handed++
		if err := fn(ds); err != nil {
			return err
		}
	}
	if handed == 0 && len(errs) == 0 {
		return errors.New("no lm-eval samples or results files in this folder")
	}
	return errors.Join(errs...)
}

// folderFiles lists a folder's lm-eval files, or a file's own.
func folderFiles(path string) ([]found, error) {
	st, err := source.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		head, err := readHead(path)
		if err != nil {
			return nil, err
		}
		return withCompanions([]found{{path: path, results: isResultsJSON(head)}}), nil
	}
	files, err := findFiles(path, 0)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, errors.New("no lm-eval samples or results files in this folder")
	}
	return files, nil
}
