package loaders

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"evalview/loaders/internal/folder"
	"evalview/loaders/jsonl"
	"evalview/loaders/lighteval"
	"evalview/loaders/lmeval"
	"evalview/loaders/runzip"
	"evalview/loaders/source"
	"evalview/model"
)

// A folder opened without --as is walked whole, at any depth: every file
// is read as the format its own name and first bytes show, wherever it
// sits (results three folders down, Inspect logs in dated subfolders, a
// run folder under remote/evals/<run>/, a model folder lm-eval named
// "..__adapters__x"). What the walk does not read is left out with a
// reason (model.Discovery), so that nothing of the folder goes
// unmentioned. Artifacts that stand alone (an Inspect log, a Sample or
// testset file, a run zip or run folder, plain JSON Lines) are opened
// and handed over as they are found; the files of the formats that pair
// files (lm-eval's samples with their results, lighteval's details with
// theirs) are gathered and opened together once the walk is done, as
// their own search of a folder would.

// dataExts are the extensions a walk reads the first bytes of: the ones
// some format reads (after a .gz or .zst). Any other file is left out by
// its name, unread (a folder of 200,000 files is listed, not read).
var dataExts = map[string]bool{".jsonl": true, ".json": true, ".eval": true, ".zip": true, ".parquet": true, ".csv": true}

// walker is one walk of a folder.
type walker struct {
	opt    Options
	stream bool
	hand   func(*model.Dataset) error
	rep    model.Discovery
	// real are the real paths of the folder opened and of the folders
	// reached through links: a link to one of them, or to a folder
	// holding one, is a loop or a second reading.
	real []string
	// lm are the lm-eval files met, lmDirs their folders; empty the
	// empty .jsonl files, which are samples files that got no rows when
	// they sit beside lm-eval files.
	lm     []lmeval.File
	lmDirs map[string]bool
	empty  []string
	// details and results are lighteval's files.
	details, results []string
	errs             []error
	// lastLM is the last entry of the folder opened that holds files
	// named as lm-eval names them: the lm-eval files found so far are
	// opened together once the walk is past it, so that they come in the
	// folder's order among the other artifacts (a folder of lm_eval/,
	// run/ and sample/ gives lm-eval's first), and whole.
	lastLM int
}

// walkFolder opens every artifact below folder root, handing each
// dataset to hand, and reports what it found to opt.Found. Only an error
// of hand stops it (returned as it came); the folder's other errors are
// in w.errs.
func walkFolder(root string, opt Options, stream bool, hand func(*model.Dataset) error) (*walker, error) {
	w := &walker{opt: opt, stream: stream, lmDirs: map[string]bool{}}
	w.rep.Folder = root
	w.hand = func(ds *model.Dataset) error {
		w.rep.Datasets++
		return hand(ds)
	}
	if !source.IsRemote(root) {
		if r, err := filepath.EvalSymlinks(root); err == nil {
			w.real = append(w.real, r)
		}
	}
	err := w.dir(root, 0)
	if err == nil && opt.ctx().Err() != nil {
		// Ended: what was found is not opened, nor said to be missing.
		w.errs = append(w.errs, &OpenError{Path: root, Err: opt.ctx().Err()})
		return w, nil
	}
	if err == nil {
		err = w.finish()
	}
	if err == nil && w.rep.Datasets == 0 && len(w.errs) == 0 {
		msg := "no evaluation artifacts found in this folder (looked for " + KindList(", ", " and ") + " files, at any depth)"
		if files, dirs := w.rep.Files(); files+dirs > 0 {
			msg += ": " + strings.TrimPrefix(w.rep.Line(), "0 artifacts opened; ")
		}
		w.errs = append(w.errs, &OpenError{Path: root, Err: errors.New(msg)})
	}
	if opt.Found != nil {
		opt.Found(w.rep)
	}
	return w, err
}

// leave notes a file or folder the walk does not read.
func (w *walker) leave(p, reason, detail string, dir bool) {
	w.rep.LeftOut = append(w.rep.LeftOut, model.LeftOut{Path: p, Reason: reason, Detail: detail, Folder: dir})
}

// dir walks folder d, depth levels below the folder opened.
func (w *walker) dir(d string, depth int) error {
	ctx := w.opt.ctx()
	ents, err := source.ReadDirContext(ctx, d)
	if err != nil {
		if ctx.Err() != nil {
			return nil // the caller says so once
		}
		if depth == 0 {
			w.errs = append(w.errs, &OpenError{Path: d, Err: cleanPathErr(err)})
		} else {
			w.leave(d, model.LeftUnreadable, cleanPathErr(err).Error(), true)
		}
		return nil
	}
	byName := func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) }
	if !slices.IsSortedFunc(ents, byName) { // os.ReadDir's are; a remote listing's may not be
		slices.SortFunc(ents, byName)
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
		if e.IsDir() {
			names[i] += "/"
		}
	}
	for _, f := range formats() {
		if f.unit != nil && f.unit(d, names) {
			// One artifact: a run folder, an EvalScope output folder, an
			// OpenCompass work folder; its format reads what is in it.
			return w.open(f.kind, d, "")
		}
	}
	if depth == 0 {
		w.lastLM = -1
		for i := len(ents) - 1; i >= 0; i-- {
			e := ents[i]
			if !e.IsDir() && lmeval.IsHarnessName(e.Name()) ||
				e.IsDir() && !folder.SkipFolder(e.Name()) && harnessNamesIn(source.Join(d, e.Name()), 1) {
				w.lastLM = i
				break
			}
		}
	}
	for i, e := range ents {
		if ctx.Err() != nil {
			return nil // the walk's end says it
		}
		if depth == 0 && i-1 == w.lastLM && i > 0 {
			if err := w.openLM(); err != nil {
				return err
			}
		}
		name := e.Name()
		p := source.Join(d, name)
		mode := e.Type()
		isDir := e.IsDir()
		if mode&fs.ModeSymlink != 0 {
			st, err := source.StatContext(ctx, p)
			if err != nil {
				w.leave(p, model.LeftBrokenLink, cleanPathErr(err).Error(), false)
				continue
			}
			switch {
			case st.IsDir():
				if folder.SkipFolder(name) {
					w.leave(p, model.LeftTool, "", true)
					continue
				}
				real, err := filepath.EvalSymlinks(p)
				if err != nil {
					w.leave(p, model.LeftUnreadable, cleanPathErr(err).Error(), true)
					continue
				}
				if w.seen(real) {
					w.leave(p, model.LeftLoop, "it leads to "+real, true)
					continue
				}
				w.real = append(w.real, real)
				isDir = true
			case st.Mode().IsRegular():
				mode = 0 // a link to a file is read as the file
			default:
				w.leave(p, model.LeftNotRegular, "", false)
				continue
			}
		}
		if isDir {
			switch {
			case folder.SkipFolder(name):
				w.leave(p, model.LeftTool, "", true)
			case depth+1 > folder.MaxDepth:
				w.leave(p, model.LeftDeep, fmt.Sprintf("more than %d folders below the one opened", folder.MaxDepth), true)
			default:
				if err := w.dir(p, depth+1); err != nil {
					return err
				}
			}
			continue
		}
		if !mode.IsRegular() {
			w.leave(p, model.LeftNotRegular, "", false)
			continue
		}
		w.opt.reading(p)
		if err := w.file(p, name); err != nil {
			return err
		}
	}
	return nil
}

// harnessNamesIn reports whether folder d, depth levels below the one
// opened, or a folder below it holds a file named as the harness names
// its files. It reads names only.
func harnessNamesIn(d string, depth int) bool {
	if depth > folder.MaxDepth {
		return false
	}
	ents, err := source.ReadDir(d)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if !e.IsDir() && lmeval.IsHarnessName(e.Name()) {
			return true
		}
	}
	for _, e := range ents {
		if e.IsDir() && !folder.SkipFolder(e.Name()) && harnessNamesIn(source.Join(d, e.Name()), depth+1) {
			return true
		}
	}
	return false
}

// seen reports whether the folder at real path r was read already, or
// holds one read already (a link back up the tree).
func (w *walker) seen(r string) bool {
	for _, s := range w.real {
		if r == s || under(r, s) || under(s, r) {
			return true
		}
	}
	return false
}

// file reads file p, named name, as the format its name or head shows.
func (w *walker) file(p, name string) error {
	if folder.IsNotes(name) {
		w.leave(p, model.LeftNotes, "", false)
		return nil
	}
	if lmeval.IsSamplesName(name) {
		w.addLM(p, false)
		return nil
	}
	ext := strings.ToLower(filepath.Ext(jsonl.TrimCompressedExt(name)))
	if !dataExts[ext] {
		w.leave(p, model.LeftNotData, "", false)
		return nil
	}
	k, head, err := sniffFile(p)
	switch {
	case errors.Is(err, jsonl.ErrNotRegular):
		w.leave(p, model.LeftNotRegular, "", false)
		return nil
	case errors.Is(err, errEmpty) && ext == ".jsonl":
		w.empty = append(w.empty, p)
		return nil
	case err != nil && ext == ".jsonl":
		if ok, results := lmeval.ByContent(name, head); ok {
			w.addLM(p, results)
			return nil
		}
		// A .jsonl no format reads is a dataset that says why, as a
		// folder's own JSON Lines have always been: check counts its
		// error, the browser lists it.
		w.leave(p, model.LeftNoFormat, unwrapOpen(err).Error(), false)
		return w.hand(&model.Dataset{Kind: model.KindJSONL, Path: p, Title: name, Task: name,
			Records: model.NewMemIndex(nil),
			Issues:  []model.Issue{model.Errorf("unread-file", p, 0, "", "this file of the folder was not read: %v", unwrapOpen(err))}})
	case errors.Is(err, errEmpty):
		w.leave(p, model.LeftNoFormat, "empty", false)
		return nil
	case err != nil:
		var oe *OpenError
		if errors.As(err, &oe) && !errors.Is(err, errNoFormat) {
			w.leave(p, model.LeftUnreadable, oe.Err.Error(), false)
		} else {
			w.leave(p, model.LeftNoFormat, nearest(name, head), false)
		}
		return nil
	}
	switch k {
	case model.KindLMEval:
		_, results := lmeval.ByContent(name, head)
		w.addLM(p, results)
		return nil
	case model.KindLighteval:
		w.rep.Artifacts++
		if strings.HasSuffix(strings.ToLower(name), ".json") {
			w.results = append(w.results, p)
		} else {
			w.details = append(w.details, p)
		}
		return nil
	case model.KindJSONL:
		if ok, results := lmeval.ByContent(name, head); ok {
			w.addLM(p, results)
			return nil
		}
		if ext != ".jsonl" {
			// A JSON document no format claims, in a folder: a file of
			// the user's own, a neighbour's output. Opened alone it
			// shows as plain records; here it is named, not opened.
			w.leave(p, model.LeftNoFormat, nearest(name, head), false)
			return nil
		}
		return w.open(k, p, nearest(name, head))
	}
	return w.open(k, p, "")
}

func (w *walker) addLM(p string, results bool) {
	w.rep.Artifacts++
	w.lm = append(w.lm, lmeval.File{Path: p, Results: results})
	w.lmDirs[source.Dir(p)] = true
}

// open opens p, a file or run folder, as kind k and hands its datasets
// over; near is what nearest says of a file opened as plain records. A file that fails to open is a dataset holding the error, so
// that the files beside it still open.
func (w *walker) open(k model.Kind, p, near string) error {
	w.rep.Artifacts++
	f, _ := formatOf(k)
	f = f.with(w.opt)
	hand := f.presented(w.hand)
	if f.fallback {
		presented := hand
		hand = func(ds *model.Dataset) error {
			noteFallback(ds, near)
			return presented(ds)
		}
	}
	dss, err := f.open(p)
	if err != nil {
		if k == model.KindRun {
			dss = []*model.Dataset{runzip.Broken(p, err)}
		} else {
			name := filepath.Base(p)
			ds := &model.Dataset{Kind: k, Path: p, Title: name, Task: name, Records: model.NewMemIndex(nil),
				Issues: []model.Issue{model.Errorf("read-error", p, 0, "", "cannot read it as %s: %v", k, err)}}
			dss = []*model.Dataset{ds}
			hand = w.hand // no presentation for a dataset with no records
		}
	}
	for _, ds := range dss {
		if err := hand(ds); err != nil {
			return err
		}
	}
	return nil
}

// finish opens the files gathered for the formats that pair them: the
// lm-eval files not opened yet (found by their content only, after the
// last folder that holds lm-eval names), then lighteval's.
func (w *walker) finish() error {
	if err := w.openLM(); err != nil {
		return err
	}
	for _, p := range w.empty {
		w.leave(p, model.LeftNoFormat, "empty", false)
		is := model.Warnf("empty-file", p, 0, "", "this file of the folder has no record: file is empty")
		if err := w.hand(&model.Dataset{Kind: model.KindJSONL, Path: p, Title: filepath.Base(p), Task: filepath.Base(p),
			Records: model.NewMemIndex(nil), Issues: []model.Issue{is}}); err != nil {
			return err
		}
	}
	if len(w.details)+len(w.results) > 0 {
		f, _ := formatOf(model.KindLighteval)
		hand := f.presented(w.hand)
		for _, ds := range lighteval.OpenFound(w.details, w.results) {
			if err := hand(ds); err != nil {
				return err
			}
		}
	}
	return nil
}

// openLM opens the lm-eval files gathered so far, together: samples
// paired with their results, titles unique among them. An empty .jsonl
// beside them is a samples file that got no rows (a task that crashed):
// a dataset that says so.
func (w *walker) openLM() error {
	var rest []string
	for _, p := range w.empty {
		if w.lmDirs[source.Dir(p)] {
			w.addLM(p, false)
		} else {
			rest = append(rest, p)
		}
	}
	w.empty = rest
	defer func() { w.lm = nil }()
	if len(w.lm) > 0 {
		f, _ := formatOf(model.KindLMEval)
		hand := f.presented(w.hand)
		if w.stream && !w.opt.Background {
			if err := lmeval.EachFiles(w.lm, w.opt.Deep, hand); err != nil {
				var s stopped
				if errors.As(err, &s) {
					return err
				}
				w.errs = append(w.errs, wrapOpen(w.rep.Folder, err))
			}
		} else {
			dss, err := lmeval.OpenFiles(w.lm, w.opt.Background, w.opt.Deep)
			if err != nil {
				w.errs = append(w.errs, wrapOpen(w.rep.Folder, err))
			}
			for _, ds := range dss {
				if err := hand(ds); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// unwrapOpen is an *OpenError's own error, without the path it names.
func unwrapOpen(err error) error {
	var oe *OpenError
	if errors.As(err, &oe) {
		return oe.Err
	}
	return err
}
