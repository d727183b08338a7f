package jsonl

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzScanLines checks ScanLines against the bytes it reads: numbers run
// 1, 2, 3..., every line's Data is the input at its Offset, line ends (LF,
// CRLF) and a leading byte-order mark are all that is dropped, and a slow
// reader gives the same lines. Seeds are the repository's JSONL fixtures.
func FuzzScanLines(f *testing.F) {
	_ = filepath.WalkDir(filepath.Join("..", "..", "testdata"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
				f.Add(b)
			}
		}
		return nil
	})
	for _, s := range []string{"", "\n", "\r\n", "a", "a\r", "\xef\xbb\xbf{}\r\n{}", "\xef\xbb", "a\n\n\nb", "\x00\n\r\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		type got struct {
			n      int
			off    int64
			data   string
			noNewl bool
		}
		scan := func(slow bool) []got {
			var out []got
			r := bytes.NewReader(data)
			var err error
			fn := func(l Line) error {
				out = append(out, got{l.N, l.Offset, string(l.Data), l.NoNewline})
				return nil
			}
			if slow {
				err = ScanLines(iotest.OneByteReader(r), fn)
			} else {
				err = ScanLines(r, fn)
			}
			if err != nil {
				t.Fatalf("ScanLines: %v", err)
			}
			return out
		}
		lines := scan(false)
		want := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			want++
		}
		if len(lines) != want {
			t.Fatalf("%d lines, want %d", len(lines), want)
		}
		for i, l := range lines {
			if l.n != i+1 {
				t.Fatalf("line %d numbered %d", i+1, l.n)
			}
			if l.off < 0 || l.off+int64(len(l.data)) > int64(len(data)) || string(data[l.off:l.off+int64(len(l.data))]) != l.data {
				t.Fatalf("line %d: Data %q is not the input at offset %d", l.n, l.data, l.off)
			}
			rest := data[l.off+int64(len(l.data)):]
			switch {
			case l.noNewl && (len(rest) > 1 || (len(rest) == 1 && rest[0] != '\r')):
				t.Fatalf("line %d: NoNewline but %q follows", l.n, rest)
			case !l.noNewl && !bytes.HasPrefix(rest, []byte("\n")) && !bytes.HasPrefix(rest, []byte("\r\n")):
				t.Fatalf("line %d: %q follows instead of a line end", l.n, rest[:min(len(rest), 4)])
			}
			if l.noNewl != (i == len(lines)-1 && data[len(data)-1] != '\n') {
				t.Fatalf("line %d: NoNewline %v", l.n, l.noNewl)
			}
		}
		slow := scan(true)
		if len(slow) != len(lines) {
			t.Fatalf("a one-byte reader gives %d lines, not %d", len(slow), len(lines))
		}
		for i := range slow {
			if slow[i] != lines[i] {
				t.Fatalf("line %d differs with a one-byte reader: %+v vs %+v", i+1, slow[i], lines[i])
			}
		}
	})
}

// FuzzScanLinesMax checks ScanLinesMax against ScanLines: the same lines,
// numbers, offsets and line ends, a line longer than the limit cut to its
// first bytes with its whole size, at every limit and with a one-byte
// reader (which cuts lines at chunk boundaries of its own).
func FuzzScanLinesMax(f *testing.F) {
	for _, s := range []string{"", "abcdef\n", "abc\r\nabcdefgh\r\n", "\xef\xbb\xbfabcdefgh\r\nx", "abcdefgh\r", "ab\n\ncdefghijkl", "abcde\r\r\n"} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, limit uint8) {
		var whole []Line
		ScanLines(bytes.NewReader(data), func(l Line) error {
			l.Data = bytes.Clone(l.Data)
			whole = append(whole, l)
			return nil
		})
		for _, slow := range []bool{false, true} {
			var r io.Reader = bytes.NewReader(data)
			if slow {
				r = iotest.OneByteReader(r)
			}
			var i int
			ScanLinesMax(r, int(limit), func(l Line) error {
				if i >= len(whole) {
					t.Fatalf("line %d past the %d lines", l.N, len(whole))
				}
				w := whole[i]
				i++
				if l.N != w.N || l.Offset != w.Offset || l.NoNewline != w.NoNewline || l.BOM != w.BOM || l.Size != int64(len(w.Data)) {
					t.Fatalf("line %d: %+v, want %+v (size %d)", l.N, l, w, len(w.Data))
				}
				if l.Cut != (limit > 0 && len(l.Data) < len(w.Data)) || !bytes.HasPrefix(w.Data, l.Data) {
					t.Fatalf("line %d: cut %v, data %q of %q", l.N, l.Cut, l.Data, w.Data)
				}
				if limit > 0 && len(l.Data) > int(limit) {
					t.Fatalf("line %d: %d bytes kept past the limit %d", l.N, len(l.Data), limit)
				}
				if !l.Cut && l.CRLF != w.CRLF {
					t.Fatalf("line %d: CRLF %v, want %v", l.N, l.CRLF, w.CRLF)
				}
				return nil
			})
			if i != len(whole) {
				t.Fatalf("%d lines, want %d", i, len(whole))
			}
		}
	})
}
