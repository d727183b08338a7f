package inspect

import (
	"evalview/model"
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

// The Scores tab holds one block per epoch and scorer, its value, answer
// and explanation as labelled facts that wrap, not a table whose columns
// cut a scorer's explanation to a few words a line.
func TestScoresAreBlocks(t *testing.T) {
	dss, err := Open(filepath.Join(fixtureDir, "capitals.json"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := dss[0].Records.Record(0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range rec.Sections {
		if s.Tab != "Scores" {
			continue
		}
		if s.Type != model.SectionFacts {
			t.Errorf("section %q is not label/value facts", s.Title)
		}
		var keys []string
		for _, f := range s.Facts {
			keys = append(keys, f.Key)
		}
		got = append(got, s.Title+": "+strings.Join(keys, " "))
	}
	if want := "epoch 1 · match: value answer explanation"; strings.Join(got, "|") != want {
		t.Errorf("Scores sections %q, want %q", strings.Join(got, "|"), want)
	}
}
