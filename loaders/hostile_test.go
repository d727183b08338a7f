package loaders

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"evalview/internal/hostile"
	"evalview/model"
)

var updateHostile = flag.Bool("update-hostile", false, "rewrite testdata/hostile from the generator")

// hostileDir holds the committed terminal-payload fixtures, for the TUI's
// tests and for trying the browser by hand.
var hostileDir = filepath.Join("..", "testdata", "hostile", "terminal")

// TestHostileFixtures keeps testdata/hostile/terminal equal to what the
// generator makes (go test ./loaders -run TestHostileFixtures
// -update-hostile rewrites it), and checks each file opens as its format
// with every record loading.
func TestHostileFixtures(t *testing.T) {
	files, err := hostile.Terminal()
	if err != nil {
		t.Fatal(err)
	}
	if *updateHostile {
		os.RemoveAll(hostileDir)
		if err := hostile.WriteFiles(hostileDir, files); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(hostileDir, filepath.FromSlash(name)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is stale (%v): run go test ./loaders -run TestHostileFixtures -update-hostile", name, err)
		}
		if !bytes.Contains(want, []byte(`\u001b]2;pwned\u0007`)) && !strings.HasPrefix(name, "lmeval/results") &&
			!strings.HasSuffix(name, "manifest.json") && !strings.HasSuffix(name, "summary.json") {
			t.Errorf("%s holds no payload", name)
		}
	}
	for dir, kind := range map[string]model.Kind{"lmeval": model.KindLMEval, "sample": model.KindSample, "testset": model.KindTestset, "run": model.KindRun} {
		ds, err := Open([]string{filepath.Join(hostileDir, dir)}, Options{})
		if err != nil || len(ds) != 1 || ds[0].Kind != kind {
			t.Fatalf("%s: %d datasets, %v", dir, len(ds), err)
		}
		waitDone(t, ds[0])
		if ds[0].Records.Len() < 3 {
			t.Errorf("%s: only %d records", dir, ds[0].Records.Len())
		}
		if _, err := ds[0].AllIssues(); err != nil {
			t.Errorf("%s: %v", dir, err)
		}
	}
}

// waitDone waits for a background index scan to finish (bounded, so a hang
// fails instead of blocking the suite).
func waitDone(t *testing.T, d *model.Dataset) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); !d.Records.Done(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: index never finished", d.Path)
		}
	}
}

// lineFormats are the line-based formats, each with the file name it is
// detected by, its source fixture and its id field.
var lineFormats = []struct {
	kind      model.Kind
	name, src string
	idKey     string
	numericID bool
}{
	{model.KindLMEval, filepath.Base(hostile.Sources.LMEval), hostile.Sources.LMEval, "doc_id", true},
	{model.KindSample, "judged.jsonl", hostile.Sources.Sample, "id", false},
	{model.KindTestset, "guide.jsonl", hostile.Sources.Testset, "id", false},
}

// TestBrokenJSONL opens every broken variant of every line-based format,
// both detected and forced: the good records all load, the bad line is
// named by an issue with the file and line, and nothing panics.
func TestBrokenJSONL(t *testing.T) {
	huge := 0
	if !testing.Short() {
		huge = 100 << 20 // the issue's "huge strings": 100 MB
	}
	for _, f := range lineFormats {
		valid, err := os.ReadFile(filepath.Join(hostile.Root(), f.src))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range hostile.Broken(valid, f.idKey, f.numericID, huge) {
			t.Run(string(f.kind)+"/"+c.Name, func(t *testing.T) {
				p := filepath.Join(t.TempDir(), f.name)
				if err := os.WriteFile(p, c.Data, 0o644); err != nil {
					t.Fatal(err)
				}
				for _, as := range []model.Kind{"", f.kind} {
					ds, err := Open([]string{p}, Options{As: as})
					if err != nil {
						t.Fatalf("--as %q: %v", as, err)
					}
					if len(ds) != 1 || ds[0].Kind != f.kind {
						t.Fatalf("--as %q: %d datasets, want one %s", as, len(ds), f.kind)
					}
					checkBroken(t, ds[0], p, c)
				}
			})
		}
	}
}

// checkBroken checks one opened broken file against its case.
func checkBroken(t *testing.T, d *model.Dataset, path string, c hostile.Case) {
	t.Helper()
	waitDone(t, d)
	issues, err := d.AllIssues()
	if err != nil {
		t.Fatalf("a record fails to load: %v", err)
	}
	n := d.Records.Len()
	named := false
	for _, is := range issues {
		if is.File == "" || (is.Line == 0 && is.Record == "" && is.Path == "" && is.File != path) {
			continue
		}
		if is.File == path && is.Line == c.BadLine && (c.Code == "" || is.Code == c.Code) {
			named = true
		}
	}
	switch {
	case c.Tolerant && (n == c.Good+1 || named):
	case n != c.Good:
		t.Errorf("%d records, want %d; issues:%s", n, c.Good, dump(issues))
	}
	if c.BadLine > 0 && !named && !(c.Tolerant && n == c.Good+1) {
		t.Errorf("no issue %q names %s:%d; issues:%s", c.Code, path, c.BadLine, dump(issues))
	}
	for _, is := range issues {
		if is.File == "" || is.Code == "" || is.Message == "" {
			t.Errorf("issue without file, code or message: %+v", is)
		}
	}
}

func dump(issues []model.Issue) string {
	var b strings.Builder
	for i, is := range issues {
		if i == 8 {
			fmt.Fprintf(&b, "\n  ... %d more", len(issues)-i)
			break
		}
		s := is.String()
		if len(s) > 200 {
			s = s[:200] + "…"
		}
		b.WriteString("\n  " + is.Code + " " + s)
	}
	return b.String()
}
