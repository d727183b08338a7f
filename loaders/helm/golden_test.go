package helm

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders/internal/dump"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// suiteDir is the fixture suite: runs written as helm-run lays them out,
// stats.json aggregated the way HELM's Metric.evaluate aggregates.
var suiteDir = filepath.Join("testdata", "benchmark_output", "runs", "v1")

// TestGolden: every run of the fixture suite, its list and each record's
// detail (read them like code).
func TestGolden(t *testing.T) {
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
			dump.Check(t, *update, "list_and_detail", dump.Dataset(t, dss[0]))
		})
	}
}
