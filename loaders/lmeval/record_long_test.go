package lmeval

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
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
	i, ok := x.s.recordOf(strconv.Itoa(res.LongDoc))
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
		loc := x.s.rowsOf(i)[j]
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
		want := filterResult(rec.Filters[j].Filter, int(loc.line), &h, x.s.main, x.s.mainScoreOnly, x.s.known)
		if !reflect.DeepEqual(rec.Filters[j], want) {
			t.Errorf("row %d: filter %+v, from the whole row %+v", j, rec.Filters[j], want)
		}
	}
}

// TestLongRowKeepsItsDocForMultiChoice: multi_choice_regex reads the doc's
// choices; for a row over bigRow whose doc reaches past the head the Raw
// tab keeps, Record still hands the whole doc to re-extraction.
func TestLongRowKeepsItsDocForMultiChoice(t *testing.T) {
	dir := t.TempDir()
	stamp := "2025-01-01T00-00-00.000000"
	results := `{"results": {"mc": {"alias": "mc", "exact_match,mc": 1.0}}, "configs": {"mc": {"task": "mc", "output_type": "generate_until",
 "filter_list": [{"name": "mc", "filter": [{"function": "multi_choice_regex", "regex_pattern": "(\\([A-B]\\))"}, {"function": "take_first"}]}],
 "metric_list": [{"metric": "exact_match"}]}}, "lm_eval_version": "0.4.9.1"}`
	doc := fmt.Sprintf(`{"context": %q, "choices": ["apples", "pears"]}`, strings.Repeat("c", 2*rawHead))
	resp := strings.Repeat("thinking. ", bigRow/10) + "so it must be pears"
	row := fmt.Sprintf(`{"doc_id": 0, "doc": %s, "target": "(B)", "arguments": {"gen_args_0": {"arg_0": "Q?", "arg_1": {}}}, "resps": [[%q]], "filtered_resps": ["(B)"], "filter": "mc", "metrics": ["exact_match"], "exact_match": 1.0}`, doc, resp)
	os.WriteFile(filepath.Join(dir, "results_"+stamp+".json"), []byte(results), 0o644)
	os.WriteFile(filepath.Join(dir, "samples_mc_"+stamp+".jsonl"), []byte(row+"\n"), 0o644)
	dss, err := Open(dir)
	if err != nil || len(dss) != 1 {
		t.Fatalf("open: %d datasets, %v", len(dss), err)
	}
	rec, err := dss[0].Records.Record(0)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Raw[0].Omitted == 0 {
		t.Fatal("the long row was kept whole: the test does not test the head-only case")
	}
	if len(rec.Attempts) != 1 || len(rec.Attempts[0].Extractions) != 1 {
		t.Fatalf("attempts %d, extractions %+v", len(rec.Attempts), rec.Attempts)
	}
	if e := rec.Attempts[0].Extractions[0]; e.Answer != "(B)" {
		t.Errorf("multi_choice_regex re-extracted %q (note %q), want (B) from the doc's choices", e.Answer, e.Note)
	}
}
