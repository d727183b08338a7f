package lmeval

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"evalview/loaders/lmevalgen"
	"evalview/model"
)

// genSamples writes a generated samples file (and its results file) into
// a temporary folder and returns the samples path.
func genSamples(t testing.TB, cfg lmevalgen.Config) string {
	t.Helper()
	cfg.Dir = t.TempDir()
	res, err := lmevalgen.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res.SamplesPath
}

// compress writes path compressed with gzip or zstd next to it (beside a
// copy of its results file, in a folder of its own) and returns the path.
func compress(t testing.TB, path, kind string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), filepath.Base(path)+"."+kind)
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	switch kind {
	case "gz":
		w := kgzip.NewWriter(f)
		w.Write(data)
		w.Close()
	case "zst":
		w, _ := zstd.NewWriter(f)
		w.Write(data)
		w.Close()
	}
	return out
}

// snapshot is what a dataset shows, for comparing two ways of opening it.
type snapshot struct {
	Filters []string
	Main    string
	Sums    []model.Summary
	Titles  []string
	Answers [][]string
}

func snap(t *testing.T, ds *model.Dataset) snapshot {
	t.Helper()
	s := snapshot{Filters: ds.Filters, Main: ds.MainMetric}
	for i := 0; i < ds.Records.Len(); i++ {
		s.Sums = append(s.Sums, ds.Records.Summary(i))
		rec, err := ds.Records.Record(i)
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		s.Titles = append(s.Titles, rec.Title)
		var ans []string
		for _, f := range rec.Filters {
			ans = append(ans, f.Filter+"="+f.Answer)
		}
		for _, a := range rec.Attempts {
			ans = append(ans, a.Text)
		}
		s.Answers = append(s.Answers, ans)
	}
	return s
}

// TestCompressedSamplesStream opens .jsonl.gz and .jsonl.zst and gets the
// same dataset as from the plain file, records included (read back by
// re-streaming, in and out of order).
func TestCompressedSamplesStream(t *testing.T) {
	plain := genSamples(t, lmevalgen.Config{Docs: 40, Repeats: 4, Filters: []string{"score-first", "maj@4", "strict-match"}})
	want := openSingle(t, plain)
	ws := snap(t, want)
	if len(ws.Sums) != 40 || len(ws.Filters) != 3 {
		t.Fatalf("plain file: %d records, filters %v", len(ws.Sums), ws.Filters)
	}
	for _, kind := range []string{"gz", "zst"} {
		t.Run(kind, func(t *testing.T) {
			p := compress(t, plain, kind)
			got := openSingle(t, p)
			if got.Task != want.Task {
				t.Errorf("task %q, want %q", got.Task, want.Task)
			}
			if !reflect.DeepEqual(snap(t, got), ws) {
				t.Error("compressed file differs from the plain one")
			}
			// Backwards and scattered reads restart or reuse cursors.
			for _, i := range []int{39, 0, 20, 19, 39, 5} {
				rec, err := got.Records.Record(i)
				if err != nil || rec.ID != strconv.Itoa(i) || len(rec.Filters) != 3 {
					t.Fatalf("record %d: %v %+v", i, err, rec)
				}
			}
		})
	}
}

func openSingle(t *testing.T, path string) *model.Dataset {
	t.Helper()
	ds, err := Open(path)
	if err != nil || len(ds) != 1 {
		t.Fatalf("open %s: %d datasets, %v", path, len(ds), err)
	}
	return ds[0]
}

// TestBackgroundMatchesWaiting: the background index ends with what the
// waiting one has, and reads while it grows are safe (run with -race).
func TestBackgroundMatchesWaiting(t *testing.T) {
	path := genSamples(t, lmevalgen.Config{Docs: 300, Repeats: 2, Filters: []string{"score-first", "maj@2"}})
	want := snap(t, openSingle(t, path))
	ds, err := OpenBackground(path)
	if err != nil || len(ds) != 1 {
		t.Fatal(err)
	}
	d := ds[0]
	x := d.Records.(*index)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		// A reader racing the scan, as the browser does.
		defer wg.Done()
		for !d.Records.Done() {
			if n := d.Records.Len(); n > 0 {
				s := d.Records.Summary(n - 1)
				_ = s.Outcome(1)
				if _, err := d.Records.Record(n - 1); err != nil {
					t.Error(err)
					return
				}
			}
		}
	}()
	if err := x.Wait(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	x.SyncDataset(d) // may have happened in OpenBackground already
	if x.SyncDataset(d) {
		t.Error("a second sync must change nothing")
	}
	if got := snap(t, d); !reflect.DeepEqual(got, want) {
		t.Errorf("background index differs: %d vs %d records, filters %v vs %v", len(got.Sums), len(want.Sums), got.Filters, want.Filters)
	}
}

// TestLinesAcrossBlocks: rows longer than a read block, CRLF, a BOM,
// blank lines and a last line without newline keep their line numbers
// and bytes.
func TestLinesAcrossBlocks(t *testing.T) {
	long := strings.Repeat("x", blockSize+123)
	row := func(id int, text string) string {
		return `{"doc_id": ` + strconv.Itoa(id) + `, "doc": {"question": "q` + strconv.Itoa(id) + `"}, "target": "1", "arguments": {"gen_args_0": {"arg_0": "p", "arg_1": {}}}, "resps": [["` + text + `"]], "filtered_resps": ["1"], "filter": "none", "metrics": ["exact_match"], "exact_match": 1.0}`
	}
	data := "\xef\xbb\xbf" + row(0, "a") + "\r\n\n" + row(1, long) + "\n" + row(2, "b") + "\n  \n" + row(3, long+long) + "\n" + row(4, "end")
	p := filepath.Join(t.TempDir(), "samples_t_2025-01-01T00-00-00.jsonl")
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	d := openSingle(t, p)
	wantLines := []int{1, 3, 4, 6, 7}
	if d.Records.Len() != 5 {
		t.Fatalf("%d records, want 5; issues %v", d.Records.Len(), d.Issues)
	}
	for i, line := range wantLines {
		rec, err := d.Records.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Line != line || rec.Raw[0].Line != line {
			t.Errorf("record %d on line %d (raw %d), want %d", i, rec.Line, rec.Raw[0].Line, line)
		}
		if len(rec.Attempts) != 1 || (i == 1 && rec.Attempts[0].Text != long) || (i == 3 && len(rec.Attempts[0].Text) != 2*len(long)) {
			t.Errorf("record %d: attempt of %d bytes", i, len(rec.Attempts[0].Text))
		}
	}
	for _, is := range d.Issues {
		if is.Severity == model.SeverityError {
			t.Errorf("unexpected issue %s", is)
		}
	}
}

// TestSearchRaw: hits come once each, whatever the rows' order in the
// file (filter-major here); plain text finds JSON-escaped source; case
// folding; cancellation.
func TestSearchRaw(t *testing.T) {
	row := func(id int, filter, resp string) string {
		return `{"doc_id": ` + strconv.Itoa(id) + `, "doc": {"question": "q"}, "target": "1", "arguments": {"gen_args_0": {"arg_0": "p", "arg_1": {}}}, "resps": [["` + resp + `"]], "filtered_resps": ["1"], "filter": "` + filter + `", "metrics": ["exact_match"], "exact_match": 1.0}` + "\n"
	}
	var b strings.Builder
	resps := []string{`say \"hi\"`, `plain`, `line one\nline two`, `caf\u00e9 au lait`, `Café Noir`, `back\\slash`}
	for _, f := range []string{"a", "b"} { // filter-major, as the harness writes
		for i, r := range resps {
			if f == "b" && i == 1 {
				r = "MARKER only in b"
			}
			b.WriteString(row(i, f, r))
		}
	}
	p := filepath.Join(t.TempDir(), "samples_s_2025-01-01T00-00-00.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	x := openSingle(t, p).Records.(model.RawSearcher)
	cases := []struct {
		needle string
		fold   bool
		want   []int
	}{
		{`say "hi"`, false, []int{0}},
		{"one\nline", false, []int{2}},
		{"café", false, []int{3}},
		{"Café", false, []int{4}},
		{"café", true, []int{3, 4}},
		{"CAFÉ", true, nil}, // folding is ASCII-only
		{"café noir", true, []int{4}},
		{`back\slash`, false, []int{5}},
		{"marker", true, []int{1}},
		{"marker", false, nil},
		{`"doc_id"`, false, []int{0, 1, 2, 3, 4, 5}},
		{"no such text", false, nil},
	}
	for _, c := range cases {
		var got []int
		if err := x.SearchRaw(context.Background(), c.needle, c.fold, func(r int) { got = append(got, r) }); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("search %q fold=%v: %v, want %v", c.needle, c.fold, got, c.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := x.SearchRaw(ctx, "q", false, func(int) {}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search: %v", err)
	}
}
