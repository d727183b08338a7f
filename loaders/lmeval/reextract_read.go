package lmeval

import (
	"bytes"

	"evalview/loaders/jsonl"
	"evalview/loaders/source"
)

// Reading rows for the deep check. A doc has one row per filter, and every
// row repeats the doc's resps; re-extraction needs them once (from the
// first row) and only filtered_resps from the others. The harness writes
// filtered_resps after resps, near the end of the row, so for the other
// rows only the row's tail is read and parsed backwards from the closing
// brace. Each worker reads a plain file through its own handle into
// buffers it reuses, so reading allocates nothing per row.

// tailSize is how much of a row is read first to find filtered_resps.
const tailSize = 4096

// deepReader reads rows for one deep-check worker and holds its
// re-extraction buffers. It is not safe for concurrent use; a row it
// returns is valid until its next read.
type deepReader struct {
	x *index
	f source.File // nil for compressed files (rows come from x.s.rd)
	// head holds a record's first row, which stays in use (the doc for
	// multi_choice_regex) while the other rows are read into tail or,
	// when their filtered_resps is not in the tail, rest.
	head, tail, rest []byte
	// scratch is the worker's re-extraction buffers.
	scratch runScratch
	// arena holds the decoded repeat texts of the doc being re-extracted.
	arena textArena
	// quick is the worker's buffers for the Quick path.
	quick quickScratch
	// strs holds the doc's repeat texts.
	strs []string
}

func (x *index) newDeepReader() *deepReader {
	r := &deepReader{x: x}
	if x.s.comp == jsonl.Plain {
		r.f, _ = source.Open(x.s.path) // on failure rows are read by x.s.rd
	}
	return r
}

// Close closes the reader's file.
func (r *deepReader) Close() {
	if r.f != nil {
		r.f.Close()
	}
}

// row returns the whole row at loc, read into head.
func (r *deepReader) row(loc rowLoc) ([]byte, bool) { return r.readInto(&r.head, loc) }

// readInto returns the whole row at loc, read into *buf.
func (r *deepReader) readInto(buf *[]byte, loc rowLoc) ([]byte, bool) {
	if data := r.x.s.inMemory(loc); data != nil {
		return data, true
	}
	if r.f == nil {
		b, err := r.x.s.rd.read(loc.off, int(loc.size))
		return bytes.TrimPrefix(b, bom), err == nil
	}
	*buf = grow(*buf, int(loc.size))
	if _, err := r.f.ReadAt(*buf, loc.off); err != nil {
		return nil, false
	}
	return bytes.TrimPrefix(*buf, bom), true
}

// filteredResps returns the row's filtered_resps value, read from the
// row's tail when it is there; ok is false when the row cannot be read or
// has none.
func (r *deepReader) filteredResps(loc rowLoc) ([]byte, bool) {
	if r.x.s.whole == nil && r.f != nil && int(loc.size) > tailSize {
		r.tail = grow(r.tail, tailSize)
		if _, err := r.f.ReadAt(r.tail, loc.off+int64(loc.size)-tailSize); err == nil {
			if v, ok := lastField(r.tail, "filtered_resps"); ok {
				return v, true
			}
		}
	}
	raw, ok := r.readInto(&r.rest, loc)
	if !ok {
		return nil, false
	}
	return lastField(raw, "filtered_resps")
}

// scalarEnds are the bytes that cannot be part of a number or literal.
var scalarEnds = []byte(",:[{ \t\n\r\"}]")

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// lastField returns the value of the last top-level key in the JSON
// object that data ends with (data may start anywhere inside it), parsing
// backwards from the closing brace: the value Skim's last duplicate would
// give, as json.loads keeps the last. It gives up (false) when the key is
// not found before data's start or the bytes do not read as JSON.
//
// Reading backwards is unambiguous outside strings: a quote preceded by
// an odd run of backslashes is escaped, the same rule as forwards.
func lastField(data []byte, key string) ([]byte, bool) {
	v, _, ok := lastFieldAt(data, key)
	return v, ok
}

// lastFieldAt is lastField, also returning where the key's opening quote
// is in data.
func lastFieldAt(data []byte, key string) (value []byte, keyStart int, ok bool) {
	i := backSpace(data, len(data)-1)
	if i < 0 || data[i] != '}' {
		return nil, 0, false
	}
	i--
	for {
		i = backSpace(data, i)
		if i < 0 || data[i] == '{' {
			return nil, 0, false
		}
		vEnd := i + 1
		vStart := backValue(data, i)
		if vStart <= 0 {
			return nil, 0, false
		}
		i = backSpace(data, vStart-1)
		if i < 0 || data[i] != ':' {
			return nil, 0, false
		}
		i = backSpace(data, i-1)
		if i < 0 || data[i] != '"' {
			return nil, 0, false
		}
		kStart := backString(data, i)
		if kStart < 0 {
			return nil, 0, false
		}
		if string(data[kStart+1:i]) == key {
			return data[vStart:vEnd], kStart, true
		}
		i = backSpace(data, kStart-1)
		if i < 0 || data[i] != ',' {
			return nil, 0, false // the object's start, or not JSON
		}
		i--
	}
}

// backSpace returns the last index at or before i that is not JSON
// whitespace, -1 when there is none.
func backSpace(data []byte, i int) int {
	for i >= 0 && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i--
	}
	return i
}

// backString returns the index of the opening quote of the string whose
// closing quote is at end, -1 when it starts before data.
func backString(data []byte, end int) int {
	for j := end - 1; ; {
		k := bytes.LastIndexByte(data[:j+1], '"')
		if k < 0 {
			return -1
		}
		bs := 0
		for m := k - 1; m >= 0 && data[m] == '\\'; m-- {
			bs++
		}
		if k-bs == 0 {
			return -1 // what comes before data may escape it
		}
		if bs%2 == 0 {
			return k
		}
		j = k - 1
	}
}

// backValue returns the start of the value that ends at end, -1 when it
// starts before data or does not read as a value.
func backValue(data []byte, end int) int {
	switch c := data[end]; c {
	case '"':
		return backString(data, end)
	case '}', ']':
		depth := 0
		for j := end; j >= 0; j-- {
			switch data[j] {
			case '"':
				k := backString(data, j)
				if k < 0 {
					return -1
				}
				j = k
			case '}', ']':
				depth++
			case '{', '[':
				depth--
				if depth == 0 {
					return j
				}
			}
		}
		return -1
	default:
		j := end
		for j >= 0 && bytes.IndexByte(scalarEnds, data[j]) < 0 {
			j--
		}
		if j < 0 {
			return -1
		}
		return j + 1
	}
}
