// Package outdir holds what the loaders of tools that write a folder per
// run share (EvalScope's outputs/<YYYYMMDD_HHMMSS>/, OpenCompass's
// outputs/<config>/<YYYYMMDD_HHMMSS>/): the run folders' time-stamped
// names, a folder's entries as the layout is read from them, the files
// of each model folder of predictions/, reviews/, results/..., and how a
// folder given by the user is opened (a run folder, a folder of them, or
// a folder inside one).
package outdir

import (
	"errors"
	"regexp"
	"strings"

	"evalview/loaders/internal/folder"
	"evalview/loaders/source"
	"evalview/model"
)

// stamp matches a run folder's name: the time it started, %Y%m%d_%H%M%S.
var stamp = regexp.MustCompile(`^\d{8}_\d{6}$`)

// IsStamp reports whether name is a run folder's time stamp.
func IsStamp(name string) bool { return stamp.MatchString(name) }

// Run is a stamp as a run: "20250301_101500" is "2025-03-01T10:15:00",
// which model.RunTime shortens; any other name is itself.
func Run(name string) string {
	if !IsStamp(name) {
		return name
	}
	return name[0:4] + "-" + name[4:6] + "-" + name[6:8] + "T" + name[9:11] + ":" + name[11:13] + ":" + name[13:15]
}

// Entries lists a folder's entries as folder.Names does (sorted, folders
// ending in "/"), hidden ones left out: the tools write none, and a
// ".ipynb_checkpoints/" is no model.
func Entries(dir string) ([]string, error) {
	names, err := folder.Names(dir)
	if err != nil {
		return nil, err
	}
	out := names[:0]
	for _, n := range names {
		if !strings.HasPrefix(n, ".") {
			out = append(out, n)
		}
	}
	return out, nil
}

// StampFolders are the run folders among dir's entries: named by a
// stamp, with entries isRun accepts.
func StampFolders(dir string, names []string, isRun func([]string) bool) []string {
	var out []string
	for _, n := range names {
		s, ok := strings.CutSuffix(n, "/")
		if !ok || !IsStamp(s) {
			continue
		}
		p := source.Join(dir, s)
		if sub, err := Entries(p); err == nil && isRun(sub) {
			out = append(out, p)
		}
	}
	return out
}

// ModelFiles lists the model folders of dir (predictions/, results/...)
// and, for each, the files in it that keep accepts, in name order. An
// unreadable model folder is listed without files; dir unreadable, nil.
func ModelFiles(dir string, keep func(name string) bool) ([]string, map[string][]string) {
	names, err := Entries(dir)
	if err != nil {
		return nil, nil
	}
	var models []string
	files := map[string][]string{}
	for _, n := range names {
		m, ok := strings.CutSuffix(n, "/")
		if !ok {
			continue
		}
		sub, err := Entries(source.Join(dir, m))
		if err != nil {
			continue
		}
		for _, f := range sub {
			if !strings.HasSuffix(f, "/") && keep(f) {
				files[m] = append(files[m], f)
			}
		}
		models = append(models, m)
	}
	return models, files
}

// MaxLook is how many folders Holds looks in at each level, and how many
// files' first bytes it reads in each.
const MaxLook = 4

// Holds reports whether folder dir holds, depth folders down (1: in its
// model folders), a file that own accepts by its name and first bytes:
// the positive evidence a folder laid out as a tool's run folder needs
// before it is read whole as one, for a folder of anyone's may hold a
// results/ or reports/ beside a logs/. It reads the first bytes of at
// most MaxLook files in each of at most MaxLook folders, in name order;
// what is not a regular file is passed over.
func Holds(dir string, depth int, own func(name string, head []byte) bool) bool {
	names, err := Entries(dir)
	if err != nil {
		return false
	}
	looked := 0
	for _, n := range names {
		if looked >= MaxLook {
			break
		}
		sub, isDir := strings.CutSuffix(n, "/")
		if isDir != (depth > 0) {
			continue
		}
		looked++
		p := source.Join(dir, sub)
		if depth > 0 {
			if Holds(p, depth-1, own) {
				return true
			}
			continue
		}
		if head, err := folder.ReadHead(p); err == nil && own(n, head) {
			return true
		}
	}
	return false
}

// ErrNotRun is OpenFolder's error for a folder that is neither a run
// folder, nor a folder of them, nor a folder inside one.
var ErrNotRun = errors.New("not a run folder")

// OpenFolder opens folder dir: a run folder (isRun accepts its
// entries), every run folder among its entries (named by their stamps),
// or the run folder it is in (its predictions/ or results/...). The
// errors of run folders that do not open are joined; ErrNotRun when dir
// is none of these.
func OpenFolder(dir string, isRun func([]string) bool, open func(run string) ([]*model.Dataset, error)) ([]*model.Dataset, error) {
	names, err := Entries(dir)
	if err != nil {
		return nil, err
	}
	if isRun(names) {
		return open(dir)
	}
	if runs := StampFolders(dir, names, isRun); len(runs) > 0 {
		var out []*model.Dataset
		var errs []error
		for _, r := range runs {
			ds, err := open(r)
			out = append(out, ds...)
			if err != nil {
				errs = append(errs, err)
			}
		}
		return out, errors.Join(errs...)
	}
	root := source.Dir(dir)
	if parent, _ := Entries(root); isRun(parent) {
		return open(root)
	}
	return nil, ErrNotRun
}
