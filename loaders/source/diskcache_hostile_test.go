package source

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"evalview/internal/testos"
)

// TestDiskCacheRefusesPlantedBlocks: in a cache folder someone else can
// write, a block file that is a FIFO, a link to /dev/zero or a link to
// another file is not used (no hang, no endless read, nothing of the
// other file), and the object's folder made a link to another folder
// gets no block written through it. Each is read from the network again.
func TestDiskCacheRefusesPlantedBlocks(t *testing.T) {
	disk := t.TempDir()
	o := &object{url: "s3://bkt/x.jsonl", meta: meta{size: 100, version: "v1"}}
	dir := diskDir(disk, o)
	os.MkdirAll(dir, 0o700)
	other := filepath.Join(t.TempDir(), "other")
	os.WriteFile(other, bytes.Repeat([]byte("o"), 100), 0o600)
	plants := map[string]func(p string) error{
		"link to a file": func(p string) error { return os.Symlink(other, p) },
		"link to /dev/zero": func(p string) error {
			if _, err := os.Stat("/dev/zero"); err != nil {
				return err
			}
			return os.Symlink("/dev/zero", p)
		},
		"FIFO": testos.Mkfifo,
	}
	c := newBlockCache()
	for name, plant := range plants {
		p := filepath.Join(dir, "0")
		os.Remove(p)
		if err := plant(p); err != nil {
			t.Logf("%s: cannot make (%v)", name, err)
			continue
		}
		done := make(chan [][]byte, 1)
		go func() { done <- c.fromDisk(disk, o, 0, 1) }()
		select {
		case got := <-done:
			if got != nil {
				t.Errorf("%s: used as a block: %q", name, got[0][:10])
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the read hangs", name)
		}
	}
	// The object's folder is a link to another folder.
	os.RemoveAll(dir)
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, dir); err != nil {
		t.Skip("no symbolic links here")
	}
	c.toDisk(disk, o, 0, [][]byte{bytes.Repeat([]byte("b"), 100)})
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("blocks written through a linked folder: %v", ents)
	}
}
