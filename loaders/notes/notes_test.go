package notes

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestSetGetAndReopen(t *testing.T) {
	dir := t.TempDir()
	art := filepath.Join(dir, "samples_gsm8k.jsonl")
	if err := os.WriteFile(art, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, issues := Open(art, "")
	if len(issues) != 0 {
		t.Fatalf("issues on a missing notes file: %v", issues)
	}
	if _, err := s.Set("samples_gsm8k.jsonl", "12", []string{" extraction  bug", "", "extraction bug", "wrong reasoning"}, " last line "); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Set("samples_gsm8k.jsonl", "3", []string{"wrong reasoning"}, ""); err != nil {
		t.Fatal(err)
	}
	if s.Path() != art+Suffix {
		t.Errorf("path %q, want the sidecar", s.Path())
	}
	if raw, _ := os.ReadFile(art + Suffix); len(editedField.FindAll(raw, -1)) != 2 {
		t.Errorf("notes without their edit time:\n%s", raw)
	}
	b := readNotes(t, art+Suffix)
	want := `{"artifact":"samples_gsm8k.jsonl","id":"12","labels":["extraction bug","wrong reasoning"],"note":"last line"}
{"artifact":"samples_gsm8k.jsonl","id":"3","labels":["wrong reasoning"]}
`
	if string(b) != want {
		t.Errorf("file:\n%s\nwant:\n%s", b, want)
	}
	if a, _ := os.ReadFile(art); string(a) != "{}\n" {
		t.Error("the artifact changed")
	}
	r, _ := Open(art, "")
	labels, note := r.Get("samples_gsm8k.jsonl", "12")
	if strings.Join(labels, "|") != "extraction bug|wrong reasoning" || note != "last line" {
		t.Errorf("reopened: %v %q", labels, note)
	}
	if got := strings.Join(r.Labels("samples_gsm8k.jsonl"), "|"); got != "wrong reasoning|extraction bug" {
		t.Errorf("labels by use: %q", got)
	}
	// Clearing a note removes its line.
	if _, err := r.Set("samples_gsm8k.jsonl", "3", nil, ""); err != nil {
		t.Fatal(err)
	}
	b = readNotes(t, art+Suffix)
	if strings.Contains(string(b), `"id":"3"`) || r.Len("samples_gsm8k.jsonl") != 1 {
		t.Errorf("cleared note still there:\n%s", b)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

// TestBadLinesAreKept: lines that are not notes (a hand edit, a line
// half written by another tool) are reported with their line numbers and
// kept as they are, in place, by every later save.
func TestBadLinesAreKept(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "notes.jsonl")
	bad1, bad2 := "not json \x1b", `{"artifact":"a"}`
	half := `{"artifact":"a","id":"9","lab`
	os.WriteFile(p, []byte("{\"artifact\":\"a\",\"id\":\"1\",\"labels\":[\"x\"]}\n"+bad1+"\n"+bad2+"\n{\"artifact\":\"a\",\"id\":\"2\",\"note\":\"n\"}\n"+half), 0o644)
	s, issues := Open("a", p)
	if len(issues) != 3 || issues[0].Line != 2 || issues[1].Line != 3 || issues[2].Line != 5 || issues[0].Code != "notes-bad-line" || issues[0].File != p ||
		!strings.Contains(issues[0].Message, "keeps it in the file") {
		t.Fatalf("issues %v", issues)
	}
	if l, _ := s.Get("a", "1"); len(l) != 1 {
		t.Errorf("good line lost: %v", l)
	}
	if _, err := s.Set("a", "1", nil, ""); err != nil { // removes line 1
		t.Fatal(err)
	}
	if _, err := s.Set("a", "3", []string{"new"}, ""); err != nil {
		t.Fatal(err)
	}
	want := bad1 + "\n" + bad2 + "\n" + `{"artifact":"a","id":"2","note":"n"}` + "\n" + half + "\n" + `{"artifact":"a","id":"3","labels":["new"]}` + "\n"
	if got := readNotes(t, p); got != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
	_, issues = Open("a", p)
	if len(issues) != 3 || issues[0].Line != 1 || issues[1].Line != 2 || issues[2].Line != 4 {
		t.Errorf("reopened: %v", issues)
	}
}

func TestFallbackWhenFolderNotWritable(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("needs a folder the user cannot write")
	}
	dir := t.TempDir()
	art := filepath.Join(dir, "ro", "run.zip")
	os.MkdirAll(filepath.Dir(art), 0o755)
	os.WriteFile(art, nil, 0o644)
	os.Chmod(filepath.Dir(art), 0o555)
	defer os.Chmod(filepath.Dir(art), 0o755)
	state := filepath.Join(dir, "state")
	t.Setenv("XDG_STATE_HOME", state)
	s, _ := Open(art, "")
	if _, err := s.Set("run.zip", "0", []string{"flaky"}, ""); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.Path(), filepath.Join(state, "evalview", "notes")) {
		t.Fatalf("wrote to %q, want the state folder", s.Path())
	}
	// Reopening finds the fallback file.
	r, _ := Open(art, "")
	if l, _ := r.Get("run.zip", "0"); len(l) != 1 || r.Path() != s.Path() {
		t.Errorf("reopened %q: %v", r.Path(), l)
	}
}

func TestFallbackWhenSidecarCannotBeCreated(t *testing.T) {
	// A sidecar under a regular file cannot be created, even by root.
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o644)
	art := filepath.Join(notDir, "run.zip")
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	s, _ := Open(art, "")
	if _, err := s.Set("run.zip", "0", []string{"flaky"}, "note"); err != nil {
		t.Fatal(err)
	}
	if want := StatePath(art); s.Path() != want || !strings.HasPrefix(want, filepath.Join(dir, "state", "evalview", "notes")) {
		t.Fatalf("wrote to %q, want %q", s.Path(), want)
	}
	if b, err := os.ReadFile(s.Path()); err != nil || !strings.Contains(string(b), `"flaky"`) {
		t.Errorf("fallback file: %q %v", b, err)
	}
}

func TestConfiguredPathHasNoFallback(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o644)
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	s, _ := Open("a.jsonl", filepath.Join(notDir, "notes.jsonl"))
	if _, err := s.Set("a.jsonl", "1", []string{"x"}, ""); err == nil {
		t.Fatal("a configured path that cannot be written reported no error")
	}
	if l, _ := s.Get("a.jsonl", "1"); len(l) != 0 {
		t.Errorf("a failed write kept the note: %v", l)
	}
}

func TestOpenRefusesAFileWithoutNotes(t *testing.T) {
	dir := t.TempDir()
	art := filepath.Join(dir, "samples.jsonl")
	content := `{"doc_id":0}` + "\n" + `{"doc_id":1}` + "\n"
	if err := os.WriteFile(art, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	s, issues := Open(art, art) // --notes pointing at the artifact
	if s != nil {
		t.Fatal("Open returned a store over a file that holds no notes")
	}
	last := issues[len(issues)-1]
	if last.Code != "notes-unusable" || last.File != art || !strings.Contains(last.Message, "not a notes file") {
		t.Errorf("issues %v, want notes-unusable last", issues)
	}
	if b, _ := os.ReadFile(art); string(b) != content {
		t.Errorf("the artifact changed: %q", b)
	}
	// An empty file and a missing one are fine.
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	for _, p := range []string{empty, filepath.Join(dir, "missing.jsonl")} {
		if s, issues := Open(art, p); s == nil || len(issues) != 0 {
			t.Errorf("%s: store %v issues %v", p, s, issues)
		}
	}
}

func TestFailedWriteKeepsTheNoteAtTheNextWrite(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	p := filepath.Join(sub, "n.jsonl")
	os.MkdirAll(sub, 0o755)
	s, _ := Open("a", p)
	if _, err := s.Set("a", "1", []string{"keep"}, ""); err != nil {
		t.Fatal(err)
	}
	// The folder becomes a file: writes fail, even for root.
	os.RemoveAll(sub)
	os.WriteFile(sub, nil, 0o644)
	if _, err := s.Set("a", "1", nil, ""); err == nil { // clearing fails
		t.Fatal("a write under a regular file reported no error")
	}
	if _, err := s.Set("a", "3", []string{"new"}, ""); err == nil { // adding fails
		t.Fatal("a write under a regular file reported no error")
	}
	os.Remove(sub)
	os.MkdirAll(sub, 0o755)
	if l, _ := s.Get("a", "1"); len(l) != 1 {
		t.Fatalf("note not restored in memory: %v", l)
	}
	if _, err := s.Set("a", "2", []string{"other"}, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Set("a", "3", []string{"new"}, ""); err != nil {
		t.Fatal(err)
	}
	b := readNotes(t, p)
	want := `{"artifact":"a","id":"1","labels":["keep"]}
{"artifact":"a","id":"2","labels":["other"]}
{"artifact":"a","id":"3","labels":["new"]}
`
	if string(b) != want {
		t.Errorf("file:\n%s\nwant:\n%s", b, want)
	}
}

// TestTwoWindowsKeepEachOthersNotes: two stores on one file (two browser
// windows) each keep the other's notes when they write, and a note
// removed in one stays removed.
func TestTwoWindowsKeepEachOthersNotes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "n.jsonl")
	a, _ := Open("art", p)
	b, _ := Open("art", p)
	if _, err := a.Set("art", "1", []string{"from a"}, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Set("art", "2", []string{"from b"}, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Set("art", "3", nil, "a again"); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Store{a, b} {
		if _, err := s.Set("art", "4", []string{"both"}, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Set("art", "1", nil, ""); err != nil { // b removes a's first note
		t.Fatal(err)
	}
	if _, err := a.Set("art", "5", []string{"last"}, ""); err != nil {
		t.Fatal(err)
	}
	got := readNotes(t, p)
	want := `{"artifact":"art","id":"2","labels":["from b"]}
{"artifact":"art","id":"3","note":"a again"}
{"artifact":"art","id":"4","labels":["both"]}
{"artifact":"art","id":"5","labels":["last"]}
`
	if string(got) != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
	if l, _ := a.Get("art", "2"); len(l) != 1 {
		t.Errorf("window a does not see b's note after writing: %v", l)
	}
}

// TestSetRefusesAFileReplacedByAnother: when something else replaced the
// notes file between two writes, the next write fails rather than
// destroy it.
func TestSetRefusesAFileReplacedByAnother(t *testing.T) {
	p := filepath.Join(t.TempDir(), "n.jsonl")
	s, _ := Open("art", p)
	if _, err := s.Set("art", "1", []string{"x"}, ""); err != nil {
		t.Fatal(err)
	}
	other := []byte("not notes\nat all\n")
	os.WriteFile(p, other, 0o644)
	if _, err := s.Set("art", "2", []string{"y"}, ""); err == nil {
		t.Fatal("a write over a file that is not notes reported no error")
	}
	if got, _ := os.ReadFile(p); string(got) != string(other) {
		t.Errorf("the other file was changed: %q", got)
	}
}

// TestSetKeepsTheNoteWhenLocked: a save that cannot have the lock (another
// process holds it) says so, never writes without it, and keeps the note:
// Get shows it, and the next save writes it with its own.
func TestSetKeepsTheNoteWhenLocked(t *testing.T) {
	defer func(w time.Duration) { lockWait = w }(lockWait)
	lockWait = 50 * time.Millisecond
	dir := t.TempDir()
	p := filepath.Join(dir, "n.jsonl")
	s, _ := Open("art", p)
	release, err := acquire(p, false, time.Second) // another window's lock, as far as the OS knows
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Set("art", "1", []string{"x"}, "")
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "kept") {
		t.Fatalf("Set under another's lock: %v", err)
	}
	if _, err := os.Stat(p); err == nil {
		t.Fatal("the file was written without the lock")
	}
	if l, _ := s.Get("art", "1"); len(l) != 1 || s.Pending() != 1 || s.Where("art", "1") != "" {
		t.Errorf("note not kept: %v pending %d", l, s.Pending())
	}
	release()
	if _, err := s.Set("art", "2", []string{"y"}, ""); err != nil {
		t.Fatal(err)
	}
	want := `{"artifact":"art","id":"1","labels":["x"]}` + "\n" + `{"artifact":"art","id":"2","labels":["y"]}` + "\n"
	if got := readNotes(t, p); got != want || s.Pending() != 0 || s.Where("art", "1") != p {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
}

// editedField matches a note line's edit time, which readNotes drops.
var editedField = regexp.MustCompile(`,"edited":"[^"]*"`)

// readNotes reads a notes file without its lines' edit times.
func readNotes(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return editedField.ReplaceAllString(string(b), "")
}
