package lighteval

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// What a details file may declare. parquet-go allocates what the file
// declares (a footer's lists, a schema's paths, a dictionary's entries, a
// page's values) before it reads the data, so an 800 KB file declaring a
// schema 100,000 levels deep, or a dictionary of 2^31 entries, ended the
// process with Go's fatal "out of memory", which no recover catches.
// checkFile reads the footer and every page header first and refuses what
// is past these limits or past what the file holds, naming it; lighteval's
// details (datasets' parquet writer) are far within them: a schema a few
// levels deep and a few dozen columns, a page of 1 MB.
const (
	// maxFooter bounds the footer (the file's metadata).
	maxFooter = 64 << 20
	// maxSchemaColumns bounds the schema's elements, groups and leaves.
	maxSchemaColumns = 10_000
	// maxNesting bounds how deep a column nests below the top level.
	maxNesting = 64
	// maxRows bounds the rows of a file; and past baseRows, a file may
	// hold one row per bytesPerRow of its size: the list keeps about
	// 300 bytes a row, and a column of nulls declares millions of rows
	// in a few bytes (a real details row takes hundreds).
	maxRows     = 10_000_000
	baseRows    = 100_000
	bytesPerRow = 32
	// maxPage bounds one page, uncompressed.
	maxPage = 256 << 20
	// maxPageValues bounds the values of one page (its levels take a
	// byte a value once decoded, whatever their encoding packed them to).
	maxPageValues = 16 << 20
	// maxChunkValues bounds the values of one column in one row group:
	// a row is decoded whole, and one row may hold them all.
	maxChunkValues = 16 << 20
	// maxRatio bounds how far a page may expand once past ratioFloor, as
	// zip members are bounded (zipsafe.MaxRatio).
	maxRatio   = 1000
	ratioFloor = 16 << 20
	// maxPageHeader bounds one page header (its statistics included).
	maxPageHeader = 1 << 20
	// maxPages bounds the pages of one column chunk.
	maxPages = 1 << 20
)

// boundsError is a declared size or depth past a limit or past the file:
// what was too large, in words. The open turns it into an error naming
// the file.
type boundsError struct{ what string }

func (e *boundsError) Error() string { return e.what }

func tooLarge(format string, args ...any) error {
	return &boundsError{what: fmt.Sprintf(format, args...)}
}

// checkFile checks what the parquet file r (size bytes) declares against
// the limits above and against its size, before parquet-go reads it.
func checkFile(r io.ReaderAt, size int64) error {
	if size < 12 {
		return nil // parquet-go says what is wrong
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if string(tail[4:]) != "PAR1" {
		return nil // not parquet, or an encrypted footer (PARE): parquet-go refuses it
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if n > size-12 {
		return tooLarge("the footer declares %s; the file holds %s", count(n, "byte"), count(size, "byte"))
	}
	if n > maxFooter {
		return tooLarge("the footer declares %s; evalview reads at most %s", count(n, "byte"), count(maxFooter, "byte"))
	}
	footer := make([]byte, n)
	if _, err := r.ReadAt(footer, size-8-n); err != nil {
		return err
	}
	if _, err := thriftSize(footer); err != nil {
		return tooLarge("the footer %v", err)
	}
	var md format.FileMetaData
	if err := decode(footer, &md); err != nil {
		return nil // parquet-go says what is wrong
	}
	leaves, err := checkSchema(md.Schema)
	if err != nil {
		return err
	}
	return checkRowGroups(r, size-8-n, size, &md, leaves)
}

// checkRowCount checks a file's declared rows against maxRows and its
// size.
func checkRowCount(rows, size int64) error {
	if rows > baseRows && rows > baseRows+size/bytesPerRow {
		return tooLarge("the file declares %s in %s; evalview reads at most %s and one more per %d bytes of file",
			count(rows, "row"), count(size, "byte"), count(baseRows, "row"), bytesPerRow)
	}
	return nil
}

// decode decodes a Thrift struct, a panic turned into an error.
func decode(b []byte, v any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	return thrift.NewDecoder(new(thrift.CompactProtocol).NewReaderFromBytes(b)).Decode(v)
}

// checkSchema checks the schema's width and each top-level column's depth
// (a flat list in depth-first order, each group giving its number of
// children), and returns the leaf columns' paths.
func checkSchema(schema []format.SchemaElement) ([]string, error) {
	if len(schema) > maxSchemaColumns {
		return nil, tooLarge("the schema declares %s; evalview reads at most %s", count(int64(len(schema)), "column"), count(maxSchemaColumns, "column"))
	}
	if len(schema) == 0 {
		return nil, nil
	}
	// open holds, for each group from the root down, how many of its
	// children are still to come.
	var open []int64
	var path []string
	var leaves []string
	top, topAt := "", 0
	for i := range schema {
		e := &schema[i]
		if i > 0 && len(open) == 0 {
			return nil, tooLarge("the schema declares %d columns past its root's children", len(schema)-i)
		}
		depth := len(open) // levels below the root
		if depth == 1 {
			top, topAt = e.Name, i
		}
		if depth > maxNesting {
			// Say how deep it goes: the rest of the schema is a walk
			// of the same list, cheap.
			return nil, tooLarge("column %q nests %s deep; evalview reads at most %d", top, count(int64(nestingOf(schema, topAt)), "level"), maxNesting)
		}
		children := int64(0)
		if e.NumChildren.Valid {
			children = int64(e.NumChildren.V)
		}
		if children < 0 {
			return nil, tooLarge("column %q declares %d children", e.Name, children)
		}
		if children > int64(len(schema)-i-1) {
			return nil, tooLarge("column %q declares %s; the schema holds %d more", e.Name, count(children, "child column"), len(schema)-i-1)
		}
		if depth > 0 {
			path = append(path[:depth-1], e.Name)
		}
		if children > 0 {
			open = append(open, children)
			continue
		}
		if i > 0 {
			leaves = append(leaves, strings.Join(path, "."))
		}
		for len(open) > 0 {
			if open[len(open)-1]--; open[len(open)-1] > 0 {
				break
			}
			open = open[:len(open)-1]
		}
	}
	if len(open) > 0 {
		return nil, tooLarge("the schema ends before the children its columns declare")
	}
	return leaves, nil
}

// nestingOf is how many levels deep the top-level column starting at
// schema[i] nests below the top level.
func nestingOf(schema []format.SchemaElement, i int) int {
	var open []int64
	deepest := 0
	for ; i < len(schema); i++ {
		deepest = max(deepest, len(open)+1)
		if n := schema[i].NumChildren; n.Valid && n.V > 0 {
			open = append(open, int64(n.V))
			continue
		}
		for len(open) > 0 {
			if open[len(open)-1]--; open[len(open)-1] > 0 {
				break
			}
			open = open[:len(open)-1]
		}
		if len(open) == 0 {
			break
		}
	}
	return deepest
}

// checkRowGroups checks the row groups' rows and column chunks: each
// chunk within the data (the bytes before the footer), its values and
// sizes within the limits, and each of its pages. end is where the data
// ends, size the file's size.
func checkRowGroups(r io.ReaderAt, end, size int64, md *format.FileMetaData, leaves []string) error {
	if md.NumRows < 0 || md.NumRows > maxRows {
		return tooLarge("the file declares %s; evalview reads at most %s", count(md.NumRows, "row"), count(maxRows, "row"))
	}
	if err := checkRowCount(md.NumRows, size); err != nil {
		return err
	}
	var rows int64
	for gi := range md.RowGroups {
		g := &md.RowGroups[gi]
		if g.NumRows < 0 || g.NumRows > maxRows-rows {
			return tooLarge("row group %d declares %s; evalview reads at most %s in a file", gi, count(g.NumRows, "row"), count(maxRows, "row"))
		}
		rows += g.NumRows
		if err := checkRowCount(rows, size); err != nil {
			return err
		}
		if len(g.Columns) != len(leaves) {
			return nil // parquet-go says what is wrong
		}
		for ci := range g.Columns {
			if err := checkChunk(r, end, &g.Columns[ci]); err != nil {
				return tooLarge("column %q, row group %d: %v", leaves[ci], gi, err)
			}
		}
	}
	return nil
}

// checkChunk checks one column chunk and its pages.
func checkChunk(r io.ReaderAt, end int64, c *format.ColumnChunk) error {
	m := &c.MetaData
	if c.FilePath != "" {
		return fmt.Errorf("its data is in another file (%q), which evalview does not read", c.FilePath)
	}
	if m.NumValues < 0 || m.NumValues > maxChunkValues {
		return fmt.Errorf("declares %s; evalview reads at most %s", count(m.NumValues, "value"), count(maxChunkValues, "value"))
	}
	start := m.DataPageOffset
	if m.DictionaryPageOffset > 0 && m.DictionaryPageOffset < start {
		start = m.DictionaryPageOffset
	}
	if start < 4 || m.TotalCompressedSize < 0 || m.TotalCompressedSize > end-start {
		return fmt.Errorf("declares %s at offset %d; the file's data ends at %d", count(m.TotalCompressedSize, "byte"), start, end)
	}
	for _, ix := range [][2]int64{{c.ColumnIndexOffset, int64(c.ColumnIndexLength)}, {c.OffsetIndexOffset, int64(c.OffsetIndexLength)}} {
		if err := checkIndex(r, end, ix[0], ix[1]); err != nil {
			return err
		}
	}
	return checkPages(r, start, start+m.TotalCompressedSize, m.NumValues)
}

// checkIndex checks a page index at off (n bytes): within the data, and
// a Thrift struct whose lists fit in it.
func checkIndex(r io.ReaderAt, end, off, n int64) error {
	if off == 0 && n == 0 {
		return nil
	}
	if off < 4 || n < 0 || n > end-off || n > maxPageHeader {
		return fmt.Errorf("declares a page index of %s at offset %d; the file's data ends at %d", count(n, "byte"), off, end)
	}
	b := make([]byte, n)
	if _, err := r.ReadAt(b, off); err != nil {
		return err
	}
	if _, err := thriftSize(b); err != nil {
		return fmt.Errorf("its page index %v", err)
	}
	return nil
}

// checkPages walks the pages of a chunk (from start to end), checking
// each header's sizes and values; the data pages' values add up to at
// most the chunk's (values).
func checkPages(r io.ReaderAt, start, end, values int64) error {
	var seen int64
	buf := make([]byte, 0, 4<<10)
	for at, pages := start, 0; at < end; pages++ {
		if pages == maxPages {
			return fmt.Errorf("holds more than %s", count(maxPages, "page"))
		}
		h, n, err := pageHeader(r, at, end, &buf)
		if err != nil {
			return fmt.Errorf("page at offset %d: %v", at, err)
		}
		size, full := int64(h.CompressedPageSize), int64(h.UncompressedPageSize)
		if size < 0 || size > end-at-int64(n) {
			return fmt.Errorf("page at offset %d declares %s; the column's data ends at %d", at, count(size, "byte"), end)
		}
		if full < 0 || full > maxPage {
			return fmt.Errorf("page at offset %d declares %s uncompressed; evalview reads at most %s", at, count(full, "byte"), count(maxPage, "byte"))
		}
		if full > ratioFloor && full/maxRatio > size {
			return fmt.Errorf("page at offset %d declares %s uncompressed from %s: more than %d times", at, count(full, "byte"), count(size, "byte"), maxRatio)
		}
		var pv int64
		switch {
		case h.DictionaryPageHeader.Valid:
			pv = int64(h.DictionaryPageHeader.V.NumValues)
			// Each entry takes a byte at least, decoded.
			if pv < 0 || pv > full || pv > maxPageValues {
				return fmt.Errorf("dictionary page at offset %d declares %s in %s", at, count(pv, "entry"), count(full, "byte"))
			}
			pv = 0
		case h.DataPageHeader.Valid:
			pv = int64(h.DataPageHeader.V.NumValues)
		case h.DataPageHeaderV2.Valid:
			pv = int64(h.DataPageHeaderV2.V.NumValues)
			if nr := int64(h.DataPageHeaderV2.V.NumRows); nr < 0 || nr > pv {
				return fmt.Errorf("page at offset %d declares %s of %s", at, count(nr, "row"), count(pv, "value"))
			}
		}
		if pv < 0 || pv > maxPageValues {
			return fmt.Errorf("page at offset %d declares %s; evalview reads at most %s", at, count(pv, "value"), count(maxPageValues, "value"))
		}
		if seen += pv; seen > values {
			return fmt.Errorf("its pages declare more values than the column's %d", values)
		}
		at += int64(n) + size
	}
	return nil
}

// pageHeader reads the page header at off (before end) into a
// format.PageHeader, once thriftSize has found its lists within it; n is
// its size. buf is reused between calls.
func pageHeader(r io.ReaderAt, off, end int64, buf *[]byte) (h format.PageHeader, n int, err error) {
	for want := int64(4 << 10); ; want *= 16 {
		want = min(want, end-off, maxPageHeader)
		b := (*buf)[:0]
		if int64(cap(b)) < want {
			b = make([]byte, want)
		}
		b = b[:want]
		*buf = b
		if _, err := r.ReadAt(b, off); err != nil && err != io.EOF {
			return h, 0, err
		}
		n, err = thriftSize(b)
		if err != nil && want < min(end-off, maxPageHeader) {
			// What runs past the bytes read (a value or a list of its
			// statistics) may be within a longer read: read more.
			continue
		}
		if err != nil {
			if err == errThriftShort {
				return h, 0, fmt.Errorf("its header runs past %s", count(want, "byte"))
			}
			return h, 0, fmt.Errorf("its header %v", err)
		}
		if err := decode(bytes.Clone(b[:n]), &h); err != nil {
			return h, 0, fmt.Errorf("its header is not a page header: %v", err)
		}
		return h, n, nil
	}
}

// count is "1 row", "4,096 levels".
func count(n int64, noun string) string {
	s := grouped(n)
	switch {
	case n == 1:
		return s + " " + noun
	case strings.HasSuffix(noun, " is"):
		return s + " " + strings.TrimSuffix(noun, " is") + "s are"
	case strings.HasSuffix(noun, "y"):
		return s + " " + noun[:len(noun)-1] + "ies"
	}
	return s + " " + noun + "s"
}

// grouped writes n with thousands separated by commas.
func grouped(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}
