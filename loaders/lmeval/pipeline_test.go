package lmeval

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"evalview/loaders/jsonl"
)

// TestCutLinesMatchesScanLines cuts random data of short and block-sized
// lines, blank lines, CRLF and a missing final newline, and compares every
// line's number, offset and bytes with jsonl.ScanLines.
func TestCutLinesMatchesScanLines(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		var data bytes.Buffer
		for data.Len() < 5*blockSize {
			switch n := rng.IntN(10); {
			case n == 0:
				data.WriteString("\n")
			case n == 1:
				data.Write(bytes.Repeat([]byte{'L'}, blockSize/2+rng.IntN(blockSize*2)))
				data.WriteString("\r\n")
			default:
				data.Write(bytes.Repeat([]byte{'a' + byte(n)}, 1+rng.IntN(5000)))
				data.WriteString("\n")
			}
		}
		if seed%2 == 0 {
			data.WriteString("last line without newline")
		}
		type line struct {
			n   int
			off int64
			sum string
		}
		key := func(b []byte) string { return string(b[:min(len(b), 8)]) + string(rune(len(b))) }
		var want, got []line
		_ = jsonl.ScanLines(bytes.NewReader(data.Bytes()), func(l jsonl.Line) error {
			if !jsonl.IsBlank(l.Data) {
				want = append(want, line{l.N, l.Offset, key(l.Data)})
			}
			return nil
		})
		// Without a ReaderAt a long line's block doubles; with one, it is
		// sized to the line found ahead: both cut the same lines.
		for _, ra := range []io.ReaderAt{nil, bytes.NewReader(data.Bytes())} {
			got = got[:0]
			err := cutLines(bytes.NewReader(data.Bytes()), ra, nil, func(b *batch) {
				for i, loc := range b.locs {
					got = append(got, line{int(loc.line), loc.off, key(b.buf[b.spans[i][0]:b.spans[i][1]])})
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("seed %d (ReaderAt %v): %d lines, want %d", seed, ra != nil, len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("seed %d (ReaderAt %v): line %d is %+v, want %+v", seed, ra != nil, i, got[i], want[i])
				}
			}
		}
	}
}

// endlessRows is a samples stream that never ends.
type endlessRows struct{ n int }

func (e *endlessRows) Read(p []byte) (int, error) {
	row := fmt.Sprintf(`{"doc_id": %d, "doc": {}, "target": "1", "resps": [["1"]], "filtered_resps": ["1"], "filter": "none", "exact_match": 1.0}`+"\n", e.n)
	e.n++
	return copy(p, row), nil // a short read is fine for io.Reader
}

// TestStopEndsScan: Stop ends a scan that would otherwise read forever (a
// reload's old index), and the index keeps what it read.
func TestStopEndsScan(t *testing.T) {
	s := newScanned("endless.jsonl", nil)
	done := make(chan error, 1)
	go func() { done <- s.scan(&endlessRows{}) }()
	for s.indexed.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	x := &index{s: s}
	x.Stop()
	select {
	case err := <-done:
		if !errors.Is(err, errStopped) {
			t.Fatalf("scan ended with %v, want errStopped", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Stop did not end the scan")
	}
	if x.Len() == 0 {
		t.Error("the stopped index kept no records")
	}
}

// TestHugeLinesOneAtATime: lines longer than hugeBlock, back to back, are
// each cut into a block marked huge, holding the pipeline's one slot, and
// a whole scan of them ends (the slot is always given back, even when a
// huge buffer held only blank lines) with every row indexed.
func TestHugeLinesOneAtATime(t *testing.T) {
	defer func(old int) { hugeBlock = old }(hugeBlock)
	hugeBlock = 2 << 20
	row := func(id int, n int) string {
		return fmt.Sprintf(`{"doc_id": %d, "doc": {}, "target": "1", "resps": [["%s"]], "filtered_resps": ["1"], "filter": "none", "exact_match": 1.0}`, id, strings.Repeat("x", n))
	}
	var data bytes.Buffer
	for id, n := range []int{10, 3 << 20, 3 << 20, 20, 5 << 20, 30} {
		data.WriteString(row(id, n) + "\n")
	}
	// A huge line of blanks, then a block's worth of empty lines: the
	// huge buffer holds no row, and its slot goes to the next block.
	data.WriteString(strings.Repeat(" ", 3<<20) + "\n" + strings.Repeat("\n", 1<<20+100))
	data.WriteString(row(6, 10) + "\n" + row(7, 3<<20) + "\n" + row(8, 10) + "\n")
	for _, ra := range []io.ReaderAt{nil, bytes.NewReader(data.Bytes())} {
		huge := make(chan struct{}, 1)
		marked, lines := 0, 0
		err := cutLines(bytes.NewReader(data.Bytes()), ra, huge, func(b *batch) {
			lines += len(b.locs)
			if b.huge {
				marked++
				if len(huge) != 1 {
					t.Error("a block marked huge does not hold the slot")
				}
				<-huge // indexed: the slot is free again
			}
		})
		// Exact sizing (ra) takes the slot for each huge line, the blank
		// one included; doubling (a compressed stream) takes none.
		want := map[bool]int{true: 5, false: 0}[ra != nil]
		if err != nil || lines != 9 || marked != want {
			t.Errorf("ReaderAt %v: %d lines, %d huge blocks (%v); want 9 and %d", ra != nil, lines, marked, err, want)
		}
	}
	path := filepath.Join(t.TempDir(), "samples_x.jsonl")
	os.WriteFile(path, data.Bytes(), 0o644)
	done := make(chan error, 1)
	var s *scanned
	go func() {
		var err error
		s, err = scanSamples(path)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil || s.count() != 9 {
			t.Fatalf("scan: %v, %d records; want 9", err, s.count())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the scan of back-to-back huge lines never ended")
	}
}
