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

// parquetFrom reads the parquet footer of r (size bytes); c closes r.
func parquetFrom(r io.ReaderAt, size int64, c io.Closer) (p *pqFile, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("not a readable parquet file (damaged?): %v", v)
		}
	}()
	pf, err := parquet.OpenFile(r, size)
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
	for i := 0; ; i++ {
		m := map[string]any{}
		if err := read(r, &m); err != nil {
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
	if err := read(r, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// read is Reader.Read with a panic turned into an error: parquet-go
// trusts the file's structure, and a damaged file must give a message,
// not a crash.
func read(r *parquet.Reader, m *map[string]any) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("the file's data does not match its schema (damaged?): %v", v)
		}
	}()
	return r.Read(m)
}
