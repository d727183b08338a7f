package loaders

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"evalview/model"
)

// The formats tables of README.md and docs/formats.md name every kind
// of the registry, and no other: a format added with its registry line
// and not documented fails here.
func TestFormatsTablesNameEveryKind(t *testing.T) {
	row := regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\|")
	for _, p := range []string{"../README.md", "../docs/formats.md"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var named []model.Kind
		for _, m := range row.FindAllSubmatch(b, -1) {
			named = append(named, model.Kind(m[1]))
		}
		for _, k := range Kinds() {
			if !slices.Contains(named, k) {
				t.Errorf("%s: the formats table has no row for %s", p, k)
			}
		}
		for _, k := range named {
			if !slices.Contains(Kinds(), k) {
				t.Errorf("%s: the formats table names %s, which is no format of the registry", p, k)
			}
		}
	}
}
