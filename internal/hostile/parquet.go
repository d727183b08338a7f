package hostile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// Parquet files that declare more than they hold, written here Thrift
// struct by Thrift struct (parquet-go's writer would refuse them): a
// schema nested deeper than any reader allocates paths for, a dictionary
// page declaring 2^31 entries, lists nested hundreds of levels, a footer
// whose lists or sizes lie, and a file declaring 2^40 rows. Each is a few
// KB to a MB; each ended evalview with Go's fatal "out of memory" (or
// took gigabytes) before it checked what a file declares.

// parquetFile assembles a parquet file: "PAR1", the column chunks' bytes,
// the footer md, its length and "PAR1".
func parquetFile(data []byte, md *format.FileMetaData) []byte {
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), md)
	if err != nil {
		panic(err) // the structs here are always encodable
	}
	var b bytes.Buffer
	b.WriteString("PAR1")
	b.Write(data)
	b.Write(footer)
	binary.Write(&b, binary.LittleEndian, uint32(len(footer)))
	b.WriteString("PAR1")
	return b.Bytes()
}

func optional[T any](v T) thrift.Null[T] { return thrift.Null[T]{V: v, Valid: true} }

// group is a schema element of n children.
func group(name string, n int, rep format.FieldRepetitionType) format.SchemaElement {
	return format.SchemaElement{Name: name, NumChildren: optional(int32(n)), RepetitionType: optional(rep)}
}

// leaf is a byte array schema element.
func leaf(name string, rep format.FieldRepetitionType) format.SchemaElement {
	return format.SchemaElement{Name: name, Type: optional(format.ByteArray), RepetitionType: optional(rep)}
}

// ParquetDeepSchema is a details file whose column "doc" nests depth
// optional groups deep around a string, with no rows: 100,000 levels take
// about 800 KB.
func ParquetDeepSchema(depth int) []byte {
	schema := []format.SchemaElement{{Name: "schema", NumChildren: optional(int32(1))}}
	for i := range depth {
		name := "doc"
		if i > 0 {
			name = "a"
		}
		schema = append(schema, group(name, 1, format.Optional))
	}
	schema = append(schema, leaf("query", format.Optional))
	return parquetFile(nil, &format.FileMetaData{Version: 1, Schema: schema})
}

// page is a page header and its data, uncompressed.
func page(h format.PageHeader, data []byte) []byte {
	h.UncompressedPageSize = int32(len(data))
	h.CompressedPageSize = int32(len(data))
	b, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		panic(err)
	}
	return append(b, data...)
}

// oneColumn is a file of one column chunk (chunk, starting with a
// dictionary page when dict) of values values over rows rows, with schema.
func oneColumn(schema []format.SchemaElement, path []string, chunk []byte, values, rows int64, dict bool) []byte {
	meta := format.ColumnMetaData{
		Type: format.ByteArray, Encoding: []format.Encoding{format.Plain, format.RLE, format.RLEDictionary},
		PathInSchema: path, Codec: format.Uncompressed, NumValues: values,
		TotalUncompressedSize: int64(len(chunk)), TotalCompressedSize: int64(len(chunk)), DataPageOffset: 4,
	}
	if dict {
		meta.DictionaryPageOffset = 4
	}
	md := &format.FileMetaData{Version: 1, Schema: schema, NumRows: rows, RowGroups: []format.RowGroup{{
		Columns: []format.ColumnChunk{{FileOffset: 4, MetaData: meta}}, TotalByteSize: int64(len(chunk)), NumRows: rows,
	}}}
	return parquetFile(chunk, md)
}

// ParquetDictionary is a details file of one row whose string column
// "doc" is dictionary-encoded, its dictionary page declaring entries
// entries (it holds one): 1 gives a valid file, 1<<31-1 the hostile one.
func ParquetDictionary(entries int32) []byte {
	schema := []format.SchemaElement{{Name: "schema", NumChildren: optional(int32(1))}, leaf("doc", format.Required)}
	dict := page(format.PageHeader{Type: format.DictionaryPage, DictionaryPageHeader: optional(format.DictionaryPageHeader{
		NumValues: entries, Encoding: format.Plain,
	})}, append(binary.LittleEndian.AppendUint32(nil, 1), 'a'))
	// One index into the dictionary: bit width 1, an RLE run of 1 zero.
	data := page(format.PageHeader{Type: format.DataPage, DataPageHeader: optional(format.DataPageHeader{
		NumValues: 1, Encoding: format.RLEDictionary, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
	})}, []byte{1, 2, 0})
	return oneColumn(schema, []string{"doc"}, append(dict, data...), 1, 1, true)
}

// ParquetDeepLists is a details file of one row whose column "doc" is
// depth repeated groups around a repeated string: values strings in one
// row, each opening lists at every level (the repetition levels cycle
// through 1..depth). parquet-go reads up to 255 levels.
func ParquetDeepLists(depth, values int) []byte {
	schema := []format.SchemaElement{{Name: "schema", NumChildren: optional(int32(1))}}
	path := []string{}
	for i := range depth {
		name := "doc"
		if i > 0 {
			name = fmt.Sprintf("l%d", i)
		}
		schema = append(schema, group(name, 1, format.Repeated))
		path = append(path, name)
	}
	schema = append(schema, leaf("v", format.Repeated))
	path = append(path, "v")
	max := depth + 1 // both levels' maximum
	reps, defs := make([]int, values), make([]int, values)
	for i := range values {
		defs[i] = max
		if i > 0 {
			reps[i] = 1 + (i-1)%max
		}
	}
	var body []byte
	for _, levels := range [][]int{reps, defs} {
		enc := rleLevels(levels, bits.Len(uint(max)))
		body = binary.LittleEndian.AppendUint32(body, uint32(len(enc)))
		body = append(body, enc...)
	}
	for range values {
		body = append(binary.LittleEndian.AppendUint32(body, 1), 'x')
	}
	chunk := page(format.PageHeader{Type: format.DataPage, DataPageHeader: optional(format.DataPageHeader{
		NumValues: int32(values), Encoding: format.Plain, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
	})}, body)
	return oneColumn(schema, path, chunk, int64(values), 1, false)
}

// rleLevels encodes levels as RLE runs of width bits (the parquet RLE
// hybrid, runs only).
func rleLevels(levels []int, width int) []byte {
	var out []byte
	for i := 0; i < len(levels); {
		j := i
		for j < len(levels) && levels[j] == levels[i] {
			j++
		}
		out = binary.AppendUvarint(out, uint64(j-i)<<1)
		for k := 0; k < (width+7)/8; k++ {
			out = append(out, byte(levels[i]>>(8*k)))
		}
		i = j
	}
	return out
}

// ParquetLies are small parquet files each declaring one thing it does
// not hold, by name: a footer longer than the file, a schema list of 2^31
// elements, a row group of 2^40 rows, a column chunk past the file's end,
// a page of 2^30 values, 2^20 rows of nulls in 100 bytes, a schema whose
// group declares more children than there are columns.
func ParquetLies() map[string][]byte {
	out := map[string][]byte{}
	valid := ParquetDictionary(1)

	b := bytes.Clone(valid)
	binary.LittleEndian.PutUint32(b[len(b)-8:], uint32(len(b)))
	out["footer-longer-than-file"] = b

	// A footer holding only a schema list header of 2^31-1 struct
	// elements (compact protocol: field 2, type list; size 0xF, type
	// struct; the size as a varint).
	footer := []byte{0x15, 0x02, 0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00}
	b = append([]byte("PAR1"), footer...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(footer)))
	out["schema-list-2^31"] = append(b, "PAR1"...)

	schema := []format.SchemaElement{{Name: "schema", NumChildren: optional(int32(1))}, leaf("doc", format.Required)}
	out["rows-2^40"] = parquetFile(nil, &format.FileMetaData{Version: 1, Schema: schema, NumRows: 1 << 40,
		RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{{MetaData: format.ColumnMetaData{
			Type: format.ByteArray, PathInSchema: []string{"doc"}, DataPageOffset: 4}}}, NumRows: 1 << 40}}})

	out["chunk-past-end"] = parquetFile(nil, &format.FileMetaData{Version: 1, Schema: schema, NumRows: 1,
		RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{{MetaData: format.ColumnMetaData{
			Type: format.ByteArray, PathInSchema: []string{"doc"}, NumValues: 1, DataPageOffset: 4,
			TotalCompressedSize: 1 << 30, TotalUncompressedSize: 1 << 30}}}, NumRows: 1}}})

	// A data page of 2^30 values, all null, in four bytes of levels.
	opt := []format.SchemaElement{{Name: "schema", NumChildren: optional(int32(1))}, leaf("doc", format.Optional)}
	defs := binary.AppendUvarint(nil, 1<<30<<1)
	defs = append(defs, 0)
	body := append(binary.LittleEndian.AppendUint32(nil, uint32(len(defs))), defs...)
	chunk := page(format.PageHeader{Type: format.DataPage, DataPageHeader: optional(format.DataPageHeader{
		NumValues: 1 << 30, Encoding: format.Plain, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
	})}, body)
	out["page-2^30-values"] = oneColumn(opt, []string{"doc"}, chunk, 1, 1, false)

	// A million rows of nulls in a few bytes: a list of a million rows
	// to keep, from a file of 100 bytes.
	defs = binary.AppendUvarint(nil, 1<<20<<1)
	defs = append(defs, 0)
	body = append(binary.LittleEndian.AppendUint32(nil, uint32(len(defs))), defs...)
	chunk = page(format.PageHeader{Type: format.DataPage, DataPageHeader: optional(format.DataPageHeader{
		NumValues: 1 << 20, Encoding: format.Plain, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
	})}, body)
	out["null-rows-2^20"] = oneColumn(opt, []string{"doc"}, chunk, 1<<20, 1<<20, false)

	out["children-past-schema"] = parquetFile(nil, &format.FileMetaData{Version: 1, Schema: []format.SchemaElement{
		{Name: "schema", NumChildren: optional(int32(1))}, group("doc", 1<<30, format.Optional), leaf("query", format.Optional)}})
	return out
}

// ParquetLongStatistics is a valid details file of one row whose data
// page header carries statistics (a minimum and a maximum) of n bytes
// each, as some writers put in page headers: a header longer than a
// first read of it.
func ParquetLongStatistics(n int) []byte {
	schema := []format.SchemaElement{{Name: "schema", NumChildren: optional(int32(1))}, leaf("doc", format.Required)}
	v := bytes.Repeat([]byte("s"), n)
	data := page(format.PageHeader{Type: format.DataPage, DataPageHeader: optional(format.DataPageHeader{
		NumValues: 1, Encoding: format.Plain, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE,
		Statistics: format.Statistics{MinValue: v, MaxValue: v},
	})}, append(binary.LittleEndian.AppendUint32(nil, uint32(n)), v...))
	return oneColumn(schema, []string{"doc"}, data, 1, 1, false)
}
