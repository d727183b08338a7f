// Package jsonl reads line-based JSON files of any size for the format
// loaders: line numbers, offsets, byte-order marks, CRLF, a missing final
// newline.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"

	"evalview/model"
)

// Line is one line of a line-based file.
type Line struct {
	// N is the 1-based line number.
	N int
	// Offset is the byte offset of the line's first byte in the file.
	Offset int64
	// Data is the line without its line end (LF or CRLF) and, on line 1,
	// without a UTF-8 byte-order mark. It is only valid during the callback.
	Data []byte
	// NoNewline is true for a last line that lacks its final newline.
	NoNewline bool
	// BOM is true on line 1 when a byte-order mark was stripped from it.
	BOM bool
	// CRLF is true when the line ended in CR LF (the CR is stripped).
	CRLF bool
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// lineReaders holds ScanLines' 1 MB readers: a folder of 100,000 small
// files would otherwise allocate 100 GB of them.
var lineReaders sync.Pool

// ScanLines calls fn for every line of r, however long. It strips a
// leading byte-order mark and CR before LF. It stops at the first error fn
// returns and passes it on.
func ScanLines(r io.Reader, fn func(Line) error) error {
	br, _ := lineReaders.Get().(*bufio.Reader)
	if br == nil {
		br = bufio.NewReaderSize(r, 1<<20)
	} else {
		br.Reset(r)
	}
	defer func() {
		br.Reset(nil)
		lineReaders.Put(br)
	}()
	var (
		n      int
		offset int64
		long   []byte
	)
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, chunk...)
			continue
		}
		data := chunk
		if len(long) > 0 {
			long = append(long, chunk...)
			data = long
		}
		if err != nil && !errors.Is(err, io.EOF) {
			// A read that failed (a remote server gone mid-file): what came
			// before the failure is no line of the file, and is not passed.
			return err
		}
		if len(data) == 0 && err != nil {
			return nil
		}
		n++
		size := int64(len(data))
		l := Line{N: n, Offset: offset}
		if n == 1 && bytes.HasPrefix(data, bom) {
			data = data[len(bom):]
			l.Offset += int64(len(bom))
			l.BOM = true
		}
		if bytes.HasSuffix(data, []byte{'\n'}) {
			data = data[:len(data)-1]
		} else {
			l.NoNewline = true
		}
		if len(data) > 0 && data[len(data)-1] == '\r' {
			data = data[:len(data)-1]
			l.CRLF = !l.NoNewline
		}
		l.Data = data
		if ferr := fn(l); ferr != nil {
			return ferr
		}
		offset += size
		long = long[:0]
		if cap(long) > 64<<20 {
			long = nil // don't pin a huge buffer after one giant line
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// IsBlank reports whether a line holds only white space.
func IsBlank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// IsLFSPointer reports whether head (a file's first bytes) is a Git LFS
// pointer file rather than the data it points to.
func IsLFSPointer(head []byte) bool {
	return bytes.HasPrefix(head, []byte("version https://git-lfs.github.com/spec/"))
}

// LFSIssue is the issue every loader reports for a Git LFS pointer.
func LFSIssue(path string) model.Issue {
	return model.Errorf("lfs-pointer", path, 1, "", "Git LFS pointer, not data: run git lfs pull")
}
