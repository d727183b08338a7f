package jsonl

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	kgzip "github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"evalview/loaders/source"
)

// Compression names how a file is compressed.
type Compression int

// Compressions Open understands. The zero value is an uncompressed file.
const (
	Plain Compression = iota
	Gzip
	Zstd
)

// String names the compression as its file extension does.
func (c Compression) String() string {
	switch c {
	case Gzip:
		return "gzip"
	case Zstd:
		return "zstd"
	}
	return "plain"
}

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// CompressionOf tells from a file's first bytes whether it is gzip or zstd
// compressed. Content decides, not the name, so that a misnamed file still
// opens.
func CompressionOf(head []byte) Compression {
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		return Gzip
	case bytes.HasPrefix(head, zstdMagic):
		return Zstd
	}
	return Plain
}

// TrimCompressedExt removes a trailing .gz or .zst from a file name
// ("samples_x.jsonl.gz" -> "samples_x.jsonl").
func TrimCompressedExt(name string) string {
	for _, ext := range []string{".gz", ".zst", ".zstd"} {
		if strings.HasSuffix(strings.ToLower(name), ext) {
			return name[:len(name)-len(ext)]
		}
	}
	return name
}

// IsCompressedName reports whether a file name ends in .gz, .zst or .zstd.
func IsCompressedName(name string) bool { return TrimCompressedExt(name) != name }

// NewDecompressor wraps r, a stream of compression c, in a reader of its
// uncompressed bytes. Close releases the decompressor (not r).
func NewDecompressor(r io.Reader, c Compression) (io.ReadCloser, error) {
	switch c {
	case Gzip:
		zr, err := kgzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return zr, nil
	case Zstd:
		// One goroutine and a bounded window: the decoder streams, it never
		// holds the whole file, and leaves the other core to the indexer.
		zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(1<<30), zstd.WithDecoderLowmem(true))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		return zr.IOReadCloser(), nil
	}
	return io.NopCloser(r), nil
}

// OpenStream opens path read-only and returns its uncompressed bytes as a
// stream, decompressing gzip or zstd as it goes (detected from content).
// Closing the stream closes the file.
func OpenStream(path string) (io.ReadCloser, Compression, error) {
	// Refuse FIFOs and devices before open, which would block on a FIFO.
	if st, err := source.Stat(path); err != nil {
		return nil, Plain, err
	} else if !st.Mode().IsRegular() {
		return nil, Plain, fmt.Errorf("%s: not a regular file; refusing to read it", filepath.Base(path))
	}
	f, err := source.Open(path)
	if err != nil {
		return nil, Plain, err
	}
	head := make([]byte, 4)
	n, _ := io.ReadFull(f, head)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, Plain, err
	}
	c := CompressionOf(head[:n])
	if c == Plain {
		return f, Plain, nil
	}
	zr, err := NewDecompressor(f, c)
	if err != nil {
		f.Close()
		return nil, c, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return &stream{ReadCloser: zr, f: f}, c, nil
}

// ReadHead returns up to n uncompressed bytes from the start of path.
func ReadHead(path string, n int) ([]byte, error) {
	r, _, err := OpenStream(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return ReadPrefix(r, n)
}

// headBufs holds the buffers ReadPrefix reads into: detection reads the
// head of every file of a folder, and a fresh 64 KB buffer for each of
// 100,000 small files was most of the garbage of opening them.
var headBufs sync.Pool

// ReadPrefix returns the first n bytes of r (fewer when r ends first), in
// a slice of exactly that length.
func ReadPrefix(r io.Reader, n int) ([]byte, error) {
	bp, _ := headBufs.Get().(*[]byte)
	if bp == nil || cap(*bp) < n {
		b := make([]byte, n)
		bp = &b
	}
	buf := (*bp)[:n]
	m, err := io.ReadFull(r, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	out := append([]byte(nil), buf[:m]...)
	headBufs.Put(bp)
	return out, err
}

// stream closes both the decompressor and its file.
type stream struct {
	io.ReadCloser
	f source.File
}

func (s *stream) Close() error {
	err := s.ReadCloser.Close()
	if ferr := s.f.Close(); err == nil {
		err = ferr
	}
	return err
}
