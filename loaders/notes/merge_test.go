package notes

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSidecarAndFallbackMerged: with notes in both the sidecar and the
// fallback (the folder was read-only for a while), Open shows every note,
// each record's newest edit winning, says where each is kept, and a note
// removed while the other file holds it stays removed after a reopen.
func TestSidecarAndFallbackMerged(t *testing.T) {
	_, art := newArtifact(t)
	side, fall := SidecarPath(art), StatePath(art)
	os.MkdirAll(filepath.Dir(fall), 0o755)
	os.WriteFile(side, []byte(`{"artifact":"samples_x.jsonl","id":"1","labels":["side only"]}
{"artifact":"samples_x.jsonl","id":"2","labels":["old"],"edited":"2026-01-01T00:00:00.000000000Z"}
{"artifact":"samples_x.jsonl","id":"3","labels":["newer in side"],"edited":"2026-03-01T00:00:00.000000000Z"}
`), 0o644)
	os.WriteFile(fall, []byte(`{"artifact":"samples_x.jsonl","id":"4","labels":["fallback only"],"edited":"2026-01-01T00:00:00Z"}
{"artifact":"samples_x.jsonl","id":"2","labels":["new"],"edited":"2026-02-01T00:00:00.5Z"}
{"artifact":"samples_x.jsonl","id":"3","labels":["older in fallback"],"edited":"2026-02-01T00:00:00Z"}
`), 0o644)
	s, issues := Open(art, "")
	if len(issues) != 0 {
		t.Fatal(issues)
	}
	for id, want := range map[string]string{"1": "side only", "2": "new", "3": "newer in side", "4": "fallback only"} {
		if l, _ := s.Get("samples_x.jsonl", id); strings.Join(l, ",") != want {
			t.Errorf("record %s: %v, want %s", id, l, want)
		}
	}
	for id, want := range map[string]string{"1": side, "2": fall, "3": side, "4": fall} {
		if got := s.Where("samples_x.jsonl", id); got != want {
			t.Errorf("record %s is kept in %q, want %q", id, got, want)
		}
	}
	if s.Len("samples_x.jsonl") != 4 {
		t.Errorf("Len %d", s.Len("samples_x.jsonl"))
	}
	// Removing record 4 (in the fallback only) writes the sidecar: a
	// tombstone there keeps it removed.
	if _, err := s.Set("samples_x.jsonl", "4", nil, ""); err != nil {
		t.Fatal(err)
	}
	r, _ := Open(art, "")
	if l, _ := r.Get("samples_x.jsonl", "4"); len(l) != 0 || r.Len("samples_x.jsonl") != 3 {
		t.Errorf("removed note back after a reopen: %v", l)
	}
	for id, want := range map[string]string{"1": "side only", "2": "new", "3": "newer in side"} {
		if l, _ := r.Get("samples_x.jsonl", id); strings.Join(l, ",") != want {
			t.Errorf("after the save, record %s: %v, want %s", id, l, want)
		}
	}
}

// newArtifact makes a folder with an artifact, samples_x.jsonl, whose
// fallback notes go under the folder's state/.
func newArtifact(t *testing.T) (dir, art string) {
	t.Helper()
	dir = t.TempDir()
	art = filepath.Join(dir, "samples_x.jsonl")
	if err := os.WriteFile(art, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	return dir, art
}

// TestSameRecordInTwoWindows is the issue's case: two windows on one
// artifact, A labels record 5, then B, which read the notes before A's
// save, labels record 5 too. Before, the file kept only B's label and
// neither window said so. Now the file keeps both, and B's save reports
// the conflict with what it saved; A sees both once it reads again.
func TestSameRecordInTwoWindows(t *testing.T) {
	_, art := newArtifact(t)
	const name = "samples_x.jsonl"
	a, _ := Open(art, "")
	b, _ := Open(art, "")
	if c, err := a.Set(name, "5", []string{"extraction bug"}, ""); err != nil || len(c) != 0 {
		t.Fatalf("A's save: %v %v", c, err)
	}
	c, err := b.Set(name, "5", []string{"wrong reasoning"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(c) != 1 || c[0].ID != "5" || c[0].Artifact != name || strings.Join(c[0].Labels, ",") != "extraction bug,wrong reasoning" {
		t.Errorf("B's save reports %+v, want record 5's conflict with both labels", c)
	}
	want := `{"artifact":"samples_x.jsonl","id":"5","labels":["extraction bug","wrong reasoning"]}` + "\n"
	if got := readNotes(t, SidecarPath(art)); got != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
	a.Refresh()
	if l, _ := a.Get(name, "5"); strings.Join(l, ",") != "extraction bug,wrong reasoning" {
		t.Errorf("A after reading again: %v", l)
	}
	// B read the record after A's save (its prompt read the notes again):
	// B's edit starts from A's labels, and there is no conflict.
	if c, err := a.Set(name, "6", []string{"from a"}, ""); err != nil || len(c) != 0 {
		t.Fatal(c, err)
	}
	b.Refresh()
	l, _ := b.Get(name, "6")
	if c, err := b.Set(name, "6", append(l, "from b"), ""); err != nil || len(c) != 0 {
		t.Errorf("an edit made on what is saved reports %v %v", c, err)
	}
	if l, _ := b.Get(name, "6"); strings.Join(l, ",") != "from a,from b" {
		t.Errorf("record 6: %v", l)
	}
}

// TestConflictKeepsBothTexts: both windows rewrite a record's note text
// and labels: both texts and every label added are kept; a label one
// window removed goes; a note one window cleared keeps the other's new
// text.
func TestConflictKeepsBothTexts(t *testing.T) {
	p := filepath.Join(t.TempDir(), "n.jsonl")
	os.WriteFile(p, []byte(`{"artifact":"a","id":"1","labels":["old","keep"],"note":"first look"}`+"\n"+
		`{"artifact":"a","id":"2","labels":["x"],"note":"was"}`+"\n"), 0o644)
	a, _ := Open("a", p)
	b, _ := Open("a", p)
	a.Set("a", "1", []string{"keep", "from a"}, "units are wrong")
	c, err := b.Set("a", "1", []string{"old", "keep", "from b"}, "regex misses the sign")
	if err != nil || len(c) != 1 {
		t.Fatalf("%v %v", c, err)
	}
	if got := strings.Join(c[0].Labels, ","); got != "keep,from a,from b" || c[0].Note != "units are wrong; regex misses the sign" {
		t.Errorf("merged: %q %q", got, c[0].Note)
	}
	a.Set("a", "2", nil, "")                                             // A removes record 2's note
	if c, _ := b.Set("a", "2", []string{"x", "y"}, "is"); len(c) != 1 || // B adds to it
		strings.Join(c[0].Labels, ",") != "y" || c[0].Note != "is" {
		t.Errorf("removal against an addition: %+v", c)
	}
}

// TestPendingEditMergedWithALaterSave: an edit kept in memory because the
// lock was held is merged, at the next save, with what another window
// saved to the same record meanwhile (before, the newer edit won and the
// kept one was dropped without a word).
func TestPendingEditMergedWithALaterSave(t *testing.T) {
	defer func(w time.Duration) { lockWait = w }(lockWait)
	lockWait = 50 * time.Millisecond
	p := filepath.Join(t.TempDir(), "n.jsonl")
	a, _ := Open("art", p)
	b, _ := Open("art", p)
	release, err := acquire(p, false, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Set("art", "1", []string{"from a"}, ""); !errors.Is(err, ErrLocked) {
		t.Fatal(err)
	}
	release()
	time.Sleep(2 * time.Millisecond) // B's edit is the later one
	if _, err := b.Set("art", "1", []string{"from b"}, ""); err != nil {
		t.Fatal(err)
	}
	c, err := a.Flush(time.Second)
	if err != nil || len(c) != 1 {
		t.Fatalf("flush: %v %v", c, err)
	}
	r, _ := Open("art", p)
	if l, _ := r.Get("art", "1"); strings.Join(l, ",") != "from b,from a" {
		t.Errorf("record 1: %v", l)
	}
}

// TestMerge3 covers the merge's cases one by one.
func TestMerge3(t *testing.T) {
	n := func(text string, labels ...string) Note { return Note{Labels: labels, Text: text} }
	for _, c := range []struct {
		name            string
		base, cur, mine Note
		want            Note
		conflict        bool
	}{
		{"only mine changed", n("", "a"), n("", "a"), n("", "a", "b"), n("", "a", "b"), false},
		{"only cur changed", n("", "a"), n("", "a", "c"), n("", "a"), n("", "a", "c"), false},
		{"the same change", n(""), n("t", "x"), n("t", "x"), n("t", "x"), false},
		{"labels in another order", n("", "a", "b"), n("", "b", "a"), n("", "a", "b", "c"), n("", "a", "b", "c"), false},
		{"both added", n(""), n("", "x"), n("", "y"), n("", "x", "y"), true},
		{"one removed, one added", n("", "a", "b"), n("", "b"), n("", "a", "b", "c"), n("", "b", "c"), true},
		{"both removed the same", n("", "a", "b"), n("", "b", "c"), n("", "b", "d"), n("", "b", "c", "d"), true},
		{"texts", n("t"), n("t1"), n("t2"), n("t1; t2"), true},
		{"one text holds the other", n("t"), n("t; more"), n("more", "z"), n("t; more", "z"), true},
		{"mine cleared, cur changed", n("t", "a"), n("t2", "a", "b"), n(""), n("t2", "b"), true},
		{"cur cleared, mine changed", n("t", "a"), n(""), n("t2", "a", "c"), n("t2", "c"), true},
	} {
		got, conflict := merge3(c.base, c.cur, c.mine)
		if !sameNote(got, c.want) || conflict != c.conflict {
			t.Errorf("%s: %v %q conflict %v, want %v %q %v", c.name, got.Labels, got.Text, conflict, c.want.Labels, c.want.Text, c.conflict)
		}
	}
	// The result is newer than cur even when mine's clock is behind.
	cur := Note{Labels: []string{"x"}, Edited: "2030-01-01T00:00:00.000000000Z"}
	mine := Note{Labels: []string{"y"}, Edited: "2026-01-01T00:00:00.000000000Z"}
	if got, _ := merge3(Note{}, cur, mine); !newer(got, cur) {
		t.Errorf("merged note %s is not newer than %s", got.Edited, cur.Edited)
	}
}

// FuzzMerge3 checks what no merge may do, on any three notes: lose a
// label either side added, keep one both removed, lose a text either side
// wrote, or report a conflict when one side changed nothing.
func FuzzMerge3(f *testing.F) {
	f.Add("a,b", "a", "a,b,c", "t", "t", "u")
	f.Add("", "x", "y", "", "one", "two")
	f.Add("a", "a", "", "t", "t; u", "")
	f.Fuzz(func(t *testing.T, base, cur, mine, baseText, curText, mineText string) {
		note := func(labels, text string) Note {
			return Note{Labels: cleanLabels(strings.Split(labels, ",")), Text: strings.TrimSpace(text)}
		}
		b, c, m := note(base, baseText), note(cur, curText), note(mine, mineText)
		got, conflict := merge3(b, c, m)
		for _, side := range []Note{c, m} {
			for _, l := range side.Labels {
				if !slices.Contains(b.Labels, l) && !slices.Contains(got.Labels, l) {
					t.Errorf("label %q added by one side is lost: %v", l, got.Labels)
				}
			}
			if side.Text != b.Text && side.Text != "" && !strings.Contains(got.Text, side.Text) {
				t.Errorf("text %q written by one side is lost: %q", side.Text, got.Text)
			}
		}
		for _, l := range b.Labels {
			if !slices.Contains(c.Labels, l) && !slices.Contains(m.Labels, l) && slices.Contains(got.Labels, l) {
				t.Errorf("label %q removed by both is kept", l)
			}
		}
		if conflict && (sameNote(b, c) || sameNote(b, m) || sameNote(c, m)) {
			t.Errorf("a conflict reported where one side changed nothing")
		}
		if len(cleanLabels(got.Labels)) != len(got.Labels) {
			t.Errorf("duplicate labels: %v", got.Labels)
		}
	})
}
