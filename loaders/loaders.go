// Package loaders turns artifact files into model values: lm-eval samples
// and results, eval run zips and folders, standardized Sample JSONL, and
// Prompt Lab testsets. Detection looks at names and at content, since users
// rename files. Loaders never write to their inputs and import nothing from
// Charm.
package loaders

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"evalview/loaders/internal/folder"
	"evalview/loaders/jsonl"
	"evalview/loaders/lmeval"
	"evalview/loaders/notes"
	"evalview/loaders/source"
	"evalview/model"
)

// Options steer how paths are opened.
type Options struct {
	// As forces a format instead of detecting one ("" detects).
	As model.Kind
	// Background returns lm-eval datasets, Inspect logs and plain JSON
	// Lines files past 1 MB while their files are still being indexed
	// (for the browser): their indexes grow, Done turns true at the end,
	// and the browser syncs them. Commands leave it false and get
	// complete datasets.
	Background bool
	// Deep tells that the caller runs every dataset's Deep right after
	// opening (check, summary): lm-eval indexes then prepare it as they
	// read, rather than Deep reading the files again.
	Deep bool
	// Found, when set, is told what each folder opened held, once its
	// last dataset is handed over: the artifacts opened and every file
	// left out, with why (a folder opened with As set is read by its
	// format alone, and not reported).
	Found func(model.Discovery)
	// Context, when set, ends the opening when it is done (the browser
	// quitting): the paths not opened yet are not, a folder's walk stops
	// at its next file, and the lookups of paths and folders made with it
	// (source's Context functions) end at once, a remote request under
	// way included. Open and Each then return its error with the
	// others. A file a format is reading is read to its end.
	Context context.Context
	// Reading, when set, is told each path the opening comes to: each
	// path given, before it is looked up, and each file of a folder's
	// walk (the browser names and counts them while it opens a folder
	// of 200,000 files or waits on a server).
	Reading func(path string)
}

// ctx is the opening's context, never nil.
func (o Options) ctx() context.Context {
	if o.Context == nil {
		return context.Background()
	}
	return o.Context
}

// reading tells Reading of path, if set.
func (o Options) reading(path string) {
	if o.Reading != nil {
		o.Reading(path)
	}
}

// OpenError is returned when a path cannot be opened at all (missing, not
// readable, no format recognised). Commands map it to exit code 2.
type OpenError struct {
	Path string
	Err  error
}

func (e *OpenError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *OpenError) Unwrap() error { return e.Err }

// ParseKind validates a `--as` value.
func ParseKind(s string) (model.Kind, error) {
	for _, k := range Kinds() {
		if string(k) == s {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown kind %q (want one of %s)", s, KindList(", ", ", "))
}

// headSize is how much of a file detection reads.
const headSize = folder.HeadSize

// Open opens every path and returns all their datasets in order. Paths of
// the same format that belong together (lm-eval samples and results files
// named one by one) are opened together. An error that stops a path from
// opening at all is an *OpenError; the datasets of the other paths are
// still returned.
func Open(paths []string, opt Options) ([]*model.Dataset, error) {
	var out []*model.Dataset
	err := walk(paths, opt, false, func(ds *model.Dataset) error {
		out = append(out, ds)
		return nil
	})
	return out, err
}

// Each opens paths as Open does and hands fn each dataset, in Open's order,
// as soon as it is loaded, keeping none: a command that needs one dataset
// at a time (check, summary, export) holds a few, however many files a
// folder has. A folder's walk (discover.go) hands each artifact over as
// it finds it, and lm-eval's samples files one by one. It returns the
// errors of the paths that could not be opened, as Open does, joined; an
// error from fn stops it and is returned with them (errors.As finds it).
func Each(paths []string, opt Options, fn func(*model.Dataset) error) error {
	return walk(paths, opt, true, fn)
}

// stopped wraps an error of fn, so that walk stops at it.
type stopped struct{ err error }

func (s stopped) Error() string { return s.err.Error() }
func (s stopped) Unwrap() error { return s.err }

// walk is Open and Each: stream tells whether to read folders file by
// file where the format can.
func walk(paths []string, opt Options, stream bool, fn func(*model.Dataset) error) error {
	read := map[string]bool{} // the files the datasets handed on were read from
	call := func(ds *model.Dataset) error {
		read[ds.Path] = true
		for _, c := range ds.Companions {
			read[c] = true
		}
		if err := fn(ds); err != nil {
			return stopped{err}
		}
		return nil
	}
	var dirs []string // the folders opened, whose unread JSON Lines are reported
	var errs []error
	stop := func(err error) error {
		var s stopped
		if errors.As(err, &s) {
			return errors.Join(append(errs, s)...)
		}
		return nil
	}
	// Group plain files by detected kind so that formats which join files
	// (lm-eval) see them together.
	groups := map[model.Kind][]string{}
	var order []model.Kind
	ctx := opt.ctx()
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			errs = append(errs, err)
			break // the other paths are not opened
		}
		p = source.Canon(p) // a presigned URL's query never shows
		opt.reading(p)      // before its lookup, which may wait on a server
		if opt.As == "" {
			st, err := source.StatContext(ctx, p)
			if err != nil {
				// Not looked up again by detect: a server that sends
				// nothing would be waited for twice.
				errs = append(errs, &OpenError{Path: p, Err: cleanPathErr(err)})
				continue
			}
			if st.IsDir() {
				w, err := walkFolder(p, opt, stream, call)
				if err != nil {
					return stop(err)
				}
				errs = append(errs, w.errs...)
				continue
			}
		}
		k, isDir, _, err := detectContext(ctx, p, opt.As)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if isDir {
			dirs = append(dirs, p)
		}
		f, _ := formatOf(k)
		f = f.with(opt)
		hand := f.presented(call)
		if f.fallback && opt.As == "" {
			presented := hand
			hand = func(ds *model.Dataset) error {
				noteFallback(ds, nearestOf(ds.Path))
				return presented(ds)
			}
		}
		if isDir && stream && f.each != nil {
			if err := f.each(p, hand); err != nil {
				if s := stop(err); s != nil {
					return s
				}
				errs = append(errs, wrapOpen(p, err))
			}
			continue
		}
		if isDir || f.openMany == nil {
			// A folder's format may open some files and not others
			// (lighteval: a details file that declares too much): the
			// datasets it opened are kept beside the error.
			ds, err := f.open(p)
			if err != nil {
				errs = append(errs, wrapOpen(p, err))
			}
			for _, d := range ds {
				if err := hand(d); err != nil {
					return stop(err)
				}
			}
			continue
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], p)
	}
	for _, k := range order {
		if err := ctx.Err(); err != nil {
			errs = append(errs, err)
			break
		}
		f, _ := formatOf(k)
		f = f.with(opt)
		hand := f.presented(call)
		ds, err := f.openMany(groups[k])
		if err != nil {
			errs = append(errs, wrapOpen(strings.Join(groups[k], ", "), err))
		}
		for _, d := range ds {
			if err := hand(d); err != nil {
				return stop(err)
			}
		}
	}
	if len(dirs) > 0 {
		plain, _ := formatOf(model.KindJSONL)
		hand := plain.with(opt).presented(call)
		for _, ds := range unreadFiles(dirs, read) {
			if err := hand(ds); err != nil {
				return stop(err)
			}
		}
	}
	return errors.Join(errs...)
}

// under reports whether folder dir lies inside folder d ("/a/run/x" is in
// "/a/run"; "/a/run2" is not).
func under(dir, d string) bool {
	sep := string(filepath.Separator)
	if source.IsRemote(d) {
		sep = "/"
	}
	return strings.HasPrefix(dir, strings.TrimSuffix(d, sep)+sep)
}

// errEmpty is the error of a file with no record at all.
var errEmpty = errors.New("file is empty")

// unreadFiles are datasets for the JSON Lines files (.jsonl, compressed
// too) that no format read in the folders opened, or in the folders
// under them that datasets came from (an output folder's model
// folders): a file no format recognises, one too broken to tell. Each
// says why, so that no file of a folder goes unmentioned: check counts
// its error, and the browser lists it.
func unreadFiles(dirs []string, read map[string]bool) []*model.Dataset {
	seen := map[string]bool{}
	var look []string
	add := func(d string) {
		if !seen[d] {
			seen[d] = true
			look = append(look, d)
		}
	}
	for _, d := range dirs {
		add(d)
	}
	top := len(look)
	for p := range read {
		for _, d := range dirs {
			if dir := source.Dir(p); dir != d && under(dir, d) {
				add(dir)
			}
		}
	}
	slices.Sort(look[top:]) // map order: the subfolders in name order
	var out []*model.Dataset
	for _, d := range look {
		ents, err := source.ReadDir(d)
		if err != nil {
			continue // the folder's own format said so
		}
		for _, e := range ents {
			n := e.Name()
			if !e.Type().IsRegular() || strings.HasPrefix(n, ".") || notes.IsFile(n) ||
				!strings.EqualFold(filepath.Ext(jsonl.TrimCompressedExt(n)), ".jsonl") {
				continue
			}
			p := source.Join(d, n)
			if read[p] {
				continue
			}
			is := model.Errorf("unread-file", p, 0, "", "this file of the folder was not read: no format read it")
			if _, _, err := Detect(p, ""); errors.Is(err, errEmpty) {
				// Nothing lost: a warning, as an empty file gets in
				// the formats that read one.
				is = model.Warnf("empty-file", p, 0, "", "this file of the folder has no record: %v", errors.Unwrap(err))
			} else if err != nil {
				var oe *OpenError
				if errors.As(err, &oe) {
					err = oe.Err
				}
				is = model.Errorf("unread-file", p, 0, "", "this file of the folder was not read: %v", err)
			}
			out = append(out, &model.Dataset{Kind: model.KindJSONL, Path: p, Title: n, Task: n,
				Records: model.NewMemIndex(nil), Issues: []model.Issue{is}})
		}
	}
	return out
}

func wrapOpen(path string, err error) error {
	var oe *OpenError
	if errors.As(err, &oe) {
		return err
	}
	return &OpenError{Path: path, Err: err}
}

// Detect tells which format path holds and whether it is a folder. forced,
// when not empty, skips detection but still checks that the path can be
// read.
func Detect(path string, forced model.Kind) (model.Kind, bool, error) {
	k, isDir, _, err := detect(source.Canon(path), forced)
	return k, isDir, err
}

// detect is Detect that also gives the winning format's score for a
// folder (2: the format claims it whole; see mixedEntries).
func detect(path string, forced model.Kind) (model.Kind, bool, int, error) {
	return detectContext(context.Background(), path, forced)
}

// detectContext is detect, its path looked up with ctx.
func detectContext(ctx context.Context, path string, forced model.Kind) (model.Kind, bool, int, error) {
	st, err := source.StatContext(ctx, path)
	if err != nil {
		return "", false, 0, &OpenError{Path: path, Err: cleanPathErr(err)}
	}
	if st.IsDir() {
		names, err := folder.Names(path)
		if err != nil {
			return "", true, 0, &OpenError{Path: path, Err: cleanPathErr(err)}
		}
		if forced != "" {
			return forced, true, 0, nil
		}
		best, bestScore := model.Kind(""), 0
		for _, f := range formats() {
			if f.sniffDir == nil || f.dirMax > 0 && f.dirMax <= bestScore {
				continue // it could not win: ties go to the format found first
			}
			if s := f.sniffDir(path, names); s > bestScore {
				best, bestScore = f.kind, s
			}
		}
		if best == "" {
			return "", true, 0, &OpenError{Path: path, Err: errors.New("no evaluation artifacts found in this folder (looked for " + KindList(", ", " and ") + " files)")}
		}
		return best, true, bestScore, nil
	}
	if !st.Mode().IsRegular() {
		return "", false, 0, &OpenError{Path: path, Err: errors.New("not a regular file or folder; refusing to read it")}
	}
	if forced != "" {
		head, err := folder.ReadHead(path)
		if err != nil {
			return "", false, 0, &OpenError{Path: path, Err: cleanPathErr(err)}
		}
		if c := jsonl.CompressionOf(head); c != jsonl.Plain {
			if _, err := jsonl.ReadHead(path, headSize); err != nil {
				return "", false, 0, &OpenError{Path: path, Err: fmt.Errorf("%s data: %w", c, err)}
			}
			if forced != model.KindLMEval {
				return "", false, 0, &OpenError{Path: path, Err: errCompressed(c)}
			}
		}
		return forced, false, 0, nil
	}
	k, _, err := sniffFile(path)
	return k, false, 0, err
}

// errNoFormat is the error of a file no format recognises.
var errNoFormat = errors.New("format not recognised: not JSON Lines either")

func errCompressed(c jsonl.Compression) error {
	return fmt.Errorf("%s-compressed file that is not lm-eval samples: only samples_*.jsonl.gz/.zst are read compressed; decompress it first", c)
}

// sniffFile tells the format of the regular file at path from its name
// and first bytes, which it returns (decompressed): the format that
// scores highest, ties going to the one found first. An error is an
// *OpenError: not a regular file (jsonl.ErrNotRegular), unreadable,
// empty (errEmpty), or no format's (errNoFormat).
func sniffFile(path string) (model.Kind, []byte, error) {
	head, err := folder.ReadHead(path)
	if err != nil {
		return "", nil, &OpenError{Path: path, Err: cleanPathErr(err)}
	}
	if c := jsonl.CompressionOf(head); c != jsonl.Plain {
		// Only lm-eval samples stream compressed (.jsonl.gz, .jsonl.zst).
		if head, err = jsonl.ReadHead(path, headSize); err != nil {
			return "", nil, &OpenError{Path: path, Err: fmt.Errorf("%s data: %w", c, err)}
		}
		if lmeval.SniffFile(jsonl.TrimCompressedExt(filepath.Base(path)), head) > 0 {
			return model.KindLMEval, head, nil
		}
		return "", head, &OpenError{Path: path, Err: errCompressed(c)}
	}
	if jsonl.IsLFSPointer(head) {
		// Every line-based format would choke on it; lm-eval reports it
		// clearly, and it is by far the most common source of such files.
		return model.KindLMEval, head, nil
	}
	best, bestScore := model.Kind(""), 0
	for _, f := range formats() {
		if f.fileMax > 0 && f.fileMax <= bestScore {
			continue // it could not win
		}
		if s := f.sniff(path, head); s > bestScore {
			best, bestScore = f.kind, s
		}
	}
	if best == "" {
		if len(head) == 0 {
			return "", head, &OpenError{Path: path, Err: errEmpty}
		}
		if len(bytes.TrimSpace(head)) == 0 && len(head) < headSize {
			return "", head, &OpenError{Path: path, Err: fmt.Errorf("%w: blank lines only, no record", errEmpty)}
		}
		return "", head, &OpenError{Path: path, Err: fmt.Errorf("%w (use --as %s to force one)", errNoFormat, KindList("|", "|"))}
	}
	return best, head, nil
}

// cleanPathErr drops the "open PATH:" prefix of *fs.PathError, since
// callers already name the path.
func cleanPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
