package inspect

import (
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders/internal/dump"
)

func TestGolden(t *testing.T) {
	for _, name := range []string{"capitals_zstd.eval", "capitals_deflate.eval", "running.eval", "broken.eval", "capitals.json", "agent_pool.eval"} {
		t.Run(strings.ReplaceAll(name, ".", "_"), func(t *testing.T) {
			dss, err := Open(filepath.Join(fixtureDir, name))
			if err != nil {
				t.Fatal(err)
			}
			if len(dss) != 1 {
				t.Fatalf("want 1 dataset, got %d", len(dss))
			}
			got := strings.ReplaceAll(dump.Dataset(t, dss[0]), fixtureDir, "testdata/inspect")
			dump.Check(t, *update, "list_and_detail", got)
		})
	}
}
