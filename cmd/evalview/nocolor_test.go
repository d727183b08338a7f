package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// check, summary and export print no escape codes at all, with NO_COLOR
// set or not, when their output is not a terminal (a bytes.Buffer here,
// a pipe or a file in use), over every demo format and a broken file
// (whose issues are printed).
func TestNoEscapeCodesInCommandOutput(t *testing.T) {
	paths := []string{
		filepath.Join("..", "..", "testdata", "demo", "lm_eval"),
		filepath.Join("..", "..", "testdata", "demo", "run"),
		filepath.Join("..", "..", "testdata", "demo", "sample"),
		filepath.Join("..", "..", "testdata", "demo", "testset"),
		filepath.Join(fixtures, "broken"),
	}
	commands := [][]string{
		{"check"},
		{"check", "--json"},
		{"summary"},
		{"summary", "--json"},
		{"export"},
		{"export", "--format", "csv"},
		{"export", "--where", "status=fail"},
	}
	for _, noColor := range []string{"1", ""} {
		t.Setenv("NO_COLOR", noColor)
		for _, p := range paths {
			for _, c := range commands {
				args := append(append([]string(nil), c...), p)
				t.Run("NO_COLOR="+noColor+" "+strings.Join(args, " "), func(t *testing.T) {
					var out, errb bytes.Buffer
					code := run(args, &out, &errb)
					if code == exitOpenFails {
						t.Fatalf("exit %d: %s", code, errb.String())
					}
					if out.Len() == 0 && !strings.HasPrefix(c[0], "export") {
						t.Fatalf("no output; stderr %s", errb.String())
					}
					for name, b := range map[string][]byte{"stdout": out.Bytes(), "stderr": errb.Bytes()} {
						if i := bytes.IndexByte(b, 0x1b); i >= 0 {
							t.Errorf("%s has an escape code at byte %d: %q", name, i, b[max(0, i-20):min(len(b), i+20)])
						}
					}
				})
			}
		}
	}
}
