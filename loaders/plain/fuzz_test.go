package plain

import (
	"os"
	"path/filepath"
	"testing"

	"evalview/internal/hostile"
)

// FuzzOpen opens arbitrary bytes as a plain JSON Lines file with the
// summaries kept, built again (lean), and built from lines walked as a
// stream (every line past 16 bytes long): never a panic, the same records
// in each, and every record's summary what reading it gives.
func FuzzOpen(f *testing.F) {
	for _, name := range []string{"quiz_log.jsonl", "broken.jsonl"} {
		if b, err := os.ReadFile(filepath.Join(fixtures, name)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("{\"id\": 1, \"a\": \"x\\u00e9\\n\"}\n\n{\"id\": 1}\r\n[1, 2]\n{\"a\": tru}\n\"s\"\n{\"id\": \"a\", \"id\": \"b\"}"))
	f.Add([]byte("\xef\xbb\xbf{\"t\": \"" + string(make([]byte, 40)) + "\"}\n{}"))
	dir := hostile.FuzzDir(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "f.jsonl")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Skip()
		}
		defer func(b int64, l int) { keepBudget, longLine = b, l }(keepBudget, longLine)
		var ids []string
		for mode, m := range []struct {
			budget int64
			long   int
		}{{keepBudget, longLine}, {0, longLine}, {0, 16}} {
			keepBudget, longLine = m.budget, m.long
			dss, err := Open(p)
			if err != nil || len(dss) != 1 {
				return
			}
			x := dss[0].Records
			if mode == 0 {
				for i := 0; i < x.Len(); i++ {
					ids = append(ids, x.Summary(i).ID)
				}
			} else if m.long == longLine && x.Len() != len(ids) {
				t.Fatalf("lean: %d records, kept: %d", x.Len(), len(ids))
			}
			for i := 0; i < x.Len(); i++ {
				s := x.Summary(i)
				if m.long == longLine && s.ID != ids[i] {
					t.Fatalf("mode %d: record %d is %q, kept %q", mode, i, s.ID, ids[i])
				}
				r, err := x.Record(i)
				if err != nil {
					t.Fatalf("mode %d: record %d: %v", mode, i, err)
				}
				if r.ID != s.ID || r.Line != s.Line || r.Title != s.Title || r.Warnings != s.Warnings {
					t.Fatalf("mode %d: record %d: %q line %d %q, summary %q line %d %q", mode, i, r.ID, r.Line, r.Title, s.ID, s.Line, s.Title)
				}
			}
		}
	})
}

// FuzzDocument opens a random document of records (generated from the
// fuzzer's bytes) and the bytes themselves as a JSON document, read whole
// and streamed in every mode (bothPaths): never a panic, and the same
// records and issues each way.
func FuzzDocument(f *testing.F) {
	for _, d := range documents {
		f.Add([]byte(d))
	}
	dir := hostile.FuzzDir(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var seed uint64
		for _, c := range data {
			seed = seed*131 + uint64(c)
		}
		for i, doc := range [][]byte{genDocument(seed), data} {
			if !isDocument(doc[:min(len(doc), 64<<10)], int64(len(doc))) {
				continue
			}
			p := filepath.Join(dir, "d"+string(rune('0'+i))+".json")
			if err := os.WriteFile(p, doc, 0o644); err != nil {
				t.Skip()
			}
			bothPaths(t, p)
		}
	})
}
