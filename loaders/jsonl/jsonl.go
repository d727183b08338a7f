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

	"evalview/loaders/internal/zipsafe"
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
	// Cut is true when the line is longer than ScanLinesMax's max: Data
	// is then its first max bytes only (a BOM stripped, the line end not),
	// and Size its length.
	Cut  bool
	Size int64
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// lineReaders holds ScanLines' 1 MB readers: a folder of 100,000 small
// files would otherwise allocate 100 GB of them.
var lineReaders sync.Pool

// ScanLines calls fn for every line of r, however long. It strips a
// leading byte-order mark and CR before LF. It stops at the first error fn
// returns and passes it on.
func ScanLines(r io.Reader, fn func(Line) error) error { return ScanLinesMax(r, 0, fn) }

// ScanLinesMax is ScanLines holding at most max bytes of a line (0: no
// limit): a longer line is handed to fn cut (Line.Cut) with its first max
// bytes, the rest read past and not kept, so that a 2 GB line costs max
// bytes, not the 6 GB that holding it while it grew took. Its Size is its
// whole length, its line end (and a CR before it) left out.
func ScanLinesMax(r io.Reader, limit int, fn func(Line) error) error {
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
		// past counts the bytes of a line read past what long keeps
		// (limit, and a BOM); ends holds the line's last two bytes.
		past int64
		ends [2]byte
	)
	see := func(b []byte) { // keeps the last two bytes seen in ends
		switch len(b) {
		case 0:
		case 1:
			ends = [2]byte{ends[1], b[0]}
		default:
			ends = [2]byte{b[len(b)-2], b[len(b)-1]}
		}
	}
	room := func() int { // what long may still keep of a line
		if limit <= 0 {
			return -1
		}
		bomRoom := 0
		if n == 0 {
			bomRoom = len(bom) // line 1 may start with one, which is not kept
		}
		return max(limit+bomRoom-len(long), 0)
	}
	for {
		chunk, err := br.ReadSlice('\n')
		see(chunk)
		if k := room(); k >= 0 && len(chunk) > k {
			long = append(long, chunk[:k]...)
			past += int64(len(chunk) - k)
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			chunk = chunk[len(chunk):]
		} else if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, chunk...)
			continue
		} else if past > 0 {
			past += int64(len(chunk))
			chunk = chunk[len(chunk):]
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
		if len(data) == 0 && past == 0 && err != nil {
			return nil
		}
		n++
		size := int64(len(data)) + past
		l := Line{N: n, Offset: offset}
		if past > 0 {
			// Cut: the line end, if any, is among the bytes read past.
			l.Cut, l.Size = true, size
			l.NoNewline = ends[1] != '\n'
			switch {
			case l.NoNewline && ends[1] == '\r':
				l.Size-- // a CR at the end is dropped, as ScanLines drops it
			case !l.NoNewline && ends[0] == '\r':
				l.Size -= 2
				l.CRLF = true
			case !l.NoNewline:
				l.Size--
			}
			if n == 1 && bytes.HasPrefix(data, bom) {
				data = data[len(bom):]
				l.Offset += int64(len(bom))
				l.Size -= int64(len(bom))
				l.BOM = true
			}
			if l.Size <= int64(len(data)) && l.Size <= int64(limit) {
				l.Data, l.Cut = data[:l.Size], false // only its line end was past
			} else {
				l.Data = data[:min(len(data), limit)]
			}
		} else {
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
			l.Size = int64(len(data))
			if limit > 0 && len(data) > limit { // line 1 without a BOM
				l.Data, l.Cut = data[:limit], true
			}
		}
		if ferr := fn(l); ferr != nil {
			return ferr
		}
		offset += size
		long, past, ends = long[:0], 0, [2]byte{}
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

// LineTooLong is the issue every loader reports for a line ScanLinesMax
// cut at limit bytes: "the line is N bytes; evalview reads <what> of at
// most <limit> (not read)", what naming the loader's record ("a Sample
// record", "a test case").
func LineTooLong(path string, l Line, what string, limit int) model.Issue {
	return model.Errorf("line-too-long", path, l.N, "",
		"the line is %d bytes; evalview reads %s of at most %s (not read)", l.Size, what, zipsafe.SizeOf(int64(limit)))
}
