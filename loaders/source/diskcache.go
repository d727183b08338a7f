package source

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"evalview/internal/safefile"
	"evalview/internal/xdg"
)

// The on-disk block cache (--cache): one folder per object version (a
// hash of its URL and version tag), one file per block, named by its
// index. A block is written to a ".part-*" file and renamed, so that it
// appears whole or not at all, and it is used only when its size is the
// block's: a reader never sees half a block. The folder is bounded
// (DiskCacheMax): past it, the blocks used longest ago (a block's
// modification time, set again whenever it is read) are deleted until it
// is under nine tenths of the bound. Several evalview processes may share
// the folder: a block deleted while another reads it is read from the
// network again; ".part-*" files are another process's writes, left alone
// unless a day old (a process that died writing).

// DiskCacheMax bounds the on-disk cache's folder, in bytes: 2 GB, or
// EVALVIEW_CACHE_MB megabytes.
func DiskCacheMax() int64 {
	if v := strings.TrimSpace(os.Getenv("EVALVIEW_CACHE_MB")); v != "" {
		if mb, err := strconv.ParseInt(v, 10, 64); err == nil && mb > 0 && mb < 1<<40 {
			return mb << 20
		}
	}
	return 2 << 30
}

// diskState is the state of the on-disk cache of this process: its
// bound (0: DiskCacheMax), the bytes written since the last trim, and
// whether a trim runs.
var diskState struct {
	max      atomic.Int64
	written  atomic.Int64
	trimming atomic.Bool
	wg       sync.WaitGroup // trims running (tests wait for them)
}

// SetDiskCache keeps the blocks read from remote objects in dir too
// ("" turns it off), so that opening the same version again reads no
// byte over the network. The blocks of a replaced object are not used.
// The folder is trimmed to DiskCacheMax now and as blocks are written.
func SetDiskCache(dir string) {
	blocks.mu.Lock()
	blocks.disk = dir
	blocks.mu.Unlock()
	diskState.max.Store(DiskCacheMax())
	if dir != "" {
		startTrim(dir)
	}
}

// DefaultDiskCache is the on-disk cache's folder:
// $XDG_CACHE_HOME/evalview/blocks ($HOME/.cache when it is unset).
func DefaultDiskCache() string {
	dir, err := xdg.Dir("XDG_CACHE_HOME", ".cache")
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "evalview", "blocks")
}

// diskLimit is the bound of the on-disk cache.
func diskLimit() int64 {
	if m := diskState.max.Load(); m > 0 {
		return m
	}
	return DiskCacheMax()
}

// wrote counts n bytes written to the cache in dir, trimming it once a
// sixteenth of its bound has been written since the last trim.
func wrote(dir string, n int64) {
	if diskState.written.Add(n) >= max(diskLimit()/16, 16<<20) {
		startTrim(dir)
	}
}

// startTrim trims dir in the background, unless a trim runs already.
func startTrim(dir string) {
	if !diskState.trimming.CompareAndSwap(false, true) {
		return
	}
	diskState.written.Store(0)
	diskState.wg.Add(1)
	go func() {
		defer diskState.wg.Done()
		defer diskState.trimming.Store(false)
		trimDisk(dir, diskLimit(), time.Now())
	}()
}

// partAge is how old a ".part-*" file must be before a trim deletes it:
// younger, another process may be writing it.
const partAge = 24 * time.Hour

// trimDisk deletes the blocks of the cache in dir used longest ago until
// they take at most nine tenths of limit, when they take more than limit;
// and ".part-*" files older than partAge. Files it did not write (names
// that are not a block's) are left alone; every error is skipped (another
// process may delete the same files).
func trimDisk(dir string, limit int64, now time.Time) {
	type file struct {
		path string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	objs, _ := os.ReadDir(dir)
	for _, o := range objs {
		if !o.IsDir() || !isHex(o.Name()) {
			continue
		}
		sub := filepath.Join(dir, o.Name())
		ents, _ := os.ReadDir(sub)
		for _, e := range ents {
			if !e.Type().IsRegular() {
				continue
			}
			st, err := e.Info()
			if err != nil {
				continue
			}
			p := filepath.Join(sub, e.Name())
			if strings.HasPrefix(e.Name(), ".part-") {
				if now.Sub(st.ModTime()) > partAge {
					os.Remove(p)
				}
				continue
			}
			if _, err := strconv.ParseUint(e.Name(), 10, 63); err != nil {
				continue
			}
			files = append(files, file{p, st.Size(), st.ModTime()})
			total += st.Size()
		}
	}
	if total <= limit {
		return
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	for _, f := range files {
		if total <= limit/10*9 {
			break
		}
		if err := os.Remove(f.path); err == nil || os.IsNotExist(err) {
			total -= f.size
			// The object's folder goes with its last block (a folder
			// another process writes in again is not empty, or is made
			// again: its write is best effort).
			os.Remove(filepath.Dir(f.path))
		}
	}
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}

func diskDir(disk string, o *object) string {
	sum := sha256.Sum256([]byte(o.url + "\x00" + o.version))
	return filepath.Join(disk, hex.EncodeToString(sum[:12]))
}

// fromDisk returns the run's blocks when the disk cache has all of them,
// marking them used now (the trim deletes the blocks used longest ago).
func (c *blockCache) fromDisk(disk string, o *object, first int64, n int) [][]byte {
	dir := diskDir(disk, o)
	out := make([][]byte, n)
	for i := range out {
		idx := first + int64(i)
		want := min((idx+1)*blockSize, o.size) - idx*blockSize
		// A block is a regular file of the block's size: a link, a FIFO
		// or a device put in a shared cache folder is neither followed,
		// nor waited on, nor read past that size (safefile).
		b, err := safefile.ReadFile(filepath.Join(dir, fmt.Sprint(idx)), want)
		if err != nil || int64(len(b)) != want {
			return nil
		}
		out[i] = b
	}
	now := time.Now()
	for i := range out {
		os.Chtimes(filepath.Join(dir, fmt.Sprint(first+int64(i))), now, now)
	}
	return out
}

// toDisk keeps the blocks on disk, best effort: each appears whole or
// not at all.
func (c *blockCache) toDisk(disk string, o *object, first int64, datas [][]byte) {
	dir := diskDir(disk, o)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return // a link to another folder: blocks are not written through it
	}
	for i, b := range datas {
		name := filepath.Join(dir, fmt.Sprint(first+int64(i)))
		tmp, err := os.CreateTemp(dir, ".part-*")
		if err != nil {
			return
		}
		_, werr := tmp.Write(b)
		if cerr := tmp.Close(); werr != nil || cerr != nil {
			os.Remove(tmp.Name())
			return
		}
		if os.Rename(tmp.Name(), name) != nil {
			os.Remove(tmp.Name())
			continue
		}
		wrote(disk, int64(len(b)))
	}
}
