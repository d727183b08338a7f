package lmeval

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"evalview/model"
)

// gzipCopy writes dir's results file and its samples, gzipped, into a
// temporary folder; reorder may change the samples' line order first.
func gzipCopy(t *testing.T, dir string, reorder func(lines [][]byte) [][]byte) string {
	t.Helper()
	out := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		if filepath.Ext(f) == ".jsonl" {
			lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
			if reorder != nil {
				lines = reorder(lines)
			}
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write(append(bytes.Join(lines, []byte("\n")), '\n'))
			zw.Close()
			data, name = b.Bytes(), name+".gz"
		}
		if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestDeepCompressedMatchesPlain: the deep check of a gzipped samples file
// (rows streamed in record order) reports what the plain file's does,
// also when a section's rows are not in doc order (those rows are then
// read through the row reader).
func TestDeepCompressedMatchesPlain(t *testing.T) {
	swapSecondSection := func(lines [][]byte) [][]byte {
		// reextract_mismatch has 4 docs per filter: swap docs 0 and 1 of
		// the second filter.
		out := append([][]byte(nil), lines...)
		out[4], out[5] = out[5], out[4]
		return out
	}
	cases := []struct {
		dir     string
		reorder func([][]byte) [][]byte
	}{
		{"../../testdata/lmeval/generated_3filters_8repeats", nil},
		{"../../testdata/lmeval/reextract_mismatch", nil},
		{"../../testdata/lmeval/reextract_mismatch", swapSecondSection},
	}
	for _, c := range cases {
		plainDir := c.dir
		if c.reorder != nil {
			// The plain reference gets the same order.
			plainDir = t.TempDir()
			files, _ := filepath.Glob(filepath.Join(c.dir, "*"))
			for _, f := range files {
				data, _ := os.ReadFile(f)
				if filepath.Ext(f) == ".jsonl" {
					lines := c.reorder(bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n")))
					data = append(bytes.Join(lines, []byte("\n")), '\n')
				}
				os.WriteFile(filepath.Join(plainDir, filepath.Base(f)), data, 0o644)
			}
		}
		plain := deep(t, openOne(t, plainDir))
		gz := openOne(t, gzipCopy(t, c.dir, c.reorder))
		got := deep(t, gz)
		for k := range got.Issues {
			got.Issues[k].File = "" // the paths differ
		}
		for k := range plain.Issues {
			plain.Issues[k].File = ""
		}
		if !reflect.DeepEqual(got, plain) {
			t.Errorf("%s: gzipped deep %+v\nplain %+v", c.dir, got, plain)
		}
		if c.dir == "../../testdata/lmeval/reextract_mismatch" && len(got.Issues) != 2 {
			t.Errorf("%s: %d issues, want the 2 mismatches", c.dir, len(got.Issues))
		}
		if len(got.Issues) > 0 && got.Issues[0].Severity != model.SeverityWarning {
			t.Errorf("%s: %v", c.dir, got.Issues)
		}
	}
}

// TestDeepCompressedCancel: a cancelled deep check of a compressed file
// stops with the context's error, and progress still reaches the end when
// it runs.
func TestDeepCompressedCancel(t *testing.T) {
	ds := openOne(t, gzipCopy(t, "../../testdata/lmeval/generated_3filters_8repeats", nil))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ds.Deep(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled deep check: %v", err)
	}
	var last [2]int
	if _, err := ds.Deep(context.Background(), func(d, n int) { last = [2]int{d, n} }); err != nil {
		t.Fatal(err)
	}
	if last != [2]int{12, 12} {
		t.Errorf("last progress %v, want [12 12]", last)
	}
}
