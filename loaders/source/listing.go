package source

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// Local folder listings are kept while the folder is unchanged: opening
// an lm-eval output folder lists it five times (detection, the artifacts
// beside a run, the samples and results files, the check for a file no
// format read), which in a folder of 5,000 small files was a twentieth of
// the work. A kept listing is used again when a stat of the folder finds
// the same folder (os.SameFile) with the same status change time (ctime:
// any entry added, removed or renamed changes it, and no one can set it
// back, as they can the modification time), and only when the listing
// was taken a while (listingSettle) after that time: an entry added
// within the same tick of the file system's clock as the listing would
// leave it as it was. Where the change time is not known (changeTime),
// nothing is kept. A kept entry's Info is read when asked (os.ReadDir's
// is too, except where the file system does not say an entry's type: it
// then reads every entry's at the listing), so a size is never stale:
// follow mode reads them to see a file grow.

// listingSettle is how long after a folder's change time its
// listing is trusted to hold every entry made up to that time.
var listingSettle = 2 * time.Second

// osReadDir lists a local folder (a variable for tests).
var osReadDir = os.ReadDir

// listingsKept bounds how many folders' listings are kept.
const listingsKept = 8

type dirListing struct {
	path    string
	dir     fs.FileInfo
	changed time.Time
	ents    []fs.DirEntry
}

var localListings struct {
	mu   sync.Mutex
	kept []dirListing // most recent last
}

// readDirLocal is os.ReadDir, answered from a kept listing when the
// folder is unchanged.
func readDirLocal(p string) ([]fs.DirEntry, error) {
	st, err := os.Stat(p)
	if err != nil {
		return osReadDir(p) // its error names the path as before
	}
	changed, known := changeTime(st)
	if !known {
		return osReadDir(p)
	}
	localListings.mu.Lock()
	for i, l := range localListings.kept {
		if l.path == p && os.SameFile(l.dir, st) && l.changed.Equal(changed) {
			localListings.kept = append(slices.Delete(localListings.kept, i, i+1), l)
			localListings.mu.Unlock()
			return slices.Clone(l.ents), nil
		}
	}
	localListings.mu.Unlock()
	taken := time.Now()
	ents, err := osReadDir(p)
	if err != nil || taken.Sub(changed) < listingSettle {
		return ents, err
	}
	fresh := make([]fs.DirEntry, len(ents))
	for i, e := range ents {
		fresh[i] = freshEntry{e, p}
	}
	ents = fresh
	localListings.mu.Lock()
	defer localListings.mu.Unlock()
	kept := slices.DeleteFunc(localListings.kept, func(l dirListing) bool { return l.path == p })
	if len(kept) >= listingsKept {
		kept = slices.Delete(kept, 0, len(kept)-listingsKept+1)
	}
	localListings.kept = append(kept, dirListing{path: p, dir: st, changed: changed, ents: ents})
	return slices.Clone(ents), nil
}

// freshEntry is a kept listing's entry: its Info is read when asked.
type freshEntry struct {
	fs.DirEntry
	dir string
}

func (e freshEntry) Info() (fs.FileInfo, error) {
	return os.Lstat(filepath.Join(e.dir, e.Name()))
}
