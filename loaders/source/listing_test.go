package source

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestLocalListingKept: a folder's listing is kept while the folder is
// unchanged (its status change time as it was), listed again once an
// entry comes or goes, whatever is done to its modification time; a
// folder changed within listingSettle of its listing is never kept; and
// callers get copies.
func TestLocalListingKept(t *testing.T) {
	if _, known := changeTime(mustStat(t, t.TempDir())); !known {
		t.Skip("no change time here: nothing is kept")
	}
	lists := 0
	osReadDir = func(p string) ([]fs.DirEntry, error) { lists++; return os.ReadDir(p) }
	t.Cleanup(func() { osReadDir, listingSettle = os.ReadDir, 2*time.Second })
	dir := t.TempDir()
	write := func(n string) {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names := func(wantLists int, want ...string) {
		t.Helper()
		ents, err := ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range ents {
			got = append(got, e.Name())
		}
		if !slices.Equal(got, want) || lists != wantLists {
			t.Fatalf("listing %v after %d listings of the folder, want %v after %d", got, lists, want, wantLists)
		}
		if len(ents) > 0 {
			ents[0] = nil // a caller's change stays its own
		}
	}
	write("a.jsonl")
	names(1, "a.jsonl")
	names(2, "a.jsonl") // changed just now: not kept

	listingSettle = 0
	names(3, "a.jsonl")
	names(3, "a.jsonl") // kept
	write("b.jsonl")
	names(4, "a.jsonl", "b.jsonl")
	names(4, "a.jsonl", "b.jsonl")
	// A file removed and the folder's modification time set back, as a
	// sync that preserves times does: the change time still moved.
	before := mustStat(t, dir).ModTime()
	os.Remove(filepath.Join(dir, "b.jsonl"))
	os.Chtimes(dir, before, before)
	names(5, "a.jsonl")
	// Another folder at the same path.
	os.RemoveAll(dir)
	os.Mkdir(dir, 0o755)
	names(6)
}

func mustStat(t *testing.T, p string) fs.FileInfo {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestKeptListingSizesAreFresh: a file that grows while its folder's
// listing is kept shows its new size (follow mode reads it).
func TestKeptListingSizesAreFresh(t *testing.T) {
	if _, known := changeTime(mustStat(t, t.TempDir())); !known {
		t.Skip("no change time here: nothing is kept")
	}
	// As os.ReadDir lists where the file system does not give entries'
	// types: each entry's Info is read at the listing, and kept.
	lists := 0
	osReadDir = func(p string) ([]fs.DirEntry, error) {
		lists++
		ents, err := os.ReadDir(p)
		for i, e := range ents {
			info, _ := e.Info()
			ents[i] = fs.FileInfoToDirEntry(info)
		}
		return ents, err
	}
	listingSettle = 0
	t.Cleanup(func() { osReadDir, listingSettle = os.ReadDir, 2*time.Second })
	dir := t.TempDir()
	p := filepath.Join(dir, "samples.jsonl")
	os.WriteFile(p, []byte("{}\n"), 0o644)
	size := func() int64 {
		t.Helper()
		ents, err := ReadDir(dir)
		if err != nil || len(ents) != 1 {
			t.Fatal(ents, err)
		}
		info, err := ents[0].Info()
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	if got := size(); got != 3 {
		t.Fatalf("size %d, want 3", got)
	}
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte("{}\n"))
	f.Close()
	if got := size(); got != 6 || lists != 1 {
		t.Fatalf("after the file grew: size %d from %d listings, want 6 from the kept one", got, lists)
	}
}
