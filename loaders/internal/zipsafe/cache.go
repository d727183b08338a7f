package zipsafe

import (
	"archive/zip"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"evalview/loaders/source"
)

// Records of a zipped artifact (a run zip, an Inspect .eval log) are read
// back from the zip when they are asked for. Opening a zip reads its whole
// central directory, one entry per member: opening it again for every
// record made `check` and `export` of n records take time in n² (10,000
// samples: minutes). The zips whose records are being read stay open here
// instead, a few at a time, shared by every loader, and are opened again
// only when the file on disk changes (a log still being written is
// replaced at each flush).

// MaxOpen bounds the zips kept open (a folder of many zips must not run
// out of file descriptors).
const MaxOpen = 8

// opens counts the zips Acquire opened, for tests: it must not grow with
// the number of records read.
var opens atomic.Int64

// Opens returns how many zips Acquire has opened so far.
func Opens() int64 { return opens.Load() }

// openedZip is one zip kept open, with what identifies the file it was
// opened from. users counts the readers holding it; it is closed once it
// is dropped from the cache and its last user is done.
type openedZip struct {
	path    string
	size    int64
	modTime time.Time
	version string // a remote object's version tag
	zc      *source.ZipReader
	users   int
	dropped bool
}

var cache struct {
	mu   sync.Mutex
	open []*openedZip // least recently used first
}

// Cached returns how many zips are open in the cache now, for tests.
func Cached() int {
	cache.mu.Lock()
	defer cache.mu.Unlock()
	return len(cache.open)
}

// Acquire returns the open archive at path (zstd registered, insecure
// names allowed through for the caller to report), opening it when it is
// not open or the file changed since (another size or modification time),
// and a release function to call once done reading it. The reader must
// not be used after release.
func Acquire(path string) (*zip.Reader, func(), error) {
	st, err := source.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	cache.mu.Lock()
	defer cache.mu.Unlock()
	for i, o := range cache.open {
		if o.path != path {
			continue
		}
		if o.size == st.Size() && o.modTime.Equal(st.ModTime()) && o.version == source.Version(st) {
			o.users++
			// Most recently used last.
			cache.open = append(append(cache.open[:i:i], cache.open[i+1:]...), o)
			return o.zc.Reader, releaser(o), nil
		}
		drop(i)
		break
	}
	zc, err := source.OpenZip(path)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, nil, err
	}
	Register(zc.Reader)
	opens.Add(1)
	o := &openedZip{path: path, size: st.Size(), modTime: st.ModTime(), version: source.Version(st), zc: zc, users: 1}
	cache.open = append(cache.open, o)
	if len(cache.open) > MaxOpen {
		drop(0)
	}
	return zc.Reader, releaser(o), nil
}

// releaser returns o's release function; it may be called more than once.
func releaser(o *openedZip) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			cache.mu.Lock()
			defer cache.mu.Unlock()
			o.users--
			if o.dropped && o.users == 0 {
				o.zc.Close()
			}
		})
	}
}

// drop removes entry i from the cache (under the lock), closing it unless
// a reader still holds it.
func drop(i int) {
	o := cache.open[i]
	cache.open = append(cache.open[:i], cache.open[i+1:]...)
	o.dropped = true
	if o.users == 0 {
		o.zc.Close()
	}
}
