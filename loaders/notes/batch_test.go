package notes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/model"
)

func TestUpdateAddsLabelsKeepingNotesAndAnotherWindows(t *testing.T) {
	dir := t.TempDir()
	art := filepath.Join(dir, "samples_gsm8k.jsonl")
	os.WriteFile(art, []byte("{}\n"), 0o644)
	a, _ := Open(art, "")
	b, _ := Open(art, "") // another window on the same file
	if _, err := a.Set("samples_gsm8k.jsonl", "1", []string{"wrong reasoning"}, "check the units"); err != nil {
		t.Fatal(err)
	}
	// b has not seen record 1's note; its batch must keep it.
	if _, err := b.Update("samples_gsm8k.jsonl", []string{"1", "2", "3"}, model.AddLabels([]string{"extraction bug"})); err != nil {
		t.Fatal(err)
	}
	r, _ := Open(art, "")
	labels, note := r.Get("samples_gsm8k.jsonl", "1")
	if strings.Join(labels, "|") != "wrong reasoning|extraction bug" || note != "check the units" {
		t.Errorf("record 1: %v %q, want both labels and the note kept", labels, note)
	}
	for _, id := range []string{"2", "3"} {
		if l, _ := r.Get("samples_gsm8k.jsonl", id); strings.Join(l, "|") != "extraction bug" {
			t.Errorf("record %s: %v", id, l)
		}
	}
	if r.Len("samples_gsm8k.jsonl") != 3 {
		t.Errorf("%d notes, want 3", r.Len("samples_gsm8k.jsonl"))
	}
	// A note for many appends to what each says.
	if _, err := r.Update("samples_gsm8k.jsonl", []string{"1", "2"}, model.AppendNote("regex misses $")); err != nil {
		t.Fatal(err)
	}
	if _, n := r.Get("samples_gsm8k.jsonl", "1"); n != "check the units; regex misses $" {
		t.Errorf("appended note %q", n)
	}
	if _, n := r.Get("samples_gsm8k.jsonl", "2"); n != "regex misses $" {
		t.Errorf("new note %q", n)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
	if x, _ := os.ReadFile(art); string(x) != "{}\n" {
		t.Error("the artifact changed")
	}
}

func TestUpdateFailsWholeAndChangesNothing(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o644)
	s, _ := Open("a.jsonl", filepath.Join(notDir, "notes.jsonl")) // cannot be written
	if _, err := s.Update("a.jsonl", []string{"1", "2"}, model.AddLabels([]string{"x"})); err == nil {
		t.Fatal("a batch to a path that cannot be written reported no error")
	}
	if s.Len("a.jsonl") != 0 {
		t.Errorf("a failed batch kept %d notes", s.Len("a.jsonl"))
	}
}

func TestUpdateFallsBackWhenTheSidecarCannotBeCreated(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o644)
	art := filepath.Join(notDir, "run.zip")
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	s, _ := Open(art, "")
	if _, err := s.Update("run.zip", []string{"0", "1"}, model.AddLabels([]string{"flaky"})); err != nil {
		t.Fatal(err)
	}
	if s.Path() != StatePath(art) {
		t.Fatalf("wrote to %q, want the state folder", s.Path())
	}
	b, _ := os.ReadFile(s.Path())
	if strings.Count(string(b), `"flaky"`) != 2 {
		t.Errorf("fallback file:\n%s", b)
	}
}
