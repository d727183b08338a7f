package source

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"evalview/loaders/source/sourcetest"
)

// diskBytes is the size of the block files under dir.
func diskBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && filepath.Base(filepath.Dir(p)) != filepath.Base(dir) {
			if st, err := d.Info(); err == nil {
				n += st.Size()
			}
		}
		return nil
	})
	return n
}

// A cache over its bound is trimmed to under it, the blocks used longest
// ago first; a block being written by another process (".part-*") is
// left alone unless a day old, and a file that is not a block stays.
func TestTrimDiskKeepsTheNewest(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	block := bytes.Repeat([]byte("b"), 1000)
	var paths []string
	for o := range 3 {
		sub := filepath.Join(dir, fmt.Sprintf("%024x", o))
		os.MkdirAll(sub, 0o700)
		for i := range 4 {
			p := filepath.Join(sub, fmt.Sprint(i))
			os.WriteFile(p, block, 0o600)
			// Object 0's blocks are the oldest, object 2's the newest.
			at := now.Add(-time.Duration(100-o*10-i) * time.Minute)
			os.Chtimes(p, at, at)
			paths = append(paths, p)
		}
	}
	fresh := filepath.Join(dir, fmt.Sprintf("%024x", 0), ".part-1")
	stale := filepath.Join(dir, fmt.Sprintf("%024x", 1), ".part-2")
	os.WriteFile(fresh, block, 0o600)
	os.WriteFile(stale, block, 0o600)
	old := now.Add(-2 * partAge)
	os.Chtimes(stale, old, old)
	foreign := filepath.Join(dir, "notes.txt")
	os.WriteFile(foreign, block, 0o600)

	trimDisk(dir, 12000, now) // at the bound: nothing to do
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("a cache at its bound lost %s", p)
		}
	}
	trimDisk(dir, 7000, now) // over: down to 6300 bytes, 6 blocks
	for i, p := range paths {
		_, err := os.Stat(p)
		if kept := err == nil; kept != (i >= 6) {
			t.Errorf("block %d (%d minutes old): kept %v", i, 100-(i/4)*10-i%4, kept)
		}
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a block being written was deleted")
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a day-old .part file was kept")
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Error("a file that is not a block was deleted")
	}
	if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("%024x", 0))); err != nil {
		t.Error("a folder with a block being written was deleted")
	}
}

// Reading a block from the disk cache marks it used: the trim keeps it
// over blocks written later but not read since.
func TestDiskCacheReadMarksUsed(t *testing.T) {
	fresh(t)
	dir := t.TempDir()
	SetDiskCache(dir)
	defer SetDiskCache("")
	s := sourcetest.NewS3(t, "bkt")
	a, b := data(blockSize), bytes.Repeat([]byte("z"), blockSize)
	s.Put(t, "a.jsonl", a)
	s.Put(t, "b.jsonl", b)
	if got, err := ReadFile("s3://bkt/a.jsonl"); err != nil || !bytes.Equal(got, a) {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	if got, err := ReadFile("s3://bkt/b.jsonl"); err != nil || !bytes.Equal(got, b) {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	// a again, from the disk cache: a fresh memory cache.
	blocks = newBlockCache()
	blocks.disk = dir
	f, err := Open("s3://bkt/a.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(f); err != nil || !bytes.Equal(got, a) {
		t.Fatal(err)
	}
	f.Close()
	trimDisk(dir, blockSize+blockSize/2, time.Now())
	o := func(name string, size int) *object {
		m, _ := objects.get("s3://bkt/" + name)
		return &object{url: "s3://bkt/" + name, meta: m}
	}
	if _, err := os.Stat(filepath.Join(diskDir(dir, o("a.jsonl", blockSize)), "0")); err != nil {
		t.Error("the block read last was trimmed")
	}
	if _, err := os.Stat(filepath.Join(diskDir(dir, o("b.jsonl", blockSize)), "0")); err == nil {
		t.Error("the block used longest ago was kept")
	}
}

// Blocks written past a sixteenth of the bound (at least 16 MB) start a
// trim: reading objects much bigger than the bound with --cache leaves
// the folder within that of it.
func TestDiskCacheStaysUnderItsBound(t *testing.T) {
	fresh(t)
	t.Setenv("EVALVIEW_CACHE_MB", "1")
	if DiskCacheMax() != 1<<20 {
		t.Fatalf("EVALVIEW_CACHE_MB=1: a bound of %d bytes", DiskCacheMax())
	}
	dir := t.TempDir()
	SetDiskCache(dir)
	defer SetDiskCache("")
	s := sourcetest.NewS3(t, "bkt")
	for i := range 3 {
		body := data(90*blockSize + i)
		name := fmt.Sprintf("s3://bkt/%d.jsonl", i)
		s.Put(t, name[len("s3://bkt/"):], body)
		if got, err := ReadFile(name); err != nil || !bytes.Equal(got, body) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	diskState.wg.Wait()
	// 67 MB written: trimmed every 16 MB (a sixteenth of the bound, at
	// least 16 MB), so at most that much over the bound.
	if n := diskBytes(t, dir); n == 0 || n > 1<<20+16<<20 {
		t.Errorf("the cache holds %d bytes, bound %d", n, 1<<20)
	}
}
