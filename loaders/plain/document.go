package plain

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"evalview/loaders/internal/jsonhead"
	"evalview/loaders/internal/jsonscan"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// A file that is one JSON value rather than one a line (a pretty-printed
// export, a minified one on one line) shows the records it holds: the
// elements of a top-level array, or of the one list of objects an object
// holds (a member, or a member of a member: {"results": {"results":
// [...]}}). Where it holds several such lists, the longest is the
// records and a note names the others; where it holds none, the document
// is one record. Nothing of the file is guessed silently: its facts say
// where the records were taken from.

// maxDocument is the largest JSON document read whole to find its
// records: the records are indexed by their place in the file and read
// again from it, but finding them reads the document at once.
const maxDocument = 512 << 20

// isDocument tells whether head starts one JSON value that runs over
// more than its first line, or fills a file of one line that is an array
// or an object holding a list of objects: a document, not JSON Lines.
func isDocument(head []byte, size int64) bool {
	t := bytes.TrimLeft(bytes.TrimPrefix(head, bom), " \t\r\n")
	if len(t) == 0 || t[0] != '{' && t[0] != '[' {
		return false
	}
	line, _, _ := bytes.Cut(t, []byte("\n"))
	if !jsonValid(bytes.TrimSpace(line)) {
		v := jsonhead.Parse(t, 0)
		return v != nil && !v.Bad
	}
	// The first line is a whole value: a document only when it is all the
	// file holds and it holds records.
	if int64(len(head)) < size || len(bytes.TrimSpace(t)) != len(bytes.TrimSpace(line)) {
		return false
	}
	v := jsonhead.Parse(t, 2)
	return v.Is(jsonhead.Array) || len(lists(v, "", 2)) > 0
}

// lists are the paths of the lists of objects v holds, depth levels of
// members down ("results", "results.results").
func lists(v *jsonhead.Value, at string, depth int) []string {
	if !v.Is(jsonhead.Object) || depth <= 0 {
		return nil
	}
	var out []string
	for _, k := range v.Keys {
		c := v.Get(k)
		p := joinPath(at, k)
		if c.Is(jsonhead.Array) && len(c.Elems) > 0 && c.Elems[0].Is(jsonhead.Object) {
			out = append(out, p)
		}
		out = append(out, lists(c, p, depth-1)...)
	}
	return out
}

func joinPath(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

// span is one record's place in the document.
type span struct {
	off  int64
	size int
}

// list is a list of objects found in the document: its path and its
// elements' places.
type list struct {
	path  string
	depth int
	elems []span
}

// openDocument indexes a JSON document's records into ds.
func openDocument(path string, ds *model.Dataset) error {
	st, err := source.Stat(path)
	if err != nil {
		return err
	}
	if st.Size() > maxDocument {
		return fmt.Errorf("a JSON document of %d MB: too large to read whole for its records (at most %d MB)", st.Size()>>20, maxDocument>>20)
	}
	data, err := source.ReadFile(path)
	if err != nil {
		return err
	}
	start := len(data) - len(bytes.TrimPrefix(data, bom))
	if start > 0 {
		ds.Issues = append(ds.Issues, model.Warnf("bom", path, 1, "", "file starts with a UTF-8 byte-order mark; read past it"))
	}
	s := jsonscan.New(bytes.NewReader(data[start:]))
	defer s.Release()
	var (
		found []list
		whole span
	)
	c, _ := s.Peek()
	whole.off = int64(start) + s.Offset()
	switch c {
	case '[':
		l := list{path: "$"}
		err = s.Array(func(int) error {
			sp, err := spanOf(s, start)
			l.elems = append(l.elems, sp)
			return err
		})
		found = append(found, l)
	default:
		err = members(s, start, "", 1, &found)
	}
	whole.size = int(int64(start)+s.Offset()) - int(whole.off)
	if err != nil {
		var se *jsonscan.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("not one JSON document: %v", err)
		}
		return err
	}
	if rest := bytes.TrimSpace(data[int(whole.off)+whole.size:]); len(rest) > 0 {
		return fmt.Errorf("not one JSON document: more follows its end (at byte %d)", int(whole.off)+whole.size)
	}
	// The records: the top array's elements, else the shallowest list of
	// objects (the longest among lists as shallow), else the document.
	recs, from, others := []span{whole}, "", []string(nil)
	best := -1
	for i, l := range found {
		if len(l.elems) == 0 || l.path != "$" && !isObjectAt(data, l.elems[0]) {
			continue
		}
		switch {
		case best < 0, l.depth < found[best].depth, l.depth == found[best].depth && len(l.elems) > len(found[best].elems):
			best = i
		}
	}
	for i, l := range found {
		if i != best && len(l.elems) > 0 && l.path != "$" && isObjectAt(data, l.elems[0]) {
			others = append(others, fmt.Sprintf("%s (%d)", l.path, len(l.elems)))
		}
	}
	if best >= 0 {
		recs, from = found[best].elems, found[best].path
	}
	x := &jsonl.LineIndex{Path: path, Build: func(e jsonl.LineEntry, b []byte) *model.Record {
		rec, bad := build(path, e.Sum.Line, b)
		if bad != nil {
			return nil
		}
		rename(rec, e.Sum.ID)
		return rec
	}}
	firstOf := map[string]int{}
	var keys keyList
	line, at := 1, 0 // the line at byte at, counted as the records come in order
	for i, sp := range recs {
		line += bytes.Count(data[at:sp.off], []byte("\n"))
		at = int(sp.off)
		rec, bad := build(path, line, data[sp.off:sp.off+int64(sp.size)])
		if bad != nil {
			ds.Issues = append(ds.Issues, *bad)
			continue
		}
		if from != "" && rec.ID == "line "+strconv.Itoa(line) {
			rename(rec, "record "+strconv.Itoa(i+1)) // its place in the list: several may start on one line
		}
		e := jsonl.LineEntry{Off: sp.off, Size: sp.size}
		if first, dup := firstOf[rec.ID]; dup {
			id := rec.ID + " (record " + strconv.Itoa(i+1) + ")"
			e.Extra = append(e.Extra, model.Warnf("duplicate-id", path, line, id, "id %q is also the id of record %d; this record is named by its place", rec.ID, first))
			rename(rec, id)
			rec.Issues = append(rec.Issues, e.Extra...)
			rec.Errors, rec.Warnings = model.CountIssues(rec.Issues)
		} else {
			firstOf[rec.ID] = i + 1
		}
		for _, fl := range rec.Fields {
			keys.add(fl.Name)
		}
		e.Sum = rec.Summary
		x.Recs = append(x.Recs, e)
	}
	if len(x.Recs) == 0 && len(ds.Issues) == 0 {
		ds.Issues = append(ds.Issues, model.Warnf("empty-file", path, 0, "", "the document holds no records"))
	}
	ds.Records = x
	what := "the document itself, one record: it holds no list of objects"
	switch {
	case from == "$":
		what = fmt.Sprintf("the %d elements of its top-level array", len(recs))
	case from != "":
		what = fmt.Sprintf("the %d objects of its list %s", len(recs), from)
	}
	ds.Facts = []model.Fact{
		{Key: "format", Value: "a JSON document, its records shown as plain records"},
		{Key: "records", Value: what},
	}
	if len(others) > 0 {
		ds.Facts = append(ds.Facts, model.Fact{Key: "other lists", Value: strings.Join(others, ", ")})
		ds.Issues = append(ds.Issues, model.Notef("document-records", path, 0, "",
			"the document holds several lists of objects: its records are %s, the longest of the shallowest; the others (%s) are in the document's fields", from, strings.Join(others, ", ")))
	}
	if len(keys.order) > 0 {
		ds.Facts = append(ds.Facts, model.Fact{Key: "fields", Value: keys.String()})
	}
	return nil
}

// members walks an object's members, gathering the lists of values its
// members (and, depth levels down, theirs) hold, with their elements'
// places.
func members(s *jsonscan.Scanner, start int, at string, depth int, found *[]list) error {
	return s.Object(func(k string) error {
		p := joinPath(at, k)
		c, _ := s.Peek()
		switch {
		case c == '[':
			l := list{path: p, depth: strings.Count(p, ".")}
			err := s.Array(func(int) error {
				sp, err := spanOf(s, start)
				l.elems = append(l.elems, sp)
				return err
			})
			*found = append(*found, l)
			return err
		case c == '{' && depth > 0:
			return members(s, start, p, depth-1, found)
		}
		return s.Skip()
	})
}

// spanOf consumes the next value and gives its place in the file (start
// is where the scanned bytes begin in it).
func spanOf(s *jsonscan.Scanner, start int) (span, error) {
	s.Peek() // past white space
	off := s.Offset()
	err := s.Skip()
	return span{off: int64(start) + off, size: int(s.Offset() - off)}, err
}

// isObjectAt reports whether the value at sp is an object.
func isObjectAt(data []byte, sp span) bool {
	return sp.size > 0 && data[sp.off] == '{'
}

// jsonValid is encoding/json's Valid, Python's NaN and Infinity allowed.
func jsonValid(b []byte) bool {
	if q, n := jsonl.QuoteNonFinite(b); n > 0 {
		b = q
	}
	return len(b) > 0 && json.Valid(b)
}
