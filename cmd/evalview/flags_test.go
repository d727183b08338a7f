package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// Every persistent flag works in any position and on every command:
// `evalview --config F check P` failed with "unknown flag: --config".
// Each flag is given a value whose effect shows in the output, before
// the command's name, after it, and after the path.
func TestGlobalFlagsAnywhere(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(fixtures, "two_filters")
	artifact := "samples_gsm8k_2025-08-07T11-42-40.066002.jsonl"
	notesFile := filepath.Join(dir, "notes.jsonl")
	note := `{"artifact":"` + artifact + `","id":"1","labels":["extraction bug"]}` + "\n"
	if err := os.WriteFile(notesFile, []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	// A file with content but no note: the notes are off, an error every
	// command reports.
	notNotes := filepath.Join(dir, "not-notes.jsonl")
	if err := os.WriteFile(notNotes, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "config.json")
	if err := os.WriteFile(config, []byte(`{"notes": "`+notesFile+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	type probe struct {
		flag, value string
		// ok tells whether the command's output shows the flag's effect.
		ok func(out, errOut string, code int) bool
	}
	noted := func(out, _ string, code int) bool {
		return code == 0 && strings.Contains(out, `"note_labels":["extraction bug"]`)
	}
	unusable := func(out, _ string, code int) bool {
		return code == 1 && strings.Contains(out, "is not a notes file")
	}
	unusableCount := func(out, _ string, code int) bool { return code == 0 && strings.Contains(out, "1 error") }
	badKind := func(_, errOut string, code int) bool {
		return code == 2 && strings.Contains(errOut, `unknown kind "bogus"`)
	}
	noConfig := func(_, errOut string, code int) bool {
		return code == 2 && strings.Contains(errOut, "config") && strings.Contains(errOut, "no such file")
	}
	// --cache shows on remote paths only (TestRemoteDiskCache): here, that
	// it is taken anywhere and changes nothing.
	cached := func(out, errOut string, code int) bool {
		return code != 2 && !strings.Contains(errOut, "unknown") && out != ""
	}
	commands := map[string][]probe{
		"check": {
			{"--cache", "", cached},
			{"--as", "bogus", badKind},
			{"--config", filepath.Join(dir, "missing.json"), noConfig},
			{"--notes", notNotes, unusable},
		},
		"summary": {
			{"--cache", "", cached},
			{"--as", "bogus", badKind},
			{"--config", filepath.Join(dir, "missing.json"), noConfig},
			{"--notes", notNotes, unusableCount},
		},
		"export": {
			{"--cache", "", cached},
			{"--as", "bogus", badKind},
			{"--config", config, noted},
			{"--notes", notesFile, noted},
		},
	}
	root := newRootCmd(io.Discard, io.Discard)
	for name, probes := range commands {
		// Every persistent flag has a probe on every command.
		seen := map[string]bool{}
		for _, p := range probes {
			seen[p.flag] = true
		}
		root.PersistentFlags().VisitAll(func(f *pflag.Flag) {
			if !seen["--"+f.Name] && f.Name != "help" {
				t.Errorf("%s: no probe for the persistent flag --%s", name, f.Name)
			}
		})
		for _, p := range probes {
			for _, args := range [][]string{
				{p.flag, p.value, name, path},
				{name, p.flag, p.value, path},
				{name, path, p.flag, p.value},
			} {
				args = slices.DeleteFunc(args, func(a string) bool { return a == "" }) // a switch has no value
				out, errOut, code := runCmd(t, args...)
				if !p.ok(out, errOut, code) {
					t.Errorf("evalview %s: exit %d\nstdout: %.300s\nstderr: %s", strings.Join(args, " "), code, out, errOut)
				}
			}
		}
	}
}

// A browser flag given to a command is explained, not just "unknown".
func TestBrowserFlagOnCommand(t *testing.T) {
	_, errOut, code := runCmd(t, "--theme", "dark", "check", filepath.Join(fixtures, "two_filters"))
	if code != 2 || !strings.Contains(errOut, "--theme is a flag of the browser") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
