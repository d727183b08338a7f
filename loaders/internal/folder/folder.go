// Package folder holds what the loaders of one-dataset-per-file JSONL
// formats (Sample, testset) share for a folder argument: finding the
// .jsonl files whose first bytes sniff as the format, reading those bytes
// without blocking on odd entries, and opening every file found so that
// one unreadable file does not hide the others.
package folder

import (
	"errors"
	"path/filepath"
	"sort"
	"strings"

	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// HeadSize is how much of a file a folder sniffer reads, as
// loaders.Detect does for a file.
const HeadSize = 64 << 10

// ReadHead returns the first HeadSize bytes of a regular file (fewer when
// the file is shorter). A FIFO, device or folder is an error, checked
// before opening: opening a FIFO found in a folder would block.
func ReadHead(path string) ([]byte, error) {
	f, err := jsonl.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return jsonl.ReadPrefix(f, HeadSize)
}

// Format is what a folder needs to know of a one-dataset-per-file format.
type Format struct {
	// Kind is the datasets' kind.
	Kind model.Kind
	// What names the files in the error for a folder without any, as in
	// "no Sample JSONL files in this folder".
	What string
	// Depth is how many levels of subfolders are searched: 0 for the
	// folder's own files only.
	Depth int
	// Nested, when set, lets the search go on below Depth, down to
	// NestDepth levels, for the files Nested accepts by their path (a
	// Prompt Lab project keeps its testsets in agents/NAME/testsets/,
	// data/pipelines/NAME/testsets/...): below Depth only those count.
	Nested func(path string) bool
	// Sniff scores a file from its name and first bytes; above 0 is the
	// format's.
	Sniff func(name string, head []byte) int
	// SniffPath, when set, is used instead of Sniff: it scores a file
	// from its whole path (its folders tell too) and first bytes.
	SniffPath func(path string, head []byte) int
	// OpenFile loads one file.
	OpenFile func(path string) (*model.Dataset, error)
	// Title names a file's dataset as OpenFile would, for a file it could
	// not read.
	Title func(path string) string
}

// MaxDepth is how many levels of folders below the one opened a search
// goes down at most: deeper than any output folder people keep, and a
// bound on a tree made absurdly deep (a generated one, a loop of bind
// mounts). What lies below is left out with a notice.
const MaxDepth = 40

// NestDepth is how many levels of subfolders a Format with Nested
// searches, and NestFolders how many folders below its Depth it reads at
// most, so that a search of a big tree stays quick.
const (
	NestDepth   = 4
	NestFolders = 500
)

// Limits bound a search of a folder: both 0 search it all.
type Limits struct {
	// Found stops after that many files of the format.
	Found int
	// Read stops after reading that many .jsonl files, so detection stays
	// quick in a folder of thousands of other files.
	Read int
}

// Names lists a folder's entries as detection passes them to SniffDir:
// sorted, folders ending in "/".
func Names(dir string) ([]string, error) {
	ents, err := source.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

// Files returns the .jsonl files of dir that sniff as f, in name order,
// then those of its subfolders down to f.Depth (and below, those Nested
// accepts). names are dir's entries
// as Names gives them; nil reads them. Tools' folders (SkipFolder) and
// evalview's notes are passed over; other hidden entries are read.
func (f Format) Files(dir string, names []string, lim Limits) []string {
	var out []string
	read, nested := 0, 0
	var walk func(d string, names []string, depth int)
	walk = func(d string, names []string, depth int) {
		if depth > f.Depth {
			if nested++; nested > NestFolders {
				return
			}
		}
		if names == nil {
			names, _ = Names(d)
		}
		var subdirs []string
		for _, n := range names {
			if (lim.Found > 0 && len(out) >= lim.Found) || (lim.Read > 0 && read >= lim.Read) {
				return
			}
			p := source.Join(d, n)
			if strings.HasSuffix(n, "/") {
				if !SkipFolder(n) {
					subdirs = append(subdirs, p)
				}
				continue
			}
			if IsNotes(n) {
				continue
			}
			if !strings.EqualFold(filepath.Ext(n), ".jsonl") || depth > f.Depth && !f.Nested(p) {
				continue
			}
			read++
			if head, err := ReadHead(p); err == nil && f.sniff(p, head) > 0 {
				out = append(out, p)
			}
		}
		if depth < f.Depth || f.Nested != nil && depth < NestDepth {
			for _, s := range subdirs {
				walk(s, nil, depth+1)
			}
		}
	}
	walk(dir, names, 0)
	return out
}

// sniff scores the file at p with SniffPath, else Sniff.
func (f Format) sniff(p string, head []byte) int {
	if f.SniffPath != nil {
		return f.SniffPath(p, head)
	}
	return f.Sniff(filepath.Base(p), head)
}

// SniffDir scores a folder: 1 when it holds a file of the format (within
// maxRead .jsonl files read; 0: no limit), 0 otherwise. names are as
// for Files.
func (f Format) SniffDir(dir string, names []string, maxRead int) int {
	if len(f.Files(dir, names, Limits{Found: 1, Read: maxRead})) > 0 {
		return 1
	}
	return 0
}

// Open loads a file of the format, or every file of the format in a
// folder (see Files), one dataset each. A file of the folder that cannot
// be read becomes a dataset holding only a read-error issue. Only a path
// that cannot be read at all, or a folder without such files, is an
// error.
func (f Format) Open(path string) ([]*model.Dataset, error) {
	var out []*model.Dataset
	err := f.Each(path, func(ds *model.Dataset) error {
		out = append(out, ds)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Each is Open handing each dataset to fn as soon as its file is loaded,
// keeping none: a folder of 100,000 files is read one file at a time. An
// error from fn stops it and is returned.
func (f Format) Each(path string, fn func(*model.Dataset) error) error {
	st, err := source.Stat(path)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		ds, err := f.OpenFile(path)
		if err != nil {
			return err
		}
		return fn(ds)
	}
	files := f.Files(path, nil, Limits{})
	if len(files) == 0 {
		return errors.New("no " + f.What + " in this folder")
	}
	for _, p := range files {
		ds, err := f.OpenFile(p)
		if err != nil {
			title := f.Title(p)
			ds = &model.Dataset{Kind: f.Kind, Path: p, Title: title, Task: title,
				Records: model.NewMemIndex(nil),
				Issues:  []model.Issue{model.Errorf("read-error", p, 0, "", "cannot read the file: %v", err)}}
		}
		if err := fn(ds); err != nil {
			return err
		}
	}
	return nil
}
