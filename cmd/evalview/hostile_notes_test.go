package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"evalview/internal/hostile"
	"evalview/loaders/notes"
)

// TestCommandsOnHostileNotes: an artifact whose notes sidecar someone
// else planted (internal/hostile's plants: links to a file, to nowhere
// and to /dev/zero, a FIFO, a folder, a file past the size notes are
// read to). check, summary and export each end at once (a FIFO sidecar
// hung them all, and a link to /dev/zero took gigabytes), exit as
// documented, and say which file is refused and what it is; the link's
// target is neither changed nor created.
func TestCommandsOnHostileNotes(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	data, err := os.ReadFile(twoFilters)
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("keep\n"), 0o600)
	for _, p := range hostile.Plants(victim, 64<<20+1) {
		t.Run(p.Name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
			art := filepath.Join(dir, filepath.Base(twoFilters))
			os.WriteFile(art, data, 0o644)
			side := notes.SidecarPath(art)
			what, err := p.Make(side)
			if err != nil {
				t.Skip("cannot make it here:", err)
			}
			for _, args := range [][]string{{"check"}, {"check", "--json"}, {"summary"}, {"export"}} {
				type result struct {
					out, errOut string
					code        int
				}
				done := make(chan result, 1)
				go func() {
					out, errOut, code := runCmd(t, append(args, art)...)
					done <- result{out, errOut, code}
				}()
				var r result
				select {
				case r = <-done:
				case <-time.After(20 * time.Second):
					t.Fatalf("%s hangs", args)
				}
				if r.code < 0 || r.code > 2 {
					t.Errorf("%s: exit %d", args, r.code)
				}
				all := r.out + r.errOut
				if args[0] == "check" && (!strings.Contains(all, side) || !strings.Contains(all, what)) {
					t.Errorf("%s does not say %s %s:\n%s", args, side, what, all)
				}
				if args[0] == "export" && (r.code != 0 || strings.Count(r.out, "\n") != 4) {
					t.Errorf("export of an artifact with a refused sidecar: exit %d, %d lines", r.code, strings.Count(r.out, "\n"))
				}
				for what, s := range map[string]string{"stdout": r.out, "stderr": r.errOut} {
					if why := plainUnsafe(s); why != "" {
						t.Errorf("%s %s: %s", args, what, why)
					}
				}
			}
			if b, _ := os.ReadFile(victim); string(b) != "keep\n" {
				t.Errorf("the victim changed: %q", b)
			}
			if _, err := os.Lstat(victim + ".created"); err == nil {
				t.Error("a file was created through a dangling link")
			}
		})
	}
}
