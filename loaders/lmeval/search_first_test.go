package lmeval

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"evalview/model"
)

// TestSearchRawShortFirstRead: the raw search's first read is short (a
// first hit shows without reading 8 MB first); wherever it ends, inside
// a needle or between spellings of it, the hits are those of one read.
func TestSearchRawShortFirstRead(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		resp := "filler " + strings.Repeat("x", i*7)
		if i%3 == 1 {
			resp += " The Answer is " + strconv.Itoa(i)
		}
		if i%5 == 2 {
			resp += ` caf\u00e9 "quoted"`
		}
		b.WriteString(`{"doc_id": ` + strconv.Itoa(i) + `, "doc": {"question": "q"}, "target": "1", "arguments": {"gen_args_0": {"arg_0": "p", "arg_1": {}}}, "resps": [["` + resp + `"]], "filtered_resps": ["1"], "filter": "none", "metrics": ["exact_match"], "exact_match": 1.0}` + "\n")
	}
	p := filepath.Join(t.TempDir(), "samples_s_2025-01-01T00-00-00.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	x := openSingle(t, p).Records.(model.RawSearcher)
	search := func(needle string, fold bool) []int {
		var got []int
		if err := x.SearchRaw(context.Background(), needle, fold, func(r int) { got = append(got, r) }); err != nil {
			t.Fatal(err)
		}
		return got
	}
	needles := []struct {
		s    string
		fold bool
	}{{"the answer is", true}, {"The Answer", false}, {"café", false}, {`"quoted"`, false}, {"doc_id", false}}
	var want [][]int
	for _, n := range needles {
		want = append(want, search(n.s, n.fold))
		if len(want[len(want)-1]) == 0 {
			t.Fatalf("%q: no hits to compare", n.s)
		}
	}
	defer func(v int) { searchFirst = v }(searchFirst)
	for first := 1; first <= b.Len()+1; first += 13 {
		searchFirst = first
		for i, n := range needles {
			if got := search(n.s, n.fold); !reflect.DeepEqual(got, want[i]) {
				t.Fatalf("first read of %d bytes: %q found %v, want %v", first, n.s, got, want[i])
			}
		}
	}
}
