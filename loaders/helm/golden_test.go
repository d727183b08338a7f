package helm

import (
	"flag"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders/internal/dump"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fixtures copies testdata to a temporary folder under the names HELM
// gives its runs: the committed names spell ":" as %3A, which Windows
// refuses in a file name. It returns the copy's root.
func fixtures(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	err := filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel("testdata", p)
		if err != nil {
			return err
		}
		real, err := url.PathUnescape(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, filepath.FromSlash(real))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// suiteOf is the fixture suite under root: runs written as helm-run lays
// them out, stats.json aggregated the way HELM's Metric.evaluate
// aggregates.
func suiteOf(root string) string { return filepath.Join(root, "benchmark_output", "runs", "v1") }

// TestGolden: every run of the fixture suite, its list and each record's
// detail (read them like code).
func TestGolden(t *testing.T) {
	root := fixtures(t)
	suiteDir := suiteOf(root)
	for _, run := range []string{
		"mmlu:subject=anatomy,method=multiple_choice_joint,model=openai_gpt2",
		"mmlu:subject=anatomy,method=multiple_choice_joint,model=meta_llama-3-8b",
		"harm_bench:model=openai_gpt2",
		"boolq:data_augmentation=robustness,model=openai_gpt2",
	} {
		name := strings.NewReplacer(":", "_", ",", "_", "=", "_").Replace(run)
		t.Run(name, func(t *testing.T) {
			dss, err := Open(filepath.Join(suiteDir, run))
			if err != nil {
				t.Fatal(err)
			}
			if len(dss) != 1 {
				t.Fatalf("want 1 dataset, got %d", len(dss))
			}
			got := strings.ReplaceAll(dump.Dataset(t, dss[0]), root, "testdata")
			dump.Check(t, *update, "list_and_detail", got)
		})
	}
}
