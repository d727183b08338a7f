package lighteval

import (
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders/internal/dump"
)

func TestGolden(t *testing.T) {
	root := realFixtures(t)
	for _, dir := range []string{"output", "flat", "flat_str"} {
		t.Run(dir, func(t *testing.T) {
			dss, err := Open(filepath.Join(root, dir))
			if err != nil {
				t.Fatal(err)
			}
			dump.Check(t, *update, "list_and_detail", strings.ReplaceAll(dump.Datasets(t, dss), root, "testdata/lighteval"))
		})
	}
}

func TestParsePy(t *testing.T) {
	v, err := parsePy(`{'acc': 1.0, 'pred': [(-0.5, True), "it's"], 'n': None, 'x': nan}`)
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	if m["acc"] != 1.0 || m["n"] != nil || textOf(m["x"]) != "nan" || textOf(m["pred"]) != `[[-0.5,true],"it's"]` {
		t.Errorf("parsePy gave %#v", m)
	}
	for _, bad := range []string{"[1, 2", "{'a' 1}", "<object at 0x1>", strings.Repeat("[", 500)} {
		if _, err := parsePy(bad); err == nil {
			t.Errorf("parsePy(%q) should fail", bad)
		}
	}
}
