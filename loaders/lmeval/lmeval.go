// Package lmeval loads lm-evaluation-harness --log_samples output: samples
// files (JSONL, or the old harness's JSON array), results files, model
// folders holding several tasks and runs, and output folders holding
// several model folders. Rows of one doc_id are joined across filters into
// one record.
package lmeval

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// Open loads a samples file, a results file, or a folder, and returns once
// every samples file is fully indexed.
func Open(path string) ([]*model.Dataset, error) { return open(path, openMode{}) }

// OpenBackground is Open for the browser: it returns as soon as the first
// rows of the first samples file are indexed (or after firstRowsWait),
// while the indexes keep growing in the background. Their Done turns true
// when complete; until then the browser must call the index's
// SyncDataset(ds) (on its own goroutine) to take in filters and issues.
func OpenBackground(path string) ([]*model.Dataset, error) {
	return open(path, openMode{background: true})
}

// OpenForDeep is Open for a caller that runs every dataset's Deep next
// (check, summary): the index prepares it while it reads the file.
func OpenForDeep(path string) ([]*model.Dataset, error) { return open(path, openMode{deep: true}) }

// openMode is how the Open variants index.
type openMode struct {
	// background returns before the index is complete (the browser).
	background bool
	// deep prepares the deep check while indexing.
	deep bool
}

func open(path string, mode openMode) ([]*model.Dataset, error) {
	st, err := source.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return openMany([]string{path}, mode)
	}
	files, err := findFiles(path, 0)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, errors.New("no lm-eval samples or results files in this folder")
	}
	return assemble(files, mode)
}

// File is an lm-eval file that a caller's own search of a folder found
// (loaders' walk of every folder below the one opened): Results tells a
// results file from a samples file, as the caller read its name or head.
type File struct {
	Path    string
	Results bool
}

// OpenFiles opens files found by a caller's search as Open opens the
// files its own search of a folder finds: samples paired with their
// results, titles made unique across them all. background and deep are
// as for OpenBackground and OpenForDeep.
func OpenFiles(files []File, background, deep bool) ([]*model.Dataset, error) {
	return assemble(foundOf(files), openMode{background: background, deep: deep})
}

func foundOf(files []File) []found {
	out := make([]found, len(files))
	for i, f := range files {
		out[i] = found{path: f.Path, results: f.Results}
	}
	return out
}

// IsSamplesName tells whether a file name is one the harness gives a
// samples file (samples_<task>_<ts>.jsonl, compressed too). A search
// takes such files at their name's word without reading them: a file
// that is not what its name says is a dataset with errors when it is
// opened, not a file left out; a folder of 5,000 samples files is read
// once, not twice. (A results_<ts>.json is read: lighteval names its
// results files so too.)
func IsSamplesName(name string) bool {
	return strings.HasPrefix(name, "samples_") && strings.EqualFold(filepath.Ext(jsonl.TrimCompressedExt(name)), ".jsonl")
}

// IsHarnessName tells whether a file name is one the harness writes: a
// samples file's, or a results file's (results_<ts>.json, which lighteval
// writes too: a hint of where lm-eval files are, not a verdict).
func IsHarnessName(name string) bool {
	return IsSamplesName(name) || resultsNameRE.MatchString(name)
}

// ByContent tells whether a file's head is an lm-eval file beyond what
// SniffFile scores: a samples file whose first row is broken but a later
// one is a row, or a Git LFS pointer named samples_*; results reports a
// results file (by its content, or by its harness name when it is too
// broken to tell: it opens as a results file that says why it breaks).
func ByContent(name string, head []byte) (ok, results bool) {
	switch {
	case isResultsJSON(head), resultsNameRE.MatchString(name):
		return true, true
	case samplesInHead(head), jsonl.IsLFSPointer(head) && strings.HasPrefix(name, "samples_"):
		return true, false
	}
	return false, false
}

// OpenMany loads files named one by one, joining samples with the results
// file of the same run.
func OpenMany(paths []string) ([]*model.Dataset, error) { return openMany(paths, openMode{}) }

// OpenManyBackground is OpenMany for the browser (see OpenBackground).
func OpenManyBackground(paths []string) ([]*model.Dataset, error) {
	return openMany(paths, openMode{background: true})
}

// OpenManyForDeep is OpenMany for a caller that runs Deep next (see
// OpenForDeep).
func OpenManyForDeep(paths []string) ([]*model.Dataset, error) {
	return openMany(paths, openMode{deep: true})
}

func openMany(paths []string, mode openMode) ([]*model.Dataset, error) {
	var files []found
	for _, p := range paths {
		head, err := readHead(p)
		if err != nil {
			return nil, err
		}
		files = append(files, found{path: p, results: isResultsJSON(head) || resultsNameRE.MatchString(filepath.Base(p))})
	}
	return assemble(withCompanions(files), mode)
}

// withCompanions adds, for each samples file named without any results
// file of its folder, the results file its folder would pair it with
// (results_<same timestamp>.json, else the folder's only results file):
// users open one samples file and expect the reported metrics and the
// filter config, as for its folder.
func withCompanions(files []found) []found {
	named := map[string]bool{}
	for _, f := range files {
		if f.results {
			named[source.Dir(f.path)] = true
		}
	}
	out := files
	seen := map[string]bool{}
	for _, f := range files {
		dir := source.Dir(f.path)
		if f.results || named[dir] {
			continue
		}
		p := companionOf(dir, stampOf(filepath.Base(f.path)))
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		if !isFile(p) {
			continue
		}
		if head, err := readHead(p); err == nil && isResultsJSON(head) {
			out = append(out, found{path: p, results: true, companion: true})
		}
	}
	return out
}

// companionOf names the results file of the run stamped stamp in dir, or
// the folder's only results*.json when none is stamped so; "" for none.
func companionOf(dir, stamp string) string {
	if stamp != "" {
		if p := source.Join(dir, "results_"+stamp+".json"); isFile(p) {
			return p
		}
	}
	// filepath.Glob through source: a remote folder is listed too.
	ents, _ := source.ReadDir(dir)
	var all []string
	for _, e := range ents {
		if ok, _ := filepath.Match("results*.json", e.Name()); ok {
			all = append(all, source.Join(dir, e.Name()))
		}
	}
	if len(all) == 1 {
		return all[0]
	}
	return ""
}

func isFile(p string) bool {
	st, err := source.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// assemble pairs samples files with results files (same folder and
// timestamp, or the folder's only results file) and builds one dataset per
// samples file, plus one per results file that no samples file matched.
func assemble(files []found, mode openMode) ([]*model.Dataset, error) {
	res, samples, companion, broken, unreadable, errs := sortFiles(files)
	byContent, ambiguous := pairByContent(samples, res)
	var out []*model.Dataset
	used := map[*results]map[string]bool{}
	for _, sp := range samples {
		r, task := pairOf(sp, res, byContent)
		var b *brokenResults
		if r == nil {
			b = brokenFor(sp, broken)
		}
		ds, err := samplesDatasetOf(sp, r, b, task, mode)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", sp, err))
			continue
		}
		ds.Issues = append(ds.Issues, ambiguousIssues(sp, ambiguous)...)
		if r != nil {
			if used[r] == nil {
				used[r] = map[string]bool{}
			}
			used[r][ds.Task] = true
		}
		out = append(out, ds)
	}
	for _, r := range res {
		comps := r.groupComparisons()
		first := true
		for _, ds := range out {
			if slices.Contains(ds.Companions, r.Path) {
				gs := r.groupsOf(comps, ds.Task)
				if first {
					gs, first = append(gs, r.unheldGroups(comps, used[r])...), false
				}
				setGroups(ds, gs)
			}
		}
		if companion[r] {
			continue // lent to its samples file only
		}
		if used[r] == nil {
			ds := resultsDataset(r)
			setGroups(ds, comps)
			out = append(out, ds)
			continue
		}
		var missing []string
		for _, t := range r.Tasks {
			if !used[r][t] {
				missing = append(missing, t)
			}
		}
		if len(missing) > 0 {
			// Say it once per run, on that run's first dataset.
			for _, ds := range out {
				if slices.Contains(ds.Companions, r.Path) {
					ds.Issues = append(ds.Issues, model.Warnf("task-missing", r.Path, 0, "",
						"results file lists %s with no samples file here", plural(len(missing), "task", missing)))
					break
				}
			}
		}
	}
	if mode.background {
		var scans []*scanned
		for _, ds := range out {
			if x, ok := ds.Records.(*index); ok {
				scans = append(scans, x.s)
			}
		}
		startDeferred(scans) // in dataset order: the first shown is indexed first
	}
	settle(out, mode.background)
	out = append(out, unreadable...) // after the readable ones: the browser opens on the first
	disambiguate(out)
	if len(out) == 0 {
		return nil, errors.Join(errs...)
	}
	return out, errors.Join(errs...)
}

// sortFiles reads the results files among files and lists the samples
// files, sorted; companion marks the results files found beside a samples
// file named alone. A results file that cannot be read is in broken (its
// run's samples files name it) and, when the user named it or its folder,
// a dataset of its own in unreadable.
func sortFiles(files []found) (res []*results, samples []string, companion map[*results]bool, broken []brokenResults, unreadable []*model.Dataset, errs []error) {
	companion = map[*results]bool{}
	for _, f := range files {
		if !f.results {
			samples = append(samples, f.path)
			continue
		}
		r, err := readResults(f.path)
		if err != nil {
			b := brokenResults{path: f.path, stamp: stampOf(filepath.Base(f.path)), err: err}
			broken = append(broken, b)
			if !f.companion { // a broken neighbour the user did not name is not their error
				unreadable = append(unreadable, brokenDataset(b))
			}
			continue
		}
		companion[r] = f.companion
		res = append(res, r)
	}
	slices.SortFunc(samples, comparePaths)
	return res, samples, companion, broken, unreadable, errs
}

// comparePaths orders paths folder by folder, as a listing shows them:
// "m/x" before "m-instruct/x" (a plain string order puts "-" before
// "/", and so a model folder after the folders named after it plus a
// suffix).
func comparePaths(a, b string) int {
	for {
		ah, at, aok := cutSep(a)
		bh, bt, bok := cutSep(b)
		if c := strings.Compare(ah, bh); c != 0 {
			return c
		}
		switch {
		case !aok && !bok:
			return 0
		case !aok:
			return -1 // a file before a folder of the same name
		case !bok:
			return 1
		}
		a, b = at, bt
	}
}

// cutSep cuts p at its first separator: "/", or the platform's.
func cutSep(p string) (head, tail string, ok bool) {
	i := strings.IndexFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator })
	if i < 0 {
		return p, "", false
	}
	return p[:i], p[i+1:], true
}

// plural names n items, listing at most five of them.
func plural(n int, noun string, items []string) string {
	if n == 1 {
		return noun + " " + items[0]
	}
	list := strings.Join(items, ", ")
	if len(items) > 5 {
		list = strings.Join(items[:5], ", ") + fmt.Sprintf(" and %d more", len(items)-5)
	}
	return fmt.Sprintf("%d %ss (%s)", n, noun, list)
}

// matchResults finds the results file of a samples file's run.
func matchResults(samplesPath string, res []*results) *results {
	dir := source.Dir(samplesPath)
	stamp := stampOf(filepath.Base(samplesPath))
	var sameDir []*results
	for _, r := range res {
		if source.Dir(r.Path) != dir {
			continue
		}
		if stamp != "" && r.Stamp == stamp {
			return r
		}
		sameDir = append(sameDir, r)
	}
	if len(sameDir) == 1 {
		return sameDir[0]
	}
	if len(sameDir) == 0 && len(res) == 1 && stamp == "" {
		return res[0]
	}
	return nil
}

// taskOf names the task of a samples file: from samples_<task>_<stamp>,
// else the results file's task whose name the file name ends with (the
// old harness's <model_args>_<task>.jsonl), else its only task.
func taskOf(samplesPath string, r *results) string {
	name := jsonl.TrimCompressedExt(filepath.Base(samplesPath))
	base := strings.TrimSuffix(name, filepath.Ext(name))
	if strings.HasPrefix(base, "samples_") {
		t := strings.TrimPrefix(base, "samples_")
		if st := stampOf(t); st != "" {
			t = strings.TrimSuffix(strings.TrimSuffix(t, st), "_")
		}
		if t != "" {
			return t
		}
	}
	if r != nil {
		best := ""
		for _, t := range r.Tasks {
			if (base == t || strings.HasSuffix(base, "_"+t)) && len(t) > len(best) {
				best = t
			}
		}
		if best != "" {
			return best
		}
		if len(r.Tasks) == 1 {
			return r.Tasks[0]
		}
	}
	return base
}

// firstRowsWait bounds how long OpenBackground waits for the first rows,
// so that the browser's first screen shows rows yet comes up at once even
// when the first row is hundreds of MB.
const firstRowsWait = 60 * time.Millisecond

// settle waits for the samples indexes (all scanning in parallel): until
// each is complete, or in the background case until the first one has
// rows to show. Then it syncs each dataset with what its index knows.
func settle(out []*model.Dataset, background bool) {
	var first *index
	for _, ds := range out {
		x, ok := ds.Records.(*index)
		if !ok {
			continue
		}
		if !background {
			_ = x.Wait() // a read error is a dataset issue, set by SyncDataset
		} else if first == nil {
			first = x
			select {
			case <-x.s.firstRows:
			case <-time.After(firstRowsWait):
			}
		}
		x.SyncDataset(ds)
	}
}
