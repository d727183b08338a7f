package loaders

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"evalview/model"
)

// writeCompressed writes data to dir/name compressed by name's extension.
func writeCompressed(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if strings.HasSuffix(name, ".gz") {
		w := kgzip.NewWriter(f)
		w.Write(data)
		w.Close()
	} else {
		w, _ := zstd.NewWriter(f)
		w.Write(data)
		w.Close()
	}
	return p
}

// TestCompressedLMEval: samples_*.jsonl.gz and .zst are detected (alone
// and in a folder, beside their results file) and open with every record;
// other compressed files are refused with a clear error.
func TestCompressedLMEval(t *testing.T) {
	src := "../testdata/demo/lm_eval/acme__tiny-math-1b"
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	var samples, results string
	for _, e := range ents {
		switch {
		case strings.HasPrefix(e.Name(), "samples_gsm8k"):
			samples = e.Name()
		case strings.HasPrefix(e.Name(), "results_") && results == "":
			results = e.Name()
		}
	}
	data, err := os.ReadFile(filepath.Join(src, samples))
	if err != nil || results == "" {
		t.Fatalf("fixture: %v %q", err, results)
	}
	plain, err := Open([]string{filepath.Join(src, samples)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".gz", ".zst"} {
		t.Run(ext, func(t *testing.T) {
			dir := t.TempDir()
			p := writeCompressed(t, dir, samples+ext, data)
			if k, _, err := Detect(p, ""); err != nil || k != model.KindLMEval {
				t.Fatalf("detect: %v %v", k, err)
			}
			for _, path := range []string{p, dir} {
				ds, err := Open([]string{path}, Options{Background: path == dir})
				if err != nil || len(ds) != 1 {
					t.Fatalf("open %s: %d datasets, %v", path, len(ds), err)
				}
				if w, ok := ds[0].Records.(interface{ Wait() error }); ok {
					w.Wait()
				}
				if n := ds[0].Records.Len(); n != plain[0].Records.Len() {
					t.Errorf("%s: %d records, want %d", path, n, plain[0].Records.Len())
				}
				rec, err := ds[0].Records.Record(ds[0].Records.Len() - 1)
				if err != nil || len(rec.Attempts) == 0 {
					t.Errorf("%s: last record: %v", path, err)
				}
			}
			other := writeCompressed(t, t.TempDir(), "notes.txt"+ext, []byte("hello\n"))
			_, _, err := Detect(other, "")
			var oe *OpenError
			if !errors.As(err, &oe) || !strings.Contains(err.Error(), "only samples_") {
				t.Errorf("a compressed non-samples file: %v", err)
			}
		})
	}
}
