// Package zipsafe holds what the loaders of zip-based formats (eval run
// zips, Inspect .eval logs) share to read an archive without trusting it:
// names that must not be followed, entries that are not regular files,
// reads capped against zip bombs and lying headers, and the zstd method
// (93) that current Inspect logs use. Nothing is ever extracted to disk.
package zipsafe

import (
	"archive/zip"
	"errors"
	"io"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
)

var (
	// ErrTooLarge is returned when an entry decompresses (or claims to) to
	// more than the limit it is read with.
	ErrTooLarge = errors.New("too large")
	// ErrEncrypted is returned for an encrypted entry, which is never read.
	ErrEncrypted = errors.New("encrypted")
	// ErrRatio is returned for an entry that decompresses (or claims to)
	// to more than MaxRatio times its compressed size: a zip bomb.
	ErrRatio = errors.New("compression ratio too high")
)

// MaxRatio is the most an entry may expand, as a multiple of its
// compressed size, once past RatioFloor. JSON compresses 5 to 50 times
// with zstd or deflate (Inspect logs, run zips); deflate cannot pass about
// 1030 and zeros reach it, zstd reaches 30,000 on zeros. A real member
// far above 1000 is a bomb, whose only effect would be to keep the
// decompressor spinning for minutes.
const MaxRatio = 1000

// RatioFloor is the size under which any ratio is let through: a few
// megabytes cost nothing to decompress, whatever they came from.
const RatioFloor = 16 << 20

// Limit is what zf may decompress to: at most limit, and past RatioFloor
// at most MaxRatio times its compressed size. byRatio tells that the ratio
// is what binds, so that a refusal can say it is a bomb.
func Limit(zf *zip.File, limit int64) (n int64, byRatio bool) {
	c := zf.CompressedSize64
	if c > uint64(math.MaxInt64/MaxRatio) {
		return limit, false
	}
	r := max(int64(c)*MaxRatio, RatioFloor)
	if r < limit {
		return r, true
	}
	return limit, false
}

// OpenLimited is OpenEntry under Limit: an entry whose header declares
// more than the ratio allows is refused unread with ErrRatio, and one
// whose data outgrows it (a header that lies) stops with ErrRatio or, at
// its declared size, zip.ErrFormat. What it reads is capped at the limit.
func OpenLimited(zf *zip.File, limit int64) (io.ReadCloser, error) {
	n, byRatio := Limit(zf, limit)
	rc, err := OpenEntry(zf, n)
	if err != nil {
		if byRatio && errors.Is(err, ErrTooLarge) {
			return nil, ErrRatio
		}
		return nil, err
	}
	r := Cap(rc, n)
	if byRatio {
		r = &ratioReader{r}
	}
	return struct {
		io.Reader
		io.Closer
	}{r, rc}, nil
}

// ReadLimited reads zf whole under Limit, into a buffer of the size its
// header declares (io.ReadAll's doubling took three times a member's size
// at its peak); a member outgrowing that fails at its declared end.
func ReadLimited(zf *zip.File, limit int64) ([]byte, error) {
	rc, err := OpenLimited(zf, limit)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return readSized(rc, int64(zf.UncompressedSize64))
}

// readSized reads r whole into a buffer of size bytes (and one more, to
// see the end), growing it only if r holds more.
func readSized(r io.Reader, size int64) ([]byte, error) {
	buf := make([]byte, 0, size+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// ratioReader turns the cap's ErrTooLarge into ErrRatio where the ratio
// set the cap.
type ratioReader struct{ r io.Reader }

func (r *ratioReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if errors.Is(err, ErrTooLarge) {
		err = ErrRatio
	}
	return n, err
}

// MethodZstd is the zip compression method number of zstd (APPNOTE 4.4.5),
// which Inspect writes since 2025 (Python's zipfile_zstd, then the
// standard library's ZIP_ZSTANDARD).
const MethodZstd = 93

// zstdDecoders recycles zstd decoders: one allocates window buffers, so a
// list that opens many members one after another reuses them.
var zstdDecoders sync.Pool

// zstdReader is one member's decompressor; Close hands the decoder back.
type zstdReader struct{ d *zstd.Decoder }

func (z *zstdReader) Read(p []byte) (int, error) {
	if z.d == nil {
		return 0, io.ErrClosedPipe
	}
	return z.d.Read(p)
}

func (z *zstdReader) Close() error {
	if z.d != nil {
		_ = z.d.Reset(nil)
		zstdDecoders.Put(z.d)
		z.d = nil
	}
	return nil
}

// decompressZstd is archive/zip's Decompressor for method 93. The stream
// may hold several frames (Inspect caps a frame at 200 MiB of input); the
// decoder reads them all. One goroutine and a bounded window: it streams,
// never holding the member whole.
func decompressZstd(r io.Reader) io.ReadCloser {
	d, _ := zstdDecoders.Get().(*zstd.Decoder)
	if d == nil {
		var err error
		d, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(1<<30), zstd.WithDecoderLowmem(true))
		if err != nil {
			return io.NopCloser(errReader{err})
		}
	}
	if err := d.Reset(r); err != nil {
		return io.NopCloser(errReader{err})
	}
	return &zstdReader{d: d}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// Register makes zr read zstd members (method 93) besides stored and
// deflated ones.
func Register(zr *zip.Reader) { zr.RegisterDecompressor(MethodZstd, decompressZstd) }

// OpenEntry opens zf for reading after the checks every read needs: not
// encrypted, and a declared size within limit. The reader stops with
// zip.ErrFormat when the data outgrows the declared size (a zip bomb with
// a lying header); wrap it in Cap to enforce limit on what is read.
func OpenEntry(zf *zip.File, limit int64) (io.ReadCloser, error) {
	if zf.Flags&0x1 != 0 {
		return nil, ErrEncrypted
	}
	if limit < 0 || zf.UncompressedSize64 > uint64(limit) {
		return nil, ErrTooLarge
	}
	return zf.Open()
}

// ReadEntry reads zf whole, at most limit bytes, into a buffer of the
// size its header declares.
func ReadEntry(zf *zip.File, limit int64) ([]byte, error) {
	rc, err := OpenEntry(zf, limit)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := readSized(io.LimitReader(rc, limit+1), int64(zf.UncompressedSize64))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, ErrTooLarge
	}
	return data, nil
}

// ReadCapped reads r whole unless it holds more than limit bytes, reading
// at most one byte past it; archive/zip also fails an entry that outgrows
// its declared size (a zip bomb with a lying header).
func ReadCapped(r io.Reader, limit int64) ([]byte, error) { return ReadCappedSized(r, limit, 0) }

// ReadCappedSized is ReadCapped into a buffer of size bytes (what r is
// known to hold, at most limit), grown only if r holds more.
func ReadCappedSized(r io.Reader, limit, size int64) ([]byte, error) {
	if limit < 0 {
		return nil, ErrTooLarge
	}
	data, err := readSized(io.LimitReader(r, limit+1), max(min(size, limit), 0))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, ErrTooLarge
	}
	return data, nil
}

// Cap returns a reader of r that fails with ErrTooLarge once more than
// limit bytes have been read, for members read as a stream.
func Cap(r io.Reader, limit int64) io.Reader { return &capped{r: r, left: limit} }

type capped struct {
	r    io.Reader
	left int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left < 0 {
		return 0, ErrTooLarge
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		return n - int(-c.left), ErrTooLarge
	}
	return n, err
}

// IgnoredName reports entries archivers add that are not part of the
// artifact: macOS resource forks and Finder files.
func IgnoredName(name string) bool {
	// Most names hold neither: do not split them (an .eval lists tens of
	// thousands of members, and the split was most of listing them).
	if !strings.Contains(name, "__MACOSX") && !strings.Contains(name, ".DS_Store") {
		return false
	}
	for _, seg := range strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == "__MACOSX" || seg == ".DS_Store" {
			return true
		}
	}
	return false
}

// UnsafeName explains why a zip entry name must not be followed, or "".
func UnsafeName(name string) string {
	switch {
	case strings.Contains(name, ".."):
		return `contains ".."`
	case strings.Contains(name, `\`):
		return "uses backslashes"
	case strings.HasPrefix(name, "/") || (len(name) > 1 && name[1] == ':'):
		return "is an absolute path"
	}
	return ""
}

// SizeOf formats a byte count for messages ("64 MB", "70.5 MB").
func SizeOf(n int64) string {
	if n < 1<<20 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	return strings.TrimSuffix(strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64), ".0") + " MB"
}

// ModeName names a non-regular file's type for messages.
func ModeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file (" + m.Type().String() + ")"
}
