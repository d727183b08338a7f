package lighteval

import (
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"

	"evalview/loaders/jsonl"
)

// listColumns are the columns the list needs, per era; the rest are read
// only when a record is opened. Reading a projection of the file's own
// schema makes parquet-go decode only those column chunks.
var listColumns = map[string]map[string][]string{
	eraStruct: {
		"doc":            {"query", "choices", "gold_index"},
		"model_response": {"text", "text_post_processed", "logprobs"},
		"metric":         nil, // every field
	},
	eraFlat: {
		"example": nil, "choices": nil, "gold": nil, "gold_index": nil, "metrics": nil, "predictions": nil,
	},
}

// pqFile is an open details file.
type pqFile struct {
	c  io.Closer
	pf *parquet.File
}

// opener opens a details file: the file on disk, or for the fuzz targets
// bytes in memory.
type opener func() (*pqFile, error)

// fileOpener opens the details file at path.
func fileOpener(path string) opener {
	return func() (*pqFile, error) {
		f, err := jsonl.OpenRegular(path)
		if err != nil {
			return nil, err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		p, err := parquetFrom(f, st.Size(), f)
		if err != nil {
			f.Close()
		}
		return p, err
	}
}

// parquetFrom reads the parquet footer of r (size bytes), once checkFile
// has found what it declares within bounds; c closes r.
func parquetFrom(r io.ReaderAt, size int64, c io.Closer) (p *pqFile, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("not a readable parquet file (damaged?): %v", v)
		}
	}()
	if err := checkFile(r, size); err != nil {
		return nil, err
	}
	// Bloom filters are not used; their headers are not read.
	pf, err := parquet.OpenFile(r, size, parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("not a readable parquet file: %w", err)
	}
	return &pqFile{c: c, pf: pf}, nil
}

func (p *pqFile) Close() error { return p.c.Close() }

// columns returns the top-level column names and whether every leaf is a
// string (the pre-2025 details).
func (p *pqFile) columns() ([]string, bool) {
	var names []string
	stringsOnly := true
	for _, f := range p.pf.Schema().Fields() {
		names = append(names, f.Name())
		if !f.Leaf() || f.Type().Kind() != parquet.ByteArray {
			stringsOnly = false
		}
	}
	return names, stringsOnly
}

// projection is the file's schema cut down to the list's columns.
func (p *pqFile) projection(era string) *parquet.Schema {
	want := listColumns[era]
	if want == nil {
		want = listColumns[eraFlat]
	}
	g := parquet.Group{}
	for _, f := range p.pf.Schema().Fields() {
		subs, ok := want[f.Name()]
		if !ok {
			continue
		}
		if subs == nil || f.Leaf() {
			g[f.Name()] = f
			continue
		}
		sg := parquet.Group{}
		for _, sf := range f.Fields() {
			for _, s := range subs {
				if sf.Name() == s {
					sg[s] = sf
				}
			}
		}
		if len(sg) > 0 {
			var n parquet.Node = sg
			if f.Optional() {
				n = parquet.Optional(sg)
			}
			g[f.Name()] = n
		}
	}
	return parquet.NewSchema("list", g)
}

// eachRow decodes every row with schema s (nil: the file's own) into a
// map, calling fn with its index.
func (p *pqFile) eachRow(s *parquet.Schema, fn func(i int, m map[string]any) error) error {
	var r *parquet.Reader
	if s == nil {
		r = parquet.NewReader(p.pf)
	} else {
		r = parquet.NewReader(p.pf, s)
	}
	defer r.Close()
	buf := make([]parquet.Row, 1)
	for i := 0; ; i++ {
		m := map[string]any{}
		if err := read(r, buf, &m); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("row %d: %w", i, err)
		}
		if err := fn(i, m); err != nil {
			return err
		}
	}
}

// rowAt decodes row i whole.
func (p *pqFile) rowAt(i int) (map[string]any, error) {
	r := parquet.NewReader(p.pf)
	defer r.Close()
	if err := r.SeekToRow(int64(i)); err != nil {
		return nil, err
	}
	m := map[string]any{}
	if err := read(r, make([]parquet.Row, 1), &m); err != nil {
		return nil, err
	}
	return m, nil
}

// maxRowWork bounds the work of decoding one row into maps and lists of
// interfaces: each value counts the levels it opens (its definition level
// less its repetition level, plus one) times how deep it is, since a
// level costs more the deeper it nests. A row of 10,000 strings in lists
// 60 levels deep took half a gigabyte and 20 s; a details row of 32,000
// input tokens in a list counts 640,000.
const maxRowWork = 4_000_000

// rowWork is what decoding row costs in maxRowWork's units, and how deep
// its values go.
func rowWork(row parquet.Row) (work int64, depth int) {
	for _, v := range row {
		d, r := v.DefinitionLevel(), v.RepetitionLevel()
		work += int64(1+max(0, d-r)) * int64(1+d)
		depth = max(depth, d)
	}
	return work, depth
}

// read reads the next row of r into m (buf holds the row's values, reused
// from row to row); past maxRowWork it is not decoded. A panic is
// turned into an error: parquet-go trusts the file's structure, and a
// damaged file must give a message, not a crash.
func read(r *parquet.Reader, buf []parquet.Row, m *map[string]any) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("the file's data does not match its schema (damaged?): %v", v)
		}
	}()
	n, err := r.ReadRows(buf[:1])
	if n == 0 {
		if err == nil {
			err = io.EOF
		}
		return err
	}
	row := buf[0]
	defer func() { buf[0] = row[:0] }()
	if work, depth := rowWork(row); work > maxRowWork {
		return tooLarge("the row holds %s in lists up to %s deep, more than evalview decodes of one row", count(int64(len(row)), "value"), count(int64(depth), "level"))
	}
	return r.Schema().Reconstruct(m, row)
}
