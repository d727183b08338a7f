package notes

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/internal/hostile"
)

// FuzzNotesFile opens any bytes as a notes file and saves a note into it:
// nothing panics; every line that is not a note is kept as it was, and
// every note read is still there after the save.
func FuzzNotesFile(f *testing.F) {
	f.Add([]byte(`{"artifact":"a","id":"1","labels":["x"],"note":"n"}` + "\n"))
	f.Add([]byte("not json\n" + `{"artifact":"a","id":"2","labels":["` + "\u202e\u009b" + `"]}` + "\n" + `{"artifact":"a","id":"9","lab`))
	f.Add([]byte(`{"artifact":"a","id":"1","edited":"2026-01-01T00:00:00Z"}` + "\n\n\r\n" + `{"id":"1","labels":[1]}`))
	f.Add([]byte(hostile.Payload + "\n" + `{"artifact":"a","id":"` + strings.Repeat("[", 100) + `"}`))
	dir := hostile.FuzzDir(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "notes.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, issues := Open("a", p)
		if s == nil {
			if len(issues) == 0 || issues[len(issues)-1].Code != "notes-unusable" {
				t.Fatalf("no store and no reason: %v", issues)
			}
			if b, _ := os.ReadFile(p); !bytes.Equal(b, data) {
				t.Fatal("a file refused was changed")
			}
			return
		}
		before := readFile(p)
		if _, err := s.Set("a", "fuzz-new", []string{"added"}, ""); err != nil {
			t.Fatal(err)
		}
		after := readFile(p)
		var keptBefore, keptAfter [][]byte
		for _, e := range before.entries {
			if e.raw != nil {
				keptBefore = append(keptBefore, e.raw)
			}
		}
		for _, e := range after.entries {
			if e.raw != nil {
				keptAfter = append(keptAfter, e.raw)
			}
		}
		if len(keptBefore) != len(keptAfter) {
			t.Fatalf("lines that are not notes: %d before the save, %d after", len(keptBefore), len(keptAfter))
		}
		for i := range keptBefore {
			if !bytes.Equal(keptBefore[i], keptAfter[i]) {
				t.Fatalf("line changed by the save: %q -> %q", keptBefore[i], keptAfter[i])
			}
		}
		for k, n := range before.notes {
			if n.empty() {
				continue
			}
			got := after.notes[k]
			if !sameNote(got, n) {
				t.Fatalf("note %v changed by a save of another: %+v -> %+v", k, n, got)
			}
		}
		if l, _ := s.Get("a", "fuzz-new"); len(l) != 1 {
			t.Fatal("the new note is not kept")
		}
	})
}
