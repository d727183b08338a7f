package runzip

import (
	"archive/zip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"evalview/loaders/internal/zipsafe"
	"evalview/loaders/source"
	"evalview/model"
)

// Limits. They are variables so tests can lower them.
var (
	// maxZipSize is the importer's upload limit ("单个 zip 最大 64 MB").
	maxZipSize int64 = 64 << 20
	// maxEntrySize caps what one file may decompress to, so a zip bomb or a
	// lying header cannot exhaust memory.
	maxEntrySize int64 = 256 << 20
	// maxRunBytes caps what one run may decompress to in total.
	maxRunBytes int64 = 1 << 30
)

// The archive rules shared with other zip formats live in zipsafe; these
// names keep this package's code as it reads.
var (
	errTooLarge  = zipsafe.ErrTooLarge
	errEncrypted = zipsafe.ErrEncrypted
)

func readCapped(r io.Reader, limit int64) ([]byte, error) { return zipsafe.ReadCapped(r, limit) }
func ignoredName(name string) bool                        { return zipsafe.IgnoredName(name) }
func unsafeName(name string) string                       { return zipsafe.UnsafeName(name) }
func sizeOf(n int64) string                               { return zipsafe.SizeOf(n) }
func modeName(m fs.FileMode) string                       { return zipsafe.ModeName(m) }

// fileRef is one file of a run, inside a zip or on disk.
type fileRef struct {
	// name is the path inside the run, outer folder and run folder
	// stripped ("samples/0001.json").
	name string
	// display is how issues name the file: "run.zip!samples/0001.json"
	// (the in-zip path after stripping the outer folder) or the real path.
	display string
	// zipPath, zipIndex and zipName locate a zip entry; zipPath is "" for a
	// file on disk, read from diskPath.
	zipPath  string
	zipIndex int
	zipName  string
	diskPath string
}

// runFiles lists the files of one run, as the importer would find them.
type runFiles struct {
	// path is what the user opened (the zip or the folder).
	path string
	// zr is the open archive while loading; nil for folders.
	zr *zip.Reader
	// missing returns how issues name a file the run lacks.
	missing func(name string) string

	manifest, summary, scoresMap *fileRef
	samples, scores              []*fileRef
	// issues are archive-level findings (limits, bad paths).
	issues []model.Issue
}

// read returns a file's bytes, reading at most maxEntrySize. While loading
// it uses the open archive; later (records read on demand) the one
// acquireZip keeps open.
func (rf *runFiles) read(f *fileRef) ([]byte, error) { return rf.readMax(f, maxEntrySize) }

// readMax is read with a smaller cap: what is left of the run's budget, so
// that a run never decompresses past maxRunBytes. It fails with errTooLarge
// without reading when the entry's header already claims more than limit,
// and stops decompressing as soon as the data passes it.
func (rf *runFiles) readMax(f *fileRef, limit int64) ([]byte, error) {
	if f.zipPath == "" {
		return readDiskFile(f.diskPath, limit)
	}
	if rf != nil && rf.zr != nil {
		return readZipEntry(rf.zr, f, limit)
	}
	zr, release, err := acquireZip(f.zipPath)
	if err != nil {
		return nil, err
	}
	defer release()
	return readZipEntry(zr, f, limit)
}

func readZipEntry(zr *zip.Reader, f *fileRef, limit int64) ([]byte, error) {
	if f.zipIndex >= len(zr.File) || zr.File[f.zipIndex].Name != f.zipName {
		return nil, errors.New("the zip changed since it was opened")
	}
	return zipsafe.ReadEntry(zr.File[f.zipIndex], limit)
}

func readDiskFile(p string, limit int64) ([]byte, error) {
	f, err := source.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCapped(f, limit)
}

// zipEntry is a zip file entry that survived the path rules.
type zipEntry struct {
	raw   string // name as stored
	clean string // cleaned, outer folder stripped
	index int
}

// listZip applies the importer's upload rules to the archive's names and
// returns one runFiles per run found (normally one).
func listZip(zipPath string, zr *zip.Reader, size int64) []*runFiles {
	var issues []model.Issue
	at := func(name string) string { return zipPath + "!" + name }
	if size > maxZipSize {
		issues = append(issues, model.Warnf("zip-too-large", zipPath, 0, "",
			"the zip is %s; the importer accepts at most %s per upload", sizeOf(size), sizeOf(maxZipSize)))
	}
	var ents []zipEntry
	for i, zf := range zr.File {
		name := zf.Name
		if strings.HasSuffix(name, "/") || ignoredName(name) {
			continue
		}
		if m := zf.Mode(); m&fs.ModeType != 0 {
			// A symlink entry's data is its target path; reading it as the
			// file it names would be wrong, following it is out of the
			// question (nothing is extracted, nothing is followed).
			code, what := "special-entry", "is "+modeName(m)+", not a regular file"
			if m&fs.ModeSymlink != 0 {
				code, what = "symlink-entry", "is a symbolic link"
			}
			issues = append(issues, model.Errorf(code, at(name), 0, "", "entry %q %s; evalview does not read or follow it", name, what))
			continue
		}
		if why := unsafeName(name); why != "" {
			issues = append(issues, model.Errorf("unsafe-path", at(name), 0, "", "entry name %q %s; the importer rejects it and evalview does not read it", name, why))
			continue
		}
		clean := path.Clean(name)
		if clean == "." {
			continue
		}
		ents = append(ents, zipEntry{raw: name, clean: clean, index: i})
	}
	stripOuterFolder(ents)

	byName := map[string]zipEntry{}
	var kept []zipEntry
	for _, e := range ents {
		if first, dup := byName[e.clean]; dup {
			issues = append(issues, model.Errorf("duplicate-path", at(e.clean), 0, "",
				"two entries give the same path once the outer folder is stripped (%q and %q); the importer fails on this, evalview reads the first", first.raw, e.raw))
			continue
		}
		byName[e.clean] = e
		kept = append(kept, e)
	}

	roots := runRoots(kept)
	var runs []*runFiles
	for _, root := range roots {
		rf := &runFiles{path: zipPath, missing: func(name string) string { return at(root + name) }}
		for _, e := range kept {
			if !strings.HasPrefix(e.clean, root) {
				continue
			}
			rf.add(strings.TrimPrefix(e.clean, root), &fileRef{
				display: at(e.clean), zipPath: zipPath, zipIndex: e.index, zipName: e.raw,
			})
		}
		runs = append(runs, rf)
	}
	first := runs[0]
	first.issues = append(first.issues, issues...)
	switch {
	case len(runs) > 1:
		first.issues = append(first.issues, model.Errorf("multiple-runs", zipPath, 0, "",
			"the zip holds %d runs (%s); the importer takes one run per zip", len(runs), rootNames(roots)))
	case roots[0] != "":
		first.issues = append(first.issues, model.Errorf("nested-run", at(roots[0]+"manifest.json"), 0, "",
			"the run sits in %s, deeper than one outer folder; the importer looks for manifest.json at the zip root or under a single outer folder", roots[0]))
	}
	return runs
}

// add files a run's file under its role; other files are ignored, as the
// importer ignores them.
func (rf *runFiles) add(name string, f *fileRef) {
	f.name = name
	switch dir, base := path.Split(name); {
	case name == "manifest.json":
		rf.manifest = f
	case name == "generation_summary.json":
		rf.summary = f
	case name == "scores_map.json":
		rf.scoresMap = f
	case dir == "samples/" && strings.HasSuffix(base, ".json"):
		rf.samples = append(rf.samples, f)
	case dir == "scores/" && strings.HasSuffix(base, ".json"):
		rf.scores = append(rf.scores, f)
	}
}

// stripOuterFolder removes the folder every entry shares, if there is one.
func stripOuterFolder(ents []zipEntry) {
	if len(ents) == 0 {
		return
	}
	outer := ""
	for i, e := range ents {
		j := strings.IndexByte(e.clean, '/')
		if j < 0 {
			return
		}
		if i == 0 {
			outer = e.clean[:j+1]
		} else if !strings.HasPrefix(e.clean, outer) {
			return
		}
	}
	for i := range ents {
		ents[i].clean = strings.TrimPrefix(ents[i].clean, outer)
	}
}

// runRoots returns the folders (with a trailing slash, "" for the root)
// holding a run: where manifest.json is, else generation_summary.json,
// else the root.
func runRoots(ents []zipEntry) []string {
	for _, marker := range []string{"manifest.json", "generation_summary.json"} {
		seen := map[string]bool{}
		var roots []string
		for _, e := range ents {
			dir, base := path.Split(e.clean)
			if base != marker || seen[dir] || strings.Contains("/"+dir, "/samples/") || strings.Contains("/"+dir, "/scores/") {
				continue
			}
			seen[dir] = true
			roots = append(roots, dir)
		}
		if len(roots) > 0 {
			sort.Strings(roots)
			return roots
		}
	}
	return []string{""}
}

// listDir finds a run's files in a folder.
func listDir(dir string) *runFiles {
	rf := &runFiles{path: dir, missing: func(name string) string { return source.Join(dir, filepath.FromSlash(name)) }}
	ref := func(name string) *fileRef {
		p := source.Join(dir, filepath.FromSlash(name))
		return &fileRef{display: p, diskPath: p}
	}
	// notFile reports a run file that is a folder, FIFO or device: it is
	// not read (a FIFO would block), and the user learns why it is missing.
	notFile := func(name string, st os.FileInfo) {
		rf.issues = append(rf.issues, model.Errorf("not-a-file", source.Join(dir, filepath.FromSlash(name)), 0, "",
			"%s is %s, not a regular file; not read", name, modeName(st.Mode())))
	}
	for _, name := range []string{"manifest.json", "generation_summary.json", "scores_map.json"} {
		if st, err := source.Stat(source.Join(dir, name)); err == nil && st.Mode().IsRegular() {
			rf.add(name, ref(name))
		} else if err == nil {
			notFile(name, st)
		}
	}
	for _, sub := range []string{"samples", "scores"} {
		ents, err := source.ReadDir(source.Join(dir, sub))
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				rf.issues = append(rf.issues, model.Errorf("read-failed", source.Join(dir, sub), 0, "", "cannot list the folder: %v", unwrapPath(err)))
			}
			continue
		}
		for _, e := range ents {
			name := sub + "/" + e.Name()
			if !strings.HasSuffix(name, ".json") || e.Name() == ".DS_Store" {
				continue
			}
			if st, err := source.Stat(source.Join(dir, sub, e.Name())); err != nil {
				continue
			} else if !st.Mode().IsRegular() {
				notFile(name, st)
				continue
			}
			rf.add(name, ref(name))
		}
	}
	return rf
}

// unwrapPath drops the "op path:" prefix of a path error, since issues
// already name the file.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// readIssue turns a failed read into an issue.
func readIssue(f *fileRef, err error) model.Issue {
	switch {
	case errors.Is(err, errEncrypted):
		return model.Errorf("encrypted-entry", f.display, 0, "", "the entry is encrypted; the importer cannot read it and neither does evalview")
	case errors.Is(err, errTooLarge):
		return model.Errorf("entry-too-large", f.display, 0, "", "the file decompresses to more than %s; not read", sizeOf(maxEntrySize))
	case f.zipPath != "" && errors.Is(err, zip.ErrFormat):
		// archive/zip stops an entry that outgrows the size its header
		// declares: corrupt data, or a zip bomb lying about its size.
		return model.Errorf("bad-zip-entry", f.display, 0, "", "the entry's data does not match its header (corrupt, or larger than the header says); not read")
	case f.zipPath != "" && errors.Is(err, zip.ErrChecksum):
		return model.Errorf("bad-zip-entry", f.display, 0, "", "the entry's data fails its checksum (corrupt); not read")
	case f.zipPath != "":
		return model.Errorf("bad-zip-entry", f.display, 0, "", "cannot read the entry from the zip: %v", err)
	}
	return model.Errorf("read-failed", f.display, 0, "", "cannot read the file: %v", unwrapPath(err))
}

// rootNames names run folders for messages.
func rootNames(roots []string) string {
	names := make([]string, len(roots))
	for i, r := range roots {
		names[i] = r
		if r == "" {
			names[i] = "the zip root"
		}
	}
	return strings.Join(names, ", ")
}
