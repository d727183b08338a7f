package lmeval

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/loaders/jsonl"
)

func TestLastField(t *testing.T) {
	cases := []struct {
		data, want string
		ok         bool
	}{
		{`{"a": 1, "filtered_resps": ["18"], "filter": "x"}`, `["18"]`, true},
		{`{"filtered_resps": "a\"b"}`, `"a\"b"`, true},
		{`{"filtered_resps": "a\\"}` + "\r\n", `"a\\"`, true},
		{`{"filtered_resps": 1, "filtered_resps": [2]}`, `[2]`, true},
		{`{"filtered_resps": [["x", "}"]], "m": {"k": "]\"["}, "n": null}`, `[["x", "}"]]`, true},
		{`{"a": 1}`, ``, false},
		{`ed_resps": 1, "b": 2}`, ``, false},              // the key starts before the tail
		{`"filtered_resps": 12345}`, ``, false},           // no ':' context before the value is known
		{`2345, "filtered_resps": ["a"]}`, `["a"]`, true}, // a cut value before does not matter
		{`\"filtered_resps\": 1, "b": "x"}`, ``, false},   // quotes inside a cut string
		{`"x\\", "filtered_resps": "y"}`, `"y"`, true},    // the key comes before the cut
		{`\\", "filtered_resps": "y"}`, `"y"`, true},
		{`\\", "y": "z"}`, ``, false},           // a backslash run cut at the start
		{`{"filtered_resps": ["a"]`, ``, false}, // no closing brace
		{`{"filtered_resps" ["a"]}`, ``, false}, // not JSON
	}
	for _, c := range cases {
		got, ok := lastField([]byte(c.data), "filtered_resps")
		if ok != c.ok || ok && string(got) != c.want {
			t.Errorf("lastField(%s) = %s, %v; want %s, %v", c.data, got, ok, c.want, c.ok)
		}
	}
}

// TestLastFieldOnEveryTail cuts every real and fixture samples row at many
// offsets: lastField on the rest either gives up or finds what a forward
// skim finds.
func TestLastFieldOnEveryTail(t *testing.T) {
	var files []string
	for _, root := range []string{"../../testdata/lmeval", "../../../shared/data/lm_eval"} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
				files = append(files, p)
			}
			return nil
		})
	}
	rows, found := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range bytes.Split(data, []byte("\n")) {
			var want []byte
			if jsonl.Skim(row, func(fd jsonl.Field) error {
				if fd.Key == "filtered_resps" {
					want = fd.Value
				}
				return nil
			}) != nil || want == nil {
				continue
			}
			rows++
			for k := 0; k < len(row); k++ {
				if k > 64 && k < len(row)-600 && k%13 != 0 {
					continue
				}
				got, ok := lastField(row[k:], "filtered_resps")
				if ok && !bytes.Equal(got, want) {
					t.Fatalf("%s: row cut at %d: %s, want %s", f, k, got, want)
				}
				if k == 0 {
					if !ok {
						t.Fatalf("%s: whole row: not found", f)
					}
					found++
				}
			}
		}
	}
	// The fixtures alone hold 68 rows; with the real data, well over 100.
	if want := map[bool]int{true: 100, false: 50}[haveShared()]; rows < want || found != rows {
		t.Fatalf("%d rows, %d found whole", rows, found)
	}
}
