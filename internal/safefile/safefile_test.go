package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"evalview/internal/testos"
)

// TestRefusesWhatIsNotAFile: a link (to a file, dangling, to /dev/zero),
// a FIFO, a device and a folder are each refused by name and kind, and
// nothing is opened: the FIFO's open would wait for a writer, and
// /dev/zero would read without end.
func TestRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(dir, "outside")
	os.WriteFile(outside, []byte("secret\n"), 0o600)
	cases := map[string]string{} // path -> what the error must say
	link := filepath.Join(dir, "link")
	if err := os.Symlink(outside, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	cases[link] = "is a symbolic link to " + outside
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "nowhere"), dangling)
	cases[dangling] = "is a symbolic link to"
	folder := filepath.Join(dir, "folder")
	os.Mkdir(folder, 0o755)
	cases[folder] = "is a folder"
	if _, err := os.Stat("/dev/zero"); err == nil {
		zero := filepath.Join(dir, "zero")
		os.Symlink("/dev/zero", zero)
		cases[zero] = "is a symbolic link to /dev/zero"
		cases["/dev/zero"] = "is a device"
	}
	fifo := filepath.Join(dir, "fifo")
	if testos.Mkfifo(fifo) == nil {
		cases[fifo] = "is a named pipe (FIFO)"
	}
	for p, want := range cases {
		for name, try := range map[string]func() error{
			"Open":     func() error { f, _, err := Open(p); f.Close(); return err },
			"ReadFile": func() error { _, err := ReadFile(p, 1<<20); return err },
			"Check":    func() error { _, err := Check(p); return err },
			"WriteAtomic": func() error {
				if p == "/dev/zero" {
					return &NotFileError{Path: p, What: "a device"} // not a folder a test may write in
				}
				return WriteAtomic(p, []byte("planted\n"), 0o644)
			},
		} {
			err := try()
			if !errors.Is(err, ErrNotFile) || !strings.Contains(err.Error(), p+" "+want) || !strings.HasSuffix(err.Error(), ", not a regular file") {
				t.Errorf("%s(%s): %v, want %q", name, p, err, want)
			}
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "secret\n" {
		t.Errorf("the link's target changed: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); err == nil {
		t.Error("the dangling link's target was created")
	}
}

func TestReadFileLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("0123456789"), 0o644)
	if b, err := ReadFile(p, 10); err != nil || string(b) != "0123456789" {
		t.Errorf("at the limit: %q %v", b, err)
	}
	_, err := ReadFile(p, 9)
	var tl *TooLargeError
	if !errors.As(err, &tl) || err.Error() != p+" is larger than 9 bytes, more than evalview reads of such a file" {
		t.Errorf("past the limit: %v", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing"), 9); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if got := Size(64 << 20); got != "64 MiB" {
		t.Errorf("Size: %q", got)
	}
}

// TestWriteAtomic: the file is replaced whole, keeps its permissions,
// and no temporary file is left.
func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "notes.jsonl")
	if err := WriteAtomic(p, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		os.Chmod(p, 0o600)
	}
	if err := WriteAtomic(p, []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "two\n" || runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("content %q mode %v", b, fi.Mode())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("files left: %v", ents)
	}
}

// TestCreateTempIsExclusive: names are unpredictable, and a name that
// exists, a link included, is never opened.
func TestCreateTempIsExclusive(t *testing.T) {
	dir := t.TempDir()
	seen := map[string]bool{}
	for range 50 {
		f, err := CreateTemp(dir, ".x.tmp-", ".txt", 0o600)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		name := filepath.Base(f.Name())
		if seen[name] || !IsTemp(strings.TrimSuffix(name, ".txt"), "x") {
			t.Fatalf("name %q repeated or not one of ours", name)
		}
		seen[name] = true
		if fi, _ := os.Lstat(f.Name()); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
			t.Errorf("mode %v", fi.Mode())
		}
	}
	if IsTemp(".x.tmp", "x") || IsTemp(".x.tmp-abc", "x") || IsTemp(".y.tmp-AAAAAAAAAAAAAAAAAAAAAAAAAA", "x") {
		t.Error("IsTemp takes names that are not WriteAtomic's")
	}
}
