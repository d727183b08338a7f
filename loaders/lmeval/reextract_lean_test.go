package lmeval

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// leanFolders are the lm-eval folders the lean deep path is checked on:
// every fixture and, when present, every real folder.
func leanFolders(t *testing.T) []string {
	dirs, _ := filepath.Glob("../../testdata/lmeval/*")
	if root, err := filepath.Abs("../../../shared/data/lm_eval"); err == nil {
		if _, err := os.Stat(root); err == nil {
			_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				if err == nil && d.IsDir() && p != root {
					dirs = append(dirs, p)
				}
				return nil
			})
		}
	}
	return dirs
}

// haveShared reports whether the real artifacts in ../shared are beside
// the repository; tests that count what they compared expect more then.
func haveShared() bool {
	_, err := os.Stat("../../../shared/data/lm_eval")
	return err == nil
}

// TestDeepDocMatchesRecord: the deep check's lean path (leanRecord, then
// counting each run) finds the same mismatches, right repeats per filter,
// repeat count and defaults as re-extracting the full Record, on every
// fixture and real record; and the lean record's texts, target and
// filter answers are the full record's.
func TestDeepDocMatchesRecord(t *testing.T) {
	compared := 0
	for _, dir := range leanFolders(t) {
		full, err := Open(dir)
		if err != nil {
			continue // folders without samples, LFS pointers
		}
		lean, _ := Open(dir)
		for d, ds := range full {
			x, ok := ds.Records.(*index)
			if !ok {
				continue
			}
			y := lean[d].Records.(*index)
			rd := y.newDeepReader()
			defer rd.Close()
			for i := 0; i < x.Len(); i++ {
				want, err1 := x.deepDocFull(i)
				got, err2 := y.deepDoc(rd, i, nil)
				if (err1 != nil) != (err2 != nil) {
					t.Fatalf("%s record %d: full error %v, lean error %v", ds.Path, i, err1, err2)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s record %d: lean %+v, full %+v", ds.Path, i, got, want)
				}
				r, err := x.Record(i)
				if err != nil {
					continue
				}
				l, texts, ok := y.leanRecord(rd, i, nil)
				if !ok {
					continue
				}
				if l.Target != r.Target || len(texts) != len(r.Attempts) || len(l.Filters) != len(r.Filters) {
					t.Fatalf("%s record %d: lean target %q, %d texts, %d filters; full %q %d %d", ds.Path, i, l.Target, len(texts), len(l.Filters), r.Target, len(r.Attempts), len(r.Filters))
				}
				for k := range texts {
					if texts[k] != r.Attempts[k].Text {
						t.Errorf("%s record %d attempt %d: lean %q, full %q", ds.Path, i, k, texts[k], r.Attempts[k].Text)
					}
				}
				for k := range l.Filters {
					lf, rf := l.Filters[k], r.Filters[k]
					if lf.Filter != rf.Filter || lf.Line != rf.Line || lf.Answer != rf.Answer || !reflect.DeepEqual(lf.Answers, rf.Answers) {
						t.Errorf("%s record %d filter %d: lean %+v, full %+v", ds.Path, i, k, l.Filters[k], r.Filters[k])
					}
				}
				compared++
			}
		}
	}
	// The fixtures alone hold 30 records; with the real data, well over 50.
	if want := map[bool]int{true: 50, false: 20}[haveShared()]; compared < want {
		t.Fatalf("only %d records compared", compared)
	}
}

// TestDecodeStringMatchesJSON: decodeString decodes exactly what
// encoding/json does, and refuses what it refuses.
func TestDecodeStringMatchesJSON(t *testing.T) {
	cases := []string{
		`""`, `"plain"`, `"a\nb\tc\"d\\e\/f\bg\fh\ri"`, `"\u00e9\u4e2d\u0000"`, `"\ud83d\ude00"`, `"\ud83d"`,
		`"\ude00x"`, `"\uZZZZ"`, `"\u12"`, `"\q"`, "\"raw\x01control\"", "\"tab\tinside\"", "\"bad \xff utf8\"",
		"\"bad \xff\\n utf8\"", `"trailing\"`, `"é 中 😀"`, `"\\"`, `"x\u2028y"`, `"`, `x`, `"a"b"`,
	}
	rng := rand.New(rand.NewPCG(3, 5))
	pieces := []string{`\n`, `\"`, `\\`, `\u0041`, `\ud800`, `\udc00`, "é", "\xff", "\x1f", "a", " ", `\t`, `\/`, `\x`}
	for range 2000 {
		s := `"`
		for k := rng.IntN(8); k > 0; k-- {
			s += pieces[rng.IntN(len(pieces))]
		}
		cases = append(cases, s+`"`)
	}
	for _, c := range cases {
		var want string
		wantErr := json.Unmarshal([]byte(c), &want)
		got, ok := decodeString([]byte(c))
		if ok != (wantErr == nil) || ok && got != want {
			t.Errorf("decodeString(%q) = %q, %v; encoding/json %q, %v", c, got, ok, want, wantErr)
		}
	}
}

// TestRepeatTextsFallsBack: resps fillFromRow reads differently (values
// that are not strings, possible log-likelihood pairs, bad JSON) are left
// to it.
func TestRepeatTextsFallsBack(t *testing.T) {
	cases := []struct {
		resps string
		lean  bool
		texts []string
	}{
		{`[["a", "b", "c"]]`, true, []string{"a", "b", "c"}},
		{`["a", ["b"]]`, true, []string{"a", "b"}},
		{`[]`, true, nil},
		{`[["-0.5", "True"]]`, false, nil},
		{`[["a", "b"], ["c"]]`, true, []string{"a", "b", "c"}},
		{`[[1, "b"]]`, false, nil},
		{`[null]`, false, nil},
		{`[["a",]]`, false, nil},
		{`[["a" "b"]]`, false, nil},
		{`{"a": 1}`, false, nil},
		{``, false, nil},
	}
	for _, c := range cases {
		got, ok := repeatTexts(nil, []byte(c.resps))
		if ok != c.lean {
			t.Errorf("%s: lean %v, want %v", c.resps, ok, c.lean)
			continue
		}
		if !ok {
			continue
		}
		var texts []string
		for _, v := range got {
			texts = append(texts, v.(string))
		}
		if !reflect.DeepEqual(texts, c.texts) {
			t.Errorf("%s: texts %q, want %q", c.resps, texts, c.texts)
		}
	}
}
