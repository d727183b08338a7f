package lighteval

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/internal/hostile"
)

// fromBytes opens data as the details file name, in memory.
func fromBytes(name string, data []byte) opener {
	return func() (*pqFile, error) {
		return parquetFrom(bytes.NewReader(data), int64(len(data)), io.NopCloser(nil))
	}
}

const hostileName = "details_t|0_2025-01-01T00-00-00.000000.parquet"

// TestParquetDeclaresTooMuch: files that declare more than they hold or
// more than evalview reads (each ended the process with Go's fatal "out
// of memory" before: a schema 100,000 levels deep in 800 KB, a dictionary
// of 2^31 entries, a page of 2^30 values, a footer list of 2^31 columns)
// are refused before parquet-go reads them, with a message saying what
// was too large.
func TestParquetDeclaresTooMuch(t *testing.T) {
	lies := hostile.ParquetLies()
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"deep schema", hostile.ParquetDeepSchema(4096), `column "doc" nests 4,097 levels deep; evalview reads at most 64`},
		{"deep schema, 800 KB", hostile.ParquetDeepSchema(100_000), "the footer declares more than 100,000 list entries (columns, column chunks)"},
		{"dictionary of 2^31 entries", hostile.ParquetDictionary(1<<31 - 1), `column "doc", row group 0: dictionary page at offset 4 declares 2,147,483,647 entries in 5 bytes`},
		{"lists 250 levels deep", hostile.ParquetDeepLists(250, 10), `column "doc" nests 251 levels deep`},
		{"footer longer than the file", lies["footer-longer-than-file"], "the footer declares 127 bytes; the file holds 127 bytes"},
		{"schema list of 2^31", lies["schema-list-2^31"], "the footer declares a list of 2,147,483,647 entries where 1 byte is left"},
		{"2^40 rows", lies["rows-2^40"], "the file declares 1,099,511,627,776 rows; evalview reads at most 10,000,000 rows"},
		{"chunk past the end", lies["chunk-past-end"], `column "doc", row group 0: declares 1,073,741,824 bytes at offset 4; the file's data ends at 4`},
		{"page of 2^30 values", lies["page-2^30-values"], "page at offset 4 declares 1,073,741,824 values; evalview reads at most 16,777,216 values"},
		{"a million rows of nulls", lies["null-rows-2^20"], "the file declares 1,048,576 rows in 125 bytes; evalview reads at most 100,000 rows and one more per 32 bytes of file"},
		{"children past the schema", lies["children-past-schema"], `column "doc" declares 1,073,741,824 child columns; the schema holds 1 more`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := detailsFrom(hostileName, fromBytes(hostileName, c.data))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %v\nwant one holding %q", err, c.want)
			}
		})
	}
}

// TestParquetHostileBuildersAreValid: the builders write valid files where
// they declare what they hold, so that what the cases above refuse is the
// one lie each tells.
func TestParquetHostileBuildersAreValid(t *testing.T) {
	for name, data := range map[string][]byte{
		"dictionary of 1 entry": hostile.ParquetDictionary(1),
		"lists 3 levels deep":   hostile.ParquetDeepLists(3, 10),
		"schema 8 levels deep":  hostile.ParquetDeepSchema(8),
		// A page header longer than the first read of it (4 KB): a
		// pyarrow file of parquet-go's testdata was refused so.
		"statistics of 6,000 bytes": hostile.ParquetLongStatistics(6000),
	} {
		ds, err := detailsFrom(hostileName, fromBytes(hostileName, data))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, is := range ds.Issues {
			if is.Code == "bad-parquet" {
				t.Errorf("%s: %s", name, is)
			}
		}
		for i := 0; i < ds.Records.Len(); i++ {
			if _, err := ds.Records.Record(i); err != nil {
				t.Errorf("%s: row %d: %v", name, i, err)
			}
		}
	}
	ds, _ := detailsFrom(hostileName, fromBytes(hostileName, hostile.ParquetDictionary(1)))
	if ds == nil || ds.Records.Len() != 1 {
		t.Fatalf("the dictionary file does not give its one row")
	}
}

// TestParquetRowTooLarge: a row whose lists would take gigabytes as maps
// (10,000 values in lists 60 levels deep took half a gigabyte and 20 s)
// is not decoded: opening it says what the row holds; the file's other
// rows and its list are kept.
func TestParquetRowTooLarge(t *testing.T) {
	ds, err := detailsFrom(hostileName, fromBytes(hostileName, hostile.ParquetDeepLists(60, 10_000)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ds.Records.Record(0)
	want := "row 0: the row holds 10,000 values in lists up to 61 levels deep, more than evalview decodes of one row"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Record(0) error = %v\nwant one holding %q", err, want)
	}
	// Lists of the size a details row has (32,000 input tokens) are read.
	ds, err = detailsFrom(hostileName, fromBytes(hostileName, hostile.ParquetDeepLists(3, 32_000)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ds.Records.Record(0); err != nil {
		t.Errorf("a row of 32,000 values in lists 4 levels deep: %v", err)
	}
}

// TestParquetFolderKeepsGoodFiles: a folder holding a file that declares
// too much and a good one opens the good one and names the other.
func TestParquetFolderKeepsGoodFiles(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(filepath.Join(fixtureDir, "flat", "details_leaderboard%7Cboolq%7C0_2025-03-01T10-00-00.000000.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "details_good|0_2025-03-01T10-00-00.000000.parquet"), good, 0o644)
	os.WriteFile(filepath.Join(dir, "details_deep|0_2025-03-01T10-00-00.000000.parquet"), hostile.ParquetDeepSchema(100_000), 0o644)
	// The file not opened is a dataset of its own whose error says why.
	dss, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var opened, named bool
	for _, ds := range dss {
		if strings.Contains(ds.Path, "details_good") && ds.Records.Len() > 0 {
			opened = true
		}
		for _, is := range ds.Issues {
			if strings.Contains(is.File, "details_deep") && strings.Contains(is.Message, "the footer declares more than 100,000 list entries") {
				named = true
			}
		}
	}
	if !opened || !named {
		t.Errorf("the good file opened: %v; the deep one named: %v (%d datasets)", opened, named, len(dss))
	}
}
