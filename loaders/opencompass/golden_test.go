package opencompass

import (
	"flag"
	"path/filepath"
	"testing"

	"evalview/loaders/internal/dump"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fixture is the work folder built from the writer's code (testdata/SOURCES.md).
const fixture = "testdata/outputs/default"

func dumpAll(t *testing.T, path string) string {
	t.Helper()
	dss, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return dump.Datasets(t, dss)
}

// TestGolden: one golden of every dataset of the work folder, record by
// record (read it like code).
func TestGolden(t *testing.T) {
	dump.Check(t, *update, "list_and_detail", dumpAll(t, filepath.Join(fixture, "20250301_101500")))
}

// TestGoldenReal: predictions OpenCompass wrote for LawBench, opened
// alone (away from a work folder: no results).
func TestGoldenReal(t *testing.T) {
	dump.Check(t, *update, "list_and_detail", dumpAll(t, "testdata/real/lawbench/predictions/GPT4/lawbench_JDZY.json"))
}
