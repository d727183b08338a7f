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

// TestFarColumn: a result's promptIdx names its column, and a column no
// prompt and no result names is none: a line of 70 bytes with promptIdx
// 1,000,000 made a million empty datasets before its own.
func TestFarColumn(t *testing.T) {
	p := filepath.Join(t.TempDir(), "far.jsonl")
	body := `{"promptIdx": 1000000, "testIdx": 0, "provider": "p", "success": true}` + "\n" +
		`{"promptIdx": 2, "testIdx": 0, "provider": "q", "success": false}` + "\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	dss, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(dss) != 2 || !strings.HasPrefix(dss[0].Title, "q ") || !strings.HasPrefix(dss[1].Title, "p ") {
		var titles []string
		for _, ds := range dss[:min(len(dss), 5)] {
			titles = append(titles, ds.Title)
		}
		t.Errorf("%d datasets %q, want the columns of q and p, in their order", len(dss), titles)
	}
}

// TestLimits: an export read whole past maxExport (JSON or CSV) is
// refused with its size and the limit, and a JSON Lines result past
// maxLine is not read, and said, the other results read.
func TestLimits(t *testing.T) {
	defer func(e int64, l int) { maxExport, maxLine = e, l }(maxExport, maxLine)
	maxExport, maxLine = 2000, 2000
	for _, name := range []string{"v3.json", "v3.csv"} {
		_, err := Open(filepath.Join("testdata", name))
		if err == nil || !strings.Contains(err.Error(), "evalview reads it whole, and only up to 2000 bytes") {
			t.Errorf("%s: %v", name, err)
		}
	}
	dss, err := Open(filepath.Join("testdata", "v3.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	records := 0
	for _, ds := range dss {
		records += ds.Records.Len()
		for _, is := range ds.Issues {
			if is.Code == "line-too-long" {
				said = append(said, is.String())
			}
		}
	}
	if len(said) == 0 || !strings.Contains(said[0], "evalview reads a result of at most 2000 bytes (not read)") || records == 0 {
		t.Errorf("%d records; line-too-long: %q", records, said)
	}
}
