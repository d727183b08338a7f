package lmeval

import (
	"context"
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"
	"time"

	"evalview/loaders/lmevalgen"
)

// TestPreparedDeepMatches: the deep check of an index that prepared it
// while reading (OpenForDeep) reports exactly what the deep check of a
// plain index does, on every fixture and real folder and on a generated
// self-consistency file, where nearly every doc must be prepared.
func TestPreparedDeepMatches(t *testing.T) {
	gen, err := lmevalgen.Generate(lmevalgen.Config{Dir: t.TempDir(), Docs: 300, Repeats: 16})
	if err != nil {
		t.Fatal(err)
	}
	paths := append(leanFolders(t), gen.SamplesPath)
	reports := 0
	for _, path := range paths {
		plain, err := Open(path)
		if err != nil {
			continue
		}
		prepared, err := OpenForDeep(path)
		if err != nil || len(prepared) != len(plain) {
			t.Fatalf("%s: OpenForDeep gave %d datasets (%v), Open %d", path, len(prepared), err, len(plain))
		}
		for d := range plain {
			if plain[d].Deep == nil {
				continue
			}
			want, err1 := plain[d].Deep(context.Background(), nil)
			got, err2 := prepared[d].Deep(context.Background(), nil)
			if (err1 != nil) != (err2 != nil) || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: prepared deep check %+v (%v), plain %+v (%v)", plain[d].Path, got, err2, want, err1)
			}
			reports++
		}
		if path == gen.SamplesPath {
			// A doc is prepared from its first row in the file, whichever
			// worker reaches the claim set first: every doc of plain texts.
			x := prepared[0].Records.(*index)
			n := 0
			for i := 0; i < x.Len(); i++ {
				if _, ok := x.preparedDoc(i); ok {
					n++
				}
			}
			if n != x.Len() {
				t.Fatalf("generated file: %d of %d records prepared", n, x.Len())
			}
		}
	}
	if reports < 5 {
		t.Fatalf("only %d deep reports compared", reports)
	}
}

// TestPreparedDeepCompressed: a compressed file whose docs are all
// prepared gets the plain file's deep report without being streamed a
// second time, and one with mismatches as well.
func TestPreparedDeepCompressed(t *testing.T) {
	for _, dir := range []string{"../../testdata/lmeval/generated_3filters_8repeats", "../../testdata/lmeval/reextract_mismatch"} {
		want := deep(t, openOne(t, dir))
		dss, err := OpenForDeep(gzipCopy(t, dir, nil))
		if err != nil || len(dss) != 1 {
			t.Fatalf("%s: %d datasets, %v", dir, len(dss), err)
		}
		x := dss[0].Records.(*index)
		if !x.allPrepared(x.Len()) { // one block, one worker: every doc is
			t.Errorf("%s: not every doc was prepared: the deep check would stream the file again", dir)
		}
		got := deep(t, dss[0])
		for k := range got.Issues {
			got.Issues[k].File = ""
		}
		for k := range want.Issues {
			want.Issues[k].File = ""
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: compressed, prepared %+v; plain %+v", dir, got, want)
		}
	}
}

// TestPrepareLetsTheRowGo: once prepare returns, nothing it pooled still
// points into the row it read, so the one collection the pipeline forces
// after a line of hundreds of MB frees that line's buffer.
func TestPrepareLetsTheRowGo(t *testing.T) {
	dss, err := OpenForDeep("../../testdata/lmeval/generated_3filters_8repeats")
	if err != nil || len(dss) == 0 {
		t.Fatal(err)
	}
	prep := dss[0].Records.(*index).preparer()
	if prep == nil {
		t.Fatal("no preparer for a generated file")
	}
	freed := make(chan struct{})
	func() {
		buf := make([]byte, 8<<20)
		runtime.SetFinalizer(&buf[0], func(*byte) { close(freed) })
		resps := `[["The answer is 12", "The answer is 13", "#### 5"]]`
		copy(buf, resps)
		h := rowHead{Resps: buf[:len(resps)], Target: []byte(`"12"`)}
		if prep(&h) == nil {
			t.Error("prepare gave nothing for plain texts")
		}
	}()
	debug.FreeOSMemory() // one collection, as the pipeline does
	select {
	case <-freed:
	case <-time.After(2 * time.Second):
		t.Error("the row's buffer outlived prepare: something pooled still points into it")
	}
}

// TestPreparedLongRowMatches: a doc whose row is over bigRow is prepared
// with its texts decoded over the block's own bytes, and its findings are
// the plain deep check's.
func TestPreparedLongRowMatches(t *testing.T) {
	gen, err := lmevalgen.Generate(lmevalgen.Config{Dir: t.TempDir(), Docs: 3, Repeats: 4, LongLine: 3 * bigRow / 2})
	if err != nil {
		t.Fatal(err)
	}
	want := deep(t, openOne(t, gen.SamplesPath))
	dss, err := OpenForDeep(gen.SamplesPath)
	if err != nil || len(dss) != 1 {
		t.Fatalf("%d datasets, %v", len(dss), err)
	}
	x := dss[0].Records.(*index)
	i, ok := x.s.recordOf(strconv.Itoa(gen.LongDoc))
	if !ok {
		t.Fatal("long doc not indexed")
	}
	if x.s.rowsOf(i)[0].size <= uint32(bigRow) {
		t.Fatalf("the long doc's row is %d bytes, not over bigRow", x.s.rowsOf(i)[0].size)
	}
	if _, ok := x.preparedDoc(i); !ok {
		t.Error("the long doc was not prepared")
	}
	if got := deep(t, dss[0]); !reflect.DeepEqual(got, want) {
		t.Errorf("prepared %+v, plain %+v", got, want)
	}
}

// TestClaimEarliestRow: whatever order the parse workers reach the claim
// set in, the doc's earliest row claims it, and a hash signature found
// right is not checked again.
func TestClaimEarliestRow(t *testing.T) {
	var c claimSet
	if first, check := c.claim("7", 30, "sig"); !first || !check {
		t.Fatal("the first row to arrive claims the doc and checks its hashes")
	}
	if first, _ := c.claim("7", 50, "sig"); first {
		t.Error("a later row claimed the doc")
	}
	if first, _ := c.claim("7", 10, "sig"); !first {
		t.Error("the doc's earliest row, arriving last, did not claim it")
	}
	if first, _ := c.claim("7", 20, "sig"); first {
		t.Error("a row after the earliest one claimed the doc")
	}
	c.verified("7", "sig")
	if _, check := c.claim("7", 40, "sig"); check {
		t.Error("hashes found right were checked again")
	}
	if _, check := c.claim("7", 40, "other"); !check {
		t.Error("a row with other hashes was not checked")
	}
	if _, check := c.claim("8", 1, ""); check {
		t.Error("a row without hashes has nothing to check")
	}
}
