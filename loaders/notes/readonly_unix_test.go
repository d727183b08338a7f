//go:build linux || darwin

package notes

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// nobody is the user a root test runs the child as, so that a folder's
// permissions apply to it.
const nobody = 65534

// TestReadOnlyFolderKeepsEveryNote: an artifact whose folder the user
// cannot write, beside a sidecar written when it could: a new label goes
// to the fallback file, and the next open shows both the sidecar's notes
// and the fallback's (before, it read the sidecar only, and the label was
// never shown again). The child process runs as a user who cannot write
// the folder (nobody, when the tests run as root).
func TestReadOnlyFolderKeepsEveryNote(t *testing.T) {
	dir := t.TempDir()
	open := func(p string) { os.Chmod(p, 0o755) }
	for p := dir; p != filepath.Dir(p) && strings.HasPrefix(p, os.TempDir()) && p != filepath.Clean(os.TempDir()); p = filepath.Dir(p) {
		open(p) // t.TempDir's folders are private to their owner
	}
	ro := filepath.Join(dir, "ro")
	os.MkdirAll(ro, 0o755)
	art := filepath.Join(ro, "samples_x.jsonl")
	os.WriteFile(art, []byte("{}\n"), 0o644)
	state := filepath.Join(dir, "state")
	os.MkdirAll(state, 0o777)
	os.Chmod(state, 0o777)
	t.Setenv("XDG_STATE_HOME", state)
	s, _ := Open(art, "")
	if _, err := s.Set("samples_x.jsonl", "1", []string{"from before"}, ""); err != nil {
		t.Fatal(err)
	}
	os.Chmod(ro, 0o555)
	defer os.Chmod(ro, 0o755)

	cmd := child("set", art, "2", "while read-only")
	if os.Geteuid() == 0 {
		// The test binary may sit in a folder only root can enter.
		bin := filepath.Join(dir, "notes.test")
		copyFile(t, os.Args[0], bin)
		cmd.Path, cmd.Args[0] = bin, bin
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	fall := StatePath(art)
	if got := strings.TrimSpace(string(out)); got != fall {
		t.Fatalf("the child saved to %q, want the fallback %q", got, fall)
	}
	r, issues := Open(art, "")
	if len(issues) != 0 {
		t.Fatal(issues)
	}
	for id, want := range map[string]string{"1": "from before", "2": "while read-only"} {
		if l, _ := r.Get("samples_x.jsonl", id); strings.Join(l, ",") != want {
			t.Errorf("record %s: %v, want %q", id, l, want)
		}
	}
	if r.Where("samples_x.jsonl", "2") != fall || r.Where("samples_x.jsonl", "1") != SidecarPath(art) {
		t.Errorf("kept in %q and %q", r.Where("samples_x.jsonl", "1"), r.Where("samples_x.jsonl", "2"))
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
