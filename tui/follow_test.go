package tui

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/loaders/sample"
	"evalview/model"
)

// sampleLine is one Sample JSONL record with id and question.
func sampleLine(id, q string) string {
	return fmt.Sprintf(`{"schema_version": "v1", "id": %q, "task_type": "qa", "messages": [{"role": "user", "content": %q}], "label": "x"}`+"\n", id, q)
}

// openSampleFile opens a Sample JSONL file the way the command does.
func openSampleFile(ds *model.Dataset) (*model.Dataset, error) {
	dss, err := sample.Open(ds.Path)
	if err != nil || len(dss) == 0 {
		return nil, fmt.Errorf("open %s: %v", ds.Path, err)
	}
	return dss[0], nil
}

// followModel opens path in follow mode at 100x30.
func followModel(t *testing.T, path string) *Model {
	t.Helper()
	t.Setenv("NO_COLOR", "1")
	dss, err := sample.Open(path)
	if err != nil || len(dss) != 1 {
		t.Fatalf("open: %v", err)
	}
	m := New(dss, Options{Theme: "dark", Follow: true, Reopen: openSampleFile})
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	return m
}

// tick delivers the look at the followed file that the timer would.
func tick(m *Model) {
	send(m, followTickMsg{gen: m.follow.gen, path: m.follow.path, sig: statSig(m.follow.path)})
}

func TestFollowGrowingJSONL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "growing.jsonl")
	if err := os.WriteFile(path, []byte(sampleLine("a1", "first?")+sampleLine("a2", "second?")), 0o600); err != nil {
		t.Fatal(err)
	}
	m := followModel(t, path)
	if !m.follow.on || !strings.Contains(screen(m), "following") {
		t.Fatalf("--follow did not start following:\n%s", screen(m))
	}
	if m.follow.needBase || !m.follow.base.ok {
		t.Fatalf("the first look (off the event loop) did not set the base: %+v", m.follow)
	}
	press(m, "j") // the cursor on a2
	tick(m)       // nothing changed: no reload
	if m.follow.reloading {
		t.Fatal("an unchanged file was reloaded")
	}

	// The test appends a record, as a running eval would.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(sampleLine("a3", "third?")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	tick(m)
	if got := m.datasets[0].Records.Len(); got != 3 {
		t.Fatalf("after the file grew: %d records, want 3", got)
	}
	if id, _ := m.currentRecordID(); id != "a2" {
		t.Errorf("the cursor moved to %q, want a2 kept", id)
	}
	if s := screen(m); !strings.Contains(s, "third?") || !strings.Contains(s, "following") {
		t.Errorf("screen after the reload:\n%s", s)
	}

	// Truncated under us: no reload loop, r offered.
	if err := os.WriteFile(path, []byte(sampleLine("b1", "new?")), 0o600); err != nil {
		t.Fatal(err)
	}
	tick(m)
	tick(m)
	if got := m.datasets[0].Records.Len(); got != 3 {
		t.Errorf("a shrunk file was reloaded by follow: %d records", got)
	}
	if s := screen(m); !strings.Contains(s, "r reloads") || !strings.Contains(s, "paused") {
		t.Errorf("status bar does not offer r:\n%s", s)
	}
	press(m, "r")
	if got := m.datasets[0].Records.Len(); got != 1 {
		t.Fatalf("r: %d records, want 1", got)
	}
	if m.follow.stale || !strings.Contains(screen(m), "following") {
		t.Errorf("following should resume after r:\n%s", screen(m))
	}
	tick(m) // the running loop's next look is the new base
	if m.follow.needBase || m.follow.base.size != int64(len(sampleLine("b1", "new?"))) {
		t.Errorf("after r the base is not the file as it is now: %+v", m.follow.base)
	}
	// A record appended now is followed again.
	f, err = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(sampleLine("b2", "newer?"))
	f.Close()
	tick(m)
	if got := m.datasets[0].Records.Len(); got != 2 {
		t.Errorf("after r and growth: %d records, want 2", got)
	}
	// ctrl+r turns it off; ticks of the old loop do nothing then.
	gen := m.follow.gen
	send(m, tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	if m.follow.on || strings.Contains(screen(m), "following ") {
		t.Errorf("ctrl+r did not stop following:\n%s", screen(m))
	}
	send(m, followTickMsg{gen: gen, path: path, sig: fileSig{ok: true, size: 1 << 20}})
	if m.follow.reloading {
		t.Error("a stale tick reloaded")
	}
}

func TestFileSig(t *testing.T) {
	dir := t.TempDir()
	a := statSig(dir)
	if !a.ok || a.files != 0 {
		t.Fatalf("empty folder: %+v", a)
	}
	os.MkdirAll(filepath.Join(dir, "samples"), 0o700)
	os.WriteFile(filepath.Join(dir, "samples", "1.json"), []byte("{}"), 0o600)
	b := statSig(dir)
	if !b.grewFrom(a) || b.files != 1 || b.size != 2 {
		t.Errorf("a folder that got a file: %+v from %+v", b, a)
	}
	os.Remove(filepath.Join(dir, "samples", "1.json"))
	if c := statSig(dir); !c.shrankFrom(b) {
		t.Errorf("a folder that lost a file: %+v from %+v", c, b)
	}
	if gone := statSig(filepath.Join(dir, "nope")); !gone.shrankFrom(b) || gone.grewFrom(b) {
		t.Errorf("a missing path: %+v", gone)
	}
}

// followTimers counts the follow timers (tea.Tick) cmd leads to, running
// immediate looks and reloads through m.
func followTimers(m *Model, cmd tea.Cmd) int {
	return countTicks(cmd, func(msg tea.Msg) (tea.Cmd, bool) {
		switch msg.(type) {
		case followTickMsg, reloadedMsg:
			_, next := m.Update(msg)
			return next, true
		}
		return nil, false
	})
}

// TestFollowResumeKeepsOneLoop: r after a pause for a shrunk file resumes
// the running tick loop rather than start a second one (each would look
// at the path every second, walking a run folder).
func TestFollowResumeKeepsOneLoop(t *testing.T) {
	path := filepath.Join(t.TempDir(), "growing.jsonl")
	os.WriteFile(path, []byte(sampleLine("a1", "first?")+sampleLine("a2", "second?")), 0o600)
	m := followModel(t, path)
	os.WriteFile(path, []byte(sampleLine("b1", "new?")), 0o600)
	_, c := m.Update(followTickMsg{gen: m.follow.gen, path: m.follow.path, sig: statSig(m.follow.path)})
	if n := followTimers(m, c); !m.follow.stale || n != 1 {
		t.Fatalf("after the shrink: stale %v, %d timers, want paused with 1", m.follow.stale, n)
	}
	_, cmd := m.Update(keyMsg("r"))
	if n := followTimers(m, cmd); n != 0 {
		t.Errorf("r started %d more follow loops beside the running one", n)
	}
}

// remoteInfo is a remote object's info as the loaders' Stat gives it:
// Sys() is its version tag, a fmt.Stringer.
type remoteInfo struct {
	size int64
	tag  string
}

type remoteTag string

func (t remoteTag) String() string { return string(t) }

func (i remoteInfo) Name() string       { return "samples.jsonl" }
func (i remoteInfo) Size() int64        { return i.size }
func (i remoteInfo) Mode() fs.FileMode  { return 0o444 }
func (i remoteInfo) ModTime() time.Time { return time.Time{} }
func (i remoteInfo) IsDir() bool        { return false }
func (i remoteInfo) Sys() any           { return remoteTag(i.tag) }

// Follow polls a remote object's version tag through Options.Stat: a
// replaced object of the same size (another ETag, no modification time)
// reloads, a shorter one is a shrink.
func TestFollowRemoteVersionTag(t *testing.T) {
	cur := remoteInfo{size: 100, tag: `"v1"`}
	stat := func(string) (fs.FileInfo, error) { return cur, nil }
	base := lookSig(stat, nil, "s3://b/samples.jsonl")
	if base.tag != `"v1"` || !base.ok {
		t.Fatalf("sig %+v", base)
	}
	if same := lookSig(stat, nil, "s3://b/samples.jsonl"); same.grewFrom(base) || same.shrankFrom(base) {
		t.Fatal("an unchanged object reads as changed")
	}
	cur.tag = `"v2"`
	if next := lookSig(stat, nil, "s3://b/samples.jsonl"); !next.grewFrom(base) {
		t.Fatal("a replaced object of the same size is not reloaded")
	}
	cur.size = 50
	if next := lookSig(stat, nil, "s3://b/samples.jsonl"); !next.shrankFrom(base) {
		t.Fatal("a shorter object is not a shrink")
	}
}

// dirInfo is a remote folder's info.
type dirInfo struct{ remoteInfo }

func (dirInfo) IsDir() bool       { return true }
func (dirInfo) Mode() fs.FileMode { return fs.ModeDir | 0o555 }

// remoteEntry is a listed remote file, named.
type remoteEntry struct {
	remoteInfo
	name string
}

func (e remoteEntry) Name() string               { return e.name }
func (e remoteEntry) Type() fs.FileMode          { return 0 }
func (e remoteEntry) Info() (fs.FileInfo, error) { return e.remoteInfo, nil }

// Follow on a remote folder (s3://bucket/prefix) lists it through
// Options.ReadDir, not the local disk: a new file, or one replaced at the
// same size (its version tag, asked by Stat when the listing has none),
// reloads.
func TestFollowRemoteFolder(t *testing.T) {
	files := map[string]remoteInfo{"a.jsonl": {size: 10, tag: `"a1"`}, "b.json": {size: 5, tag: ""}}
	tags := map[string]string{"b.json": `"b1"`}
	stat := func(p string) (fs.FileInfo, error) {
		if p == "s3:/b/run" || p == "s3://b/run" {
			return dirInfo{}, nil
		}
		name := p[strings.LastIndex(p, "/")+1:]
		return remoteInfo{size: files[name].size, tag: tags[name]}, nil
	}
	readDir := func(p string) ([]fs.DirEntry, error) {
		var out []fs.DirEntry
		for n, i := range files {
			out = append(out, remoteEntry{i, n})
		}
		return out, nil
	}
	base := lookSig(stat, readDir, "s3://b/run")
	if !base.ok || base.files != 2 || base.size != 15 {
		t.Fatalf("sig %+v", base)
	}
	if same := lookSig(stat, readDir, "s3://b/run"); same.grewFrom(base) || same.shrankFrom(base) {
		t.Fatal("an unchanged folder reads as changed")
	}
	tags["b.json"] = `"b2"`
	if next := lookSig(stat, readDir, "s3://b/run"); !next.grewFrom(base) {
		t.Fatal("a file replaced at the same size is not reloaded")
	}
	files["c.jsonl"] = remoteInfo{size: 1, tag: `"c1"`}
	if next := lookSig(stat, readDir, "s3://b/run"); !next.grewFrom(base) || next.files != 3 {
		t.Fatalf("a new file is not reloaded: %+v", next)
	}
}
