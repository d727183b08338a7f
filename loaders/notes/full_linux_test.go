//go:build linux

package notes

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fullFolder mounts a 64 KB tmpfs on a new folder and fills it: every
// write there then fails with ENOSPC, as on a full disk. It skips where
// mounting is not allowed (not root, no CAP_SYS_ADMIN).
func fullFolder(t *testing.T) (dir string, free func()) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "full")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a small tmpfs to fill (%v)", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte("x"), 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling: %v", err)
			}
			break
		}
	}
	f.Close()
	return dir, func() { os.Remove(filler) }
}

// TestFullDiskKeepsEveryNote: the artifact's folder is full. A label
// goes to the fallback file and the save says where; the sidecar written
// before is left whole (a failed write never truncates it); opening again
// shows both files' notes. Once there is room again, the next save writes
// the sidecar and every note is still there.
func TestFullDiskKeepsEveryNote(t *testing.T) {
	dir, free := fullFolder(t)
	t.Setenv("XDG_STATE_HOME", filepath.Join(t.TempDir(), "state"))
	art := filepath.Join(dir, "samples_x.jsonl")
	side, fall := SidecarPath(art), StatePath(art)
	free()
	os.WriteFile(art, []byte("{}\n"), 0o644)
	s, _ := Open(art, "")
	if _, err := s.Set("samples_x.jsonl", "1", []string{"before"}, strings.Repeat("a long note ", 100)); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(side)
	if err != nil {
		t.Fatal(err)
	}
	// Fill the folder again, around the files already there.
	f, _ := os.Create(filepath.Join(dir, "filler"))
	for {
		if _, err := f.Write(bytes.Repeat([]byte("x"), 512)); err != nil {
			break
		}
	}
	f.Close()

	if _, err := s.Set("samples_x.jsonl", "2", []string{"while full"}, strings.Repeat("another note ", 100)); err != nil {
		t.Fatalf("a save with the folder full: %v", err)
	}
	if got := s.Where("samples_x.jsonl", "2"); got != fall {
		t.Errorf("the note saved while full is kept in %q, want the fallback %q", got, fall)
	}
	if after, _ := os.ReadFile(side); !bytes.Equal(after, before) {
		t.Errorf("the sidecar changed under a failed write:\n%s\nwas:\n%s", after, before)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(m) != 0 {
		t.Errorf("temporary files left in the full folder: %v", m)
	}
	r, issues := Open(art, "")
	if len(issues) != 0 {
		t.Fatal(issues)
	}
	for id, want := range map[string]string{"1": "before", "2": "while full"} {
		if l, _ := r.Get("samples_x.jsonl", id); strings.Join(l, ",") != want {
			t.Errorf("reopened while full: record %s: %v, want %q", id, l, want)
		}
	}

	free()
	if _, err := r.Set("samples_x.jsonl", "3", []string{"after"}, ""); err != nil {
		t.Fatal(err)
	}
	if got := r.Where("samples_x.jsonl", "3"); got != side {
		t.Errorf("with room again the note went to %q, want the sidecar %q", got, side)
	}
	last, issues := Open(art, "")
	if len(issues) != 0 {
		t.Fatal(issues)
	}
	for id, want := range map[string]string{"1": "before", "2": "while full", "3": "after"} {
		if l, _ := last.Get("samples_x.jsonl", id); strings.Join(l, ",") != want {
			t.Errorf("after the disk had room again: record %s: %v, want %q", id, l, want)
		}
	}
}
