package promptfoo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostile: exports of the wrong shape, cut, or with values of other
// types open with a message or as far as they go, and never panic.
func TestHostile(t *testing.T) {
	dir := t.TempDir()
	deep := strings.Repeat("[", 100000)
	for name, body := range map[string]string{
		"cut.json":           `{"evalId": "x", "results": {"version": 3, "results": [{"promptIdx": 0, "testIdx": 0, "success": tr`,
		"types.json":         `{"results": {"version": 3, "prompts": "x", "results": [1, "a", null], "stats": 5}, "shareableUrl": null, "config": {}}`,
		"no_index.json":      `{"results": {"version": 3, "prompts": [], "results": [{"success": true, "score": 1, "gradingResult": null}]}, "config": {}, "shareableUrl": null}`,
		"huge_idx.json":      `{"results": {"version": 3, "prompts": [], "results": [{"promptIdx": 99999999, "testIdx": 0, "success": true, "gradingResult": null}]}, "config": {}, "shareableUrl": null}`,
		"table_types.json":   `{"version": 2, "results": [{"prompt": {"raw": "a", "label": "a"}, "vars": {}, "success": true, "gradingResult": null}], "table": {"head": {"prompts": [1], "vars": "x"}, "body": [{"outputs": [null, 3]}]}}`,
		"deep.json":          `{"results": ` + deep,
		"bad_lines.jsonl":    `{"promptIdx": 0, "testIdx": 0, "provider": "p", "success": true}` + "\nnot json\n" + `{"promptIdx": -1, "testIdx": 0}` + "\n",
		"empty_results.json": `{"results": {"version": 3, "prompts": [], "results": []}, "config": {}, "shareableUrl": null}`,
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		dss, err := Open(p)
		if err == nil && len(dss) == 0 {
			t.Errorf("%s: no dataset and no error", name)
		}
		for _, ds := range dss {
			for i := 0; i < ds.Records.Len(); i++ {
				if _, err := ds.Records.Record(i); err != nil {
					t.Errorf("%s: record %d: %v", name, i, err)
				}
			}
		}
	}
}
