package lmeval

import (
	"bytes"
	"os"
	"reflect"
	"strconv"
	"testing"

	"evalview/loaders/lmevalgen"
	"evalview/model"
)

// TestRecordReadsLongRowsEnds: a doc whose rows are longer than bigRow
// keeps only the head of each row: its first row's repeats are decoded
// over the row's own bytes, its later rows are read only at their ends,
// yet its texts and filters are those of the whole rows, and Full gives
// each whole row back.
func TestRecordReadsLongRowsEnds(t *testing.T) {
	dir := t.TempDir()
	res, err := lmevalgen.Generate(lmevalgen.Config{Dir: dir, Docs: 3, Repeats: 4, LongLine: 3 * bigRow / 2})
	if err != nil {
		t.Fatal(err)
	}
	dss, err := Open(res.SamplesPath)
	if err != nil || len(dss) == 0 {
		t.Fatalf("open: %v", err)
	}
	x := dss[0].Records.(*index)
	i, ok := x.s.docs[strconv.Itoa(res.LongDoc)]
	if !ok {
		t.Fatalf("doc %d not indexed", res.LongDoc)
	}
	rec, err := x.Record(i)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Raw) < 2 {
		t.Fatalf("%d raw parts, want one per filter", len(rec.Raw))
	}
	file, err := os.ReadFile(res.SamplesPath)
	if err != nil {
		t.Fatal(err)
	}
	for j, p := range rec.Raw {
		loc := x.s.rows[i][j]
		row := file[loc.off : loc.off+int64(loc.size)]
		if j == 0 {
			// Its repeats were decoded over its bytes: they must be the
			// texts a decoding of the row from the file gives.
			h, err := parseRow(bytes.Clone(row))
			if err != nil {
				t.Fatal(err)
			}
			var want model.Record
			fillFromRow(&want, &h, false)
			if len(want.Attempts) != len(rec.Attempts) || len(want.Attempts) == 0 {
				t.Fatalf("%d attempts, from the file %d", len(rec.Attempts), len(want.Attempts))
			}
			for k := range want.Attempts {
				if rec.Attempts[k].Text != want.Attempts[k].Text {
					t.Errorf("attempt %d: %d bytes, from the file %d", k, len(rec.Attempts[k].Text), len(want.Attempts[k].Text))
				}
			}
		}
		if p.Omitted == 0 || len(p.JSON)+p.Omitted != len(row) || !bytes.HasPrefix(row, p.JSON) {
			t.Errorf("row %d: kept %d bytes, omitted %d, of %d; want its head", j, len(p.JSON), p.Omitted, len(row))
		}
		whole, err := p.Whole()
		if err != nil || !bytes.Equal(whole, row) {
			t.Errorf("row %d: Whole gave %d bytes (%v), want the row's %d", j, len(whole), err, len(row))
		}
		h, err := parseRow(row)
		if err != nil {
			t.Fatal(err)
		}
		want := filterResult(rec.Filters[j].Filter, int(loc.line), &h, x.s.main)
		if !reflect.DeepEqual(rec.Filters[j], want) {
			t.Errorf("row %d: filter %+v, from the whole row %+v", j, rec.Filters[j], want)
		}
	}
}
