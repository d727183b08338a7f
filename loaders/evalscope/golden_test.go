package evalscope

import (
	"flag"
	"testing"

	"evalview/loaders/internal/dump"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fixture is the output folders built from the writer's code (testdata/SOURCES.md).
const fixture = "testdata/outputs"

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
	dump.Check(t, *update, "list_and_detail", dumpAll(t, fixture))
}
