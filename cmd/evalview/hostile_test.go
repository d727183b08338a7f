package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"evalview/internal/hostile"
	"evalview/internal/testos"
)

// hostilePaths writes every hostile fixture into a temp folder and returns
// the paths to open: each format with terminal payloads, each broken
// variant of each line-based format, the hostile zips, an empty file, a
// FIFO and /dev/zero.
func hostilePaths(t *testing.T) []string {
	t.Helper()
	root := t.TempDir()
	files, err := hostile.Terminal()
	if err != nil {
		t.Fatal(err)
	}
	if err := hostile.WriteFiles(filepath.Join(root, "terminal"), files); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, d := range []string{"lmeval", "sample", "testset", "run"} {
		paths = append(paths, filepath.Join(root, "terminal", d))
	}
	run := map[string][]byte{}
	for n, data := range files {
		if rel, ok := strings.CutPrefix(n, "run/"); ok {
			run[rel] = data
		}
	}
	zips, err := hostile.Zips(run)
	if err != nil {
		t.Fatal(err)
	}
	for n, data := range zips {
		p := filepath.Join(root, "zips", n)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, data, 0o644)
		paths = append(paths, p)
	}
	for _, f := range []struct{ name, src, idKey string }{
		{filepath.Base(hostile.Sources.LMEval), hostile.Sources.LMEval, "doc_id"},
		{"judged.jsonl", hostile.Sources.Sample, "id"},
		{"guide.jsonl", hostile.Sources.Testset, "id"},
	} {
		valid, err := os.ReadFile(filepath.Join(hostile.Root(), f.src))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range hostile.Broken(valid, f.idKey, f.idKey == "doc_id", 0) {
			p := filepath.Join(root, "broken", c.Name+"-"+strings.TrimSuffix(f.name, ".jsonl"), f.name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, c.Data, 0o644)
			paths = append(paths, p)
		}
	}
	empty := filepath.Join(root, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	paths = append(paths, empty)
	fifo := filepath.Join(root, "fifo.jsonl")
	if testos.Mkfifo(fifo) == nil {
		paths = append(paths, fifo)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		paths = append(paths, "/dev/zero")
	}
	return paths
}

// plainUnsafe says why command output meant for a terminal or a pipe could
// act on a terminal, or "": with NO_COLOR or no terminal there must be no
// escape at all, no other control than newline and tab, no bidi control
// and no invalid UTF-8.
func plainUnsafe(s string) string {
	if !utf8.ValidString(s) {
		return "not valid UTF-8"
	}
	for i, r := range s {
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f),
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c:
			return fmt.Sprintf("control %U at byte %d: %q", r, i, s[max(0, i-40):min(len(s), i+40)])
		}
	}
	return ""
}

// TestCommandsOnHostileInput runs check, summary and export over every
// hostile fixture, one by one: no panic, an exit code the documentation
// names, and output, text, JSON or CSV, that cannot act on the terminal
// (stdout and stderr are not terminals here, so no escapes at all).
func TestCommandsOnHostileInput(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	for _, p := range hostilePaths(t) {
		for _, args := range [][]string{
			{"check"}, {"check", "--json"}, {"summary"}, {"summary", "--json"},
			{"export", "--format", "jsonl"}, {"export", "--format", "csv"},
		} {
			name := strings.Join(args, " ") + " " + filepath.Base(filepath.Dir(p)) + "/" + filepath.Base(p)
			t.Run(name, func(t *testing.T) {
				var out, errOut string
				var code int
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("panic: %v", r)
						}
					}()
					out, errOut, code = runCmd(t, append(args, p)...)
				}()
				if code < 0 || code > 2 {
					t.Errorf("exit %d", code)
				}
				// JSON and CSV too: they reach a terminal as often as
				// text does (export | less, a CSV cat'ed to check it).
				for what, s := range map[string]string{"stdout": out, "stderr": errOut} {
					if why := plainUnsafe(s); why != "" {
						t.Errorf("%s: %s", what, why)
					}
				}
			})
		}
	}
}
