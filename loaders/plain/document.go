package plain

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"evalview/loaders/internal/jsondoc"
	"evalview/loaders/internal/jsonhead"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// A file that is one JSON value rather than one a line (a pretty-printed
// export, a minified one on one line) shows the records it holds: the
// elements of a top-level array, or of the one list of objects an object
// holds (a member, or a member of a member: {"results": {"results":
// [...]}}). Where it holds several such lists, the longest of the
// shallowest is the records and a note names the others; where it holds
// none, the document is one record, and a note says so. Nothing of the
// file is guessed silently: its facts say where the records were taken
// from.
//
// The document is walked once, as a stream (loaders/internal/jsondoc),
// for where its lists' elements start and end. One of at most
// maxDocument is then read whole and its records built from it, kept as
// list rows; a larger one is indexed by its records' offsets, as a JSON
// Lines file is (document_stream.go), whatever its size. Both give the
// same records and issues.
//
// A document that breaks (cut short, a bad token, another value after
// its end) keeps the records before the break, and an error names the
// line and byte where it breaks.

// maxDocument is the largest JSON document read whole for its records:
// that takes about three times its size, and export of a record of it
// ten. A larger one is indexed by offsets. A variable, so tests can
// lower it.
var maxDocument int64 = 8 << 20

// errNotDocument tells that a file read as a JSON document is not one
// (a value on one line, then more: JSON Lines); it is read line by line.
var errNotDocument = errors.New("not one JSON document")

// isDocument tells whether head starts one JSON value that runs over
// more than its first line, or fills a file of one line that is an array
// or an object holding a list of objects: a document, not JSON Lines. A
// first line that is a bracket alone is one (no JSON Lines record is),
// however the rest reads: a pretty-printed document broken early is
// still a document.
func isDocument(head []byte, size int64) bool {
	t := bytes.TrimLeft(bytes.TrimPrefix(head, bom), " \t\r\n")
	if len(t) == 0 || t[0] != '{' && t[0] != '[' {
		return false
	}
	line, _, _ := bytes.Cut(t, []byte("\n"))
	if bracketAlone(line) {
		return true
	}
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

// bracketAlone reports whether line is an opening bracket or brace and
// white space: how pretty-printers start a document.
func bracketAlone(line []byte) bool {
	t := bytes.TrimSpace(line)
	return len(t) == 1 && (t[0] == '[' || t[0] == '{')
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

// docPlan is where a walked document's records are, and where it breaks.
type docPlan struct {
	doc *jsondoc.Doc
	// list holds the records; nil when the document itself is the one
	// record (whole: it holds no list of objects, and ends), or when it
	// breaks before any list.
	list  *jsondoc.List
	whole bool
	// others are the other lists of objects, with their lengths.
	others []string
	// brk says why the document breaks, at byte brkOff on line brkLine;
	// "" when it does not.
	brk     string
	brkOff  int64
	brkLine int
}

// maxOthers is how many lists besides the records' the facts and a note
// name.
const maxOthers = 20

// planDocument decides, from a walk of the file r (of size bytes),
// whether it is a document and where its records are; errNotDocument
// when it is JSON Lines after all.
//
// A value on one line followed by more is JSON Lines, whose first line
// is longer than the head isDocument reads. So is a value that breaks on
// its first line or the next, with more lines after the break, unless it
// starts with a bracket alone: a JSON Lines file whose first line is cut
// short reads on into the next line before it breaks. Else a break is the
// document's: cut short, or a bad token in it.
func planDocument(r io.ReaderAt, size int64, d *jsondoc.Doc) (*docPlan, error) {
	p := &docPlan{doc: d}
	switch {
	case d.More >= 0:
		if n, err := newlines(r, d.Start, d.End, 1); err != nil {
			return nil, err
		} else if n == 0 {
			return nil, errNotDocument
		}
		p.brk, p.brkOff = "another value follows the document's end", d.More
	case d.Break != nil:
		first, err := readSome(r, d.Start, 4096)
		if err != nil {
			return nil, err
		}
		line, _, _ := bytes.Cut(first, []byte("\n"))
		n, err := newlines(r, d.Start, d.Break.Offset, 2)
		if err != nil {
			return nil, err
		}
		if !bracketAlone(line) && n <= 1 {
			blank, err := blankAfterLine(r, d.Break.Offset, size)
			if err != nil {
				return nil, err
			}
			if !blank {
				return nil, errNotDocument
			}
		}
		p.brk, p.brkOff = d.Break.Msg, d.Break.Offset
	}
	if p.brk != "" {
		n, err := newlines(r, 0, p.brkOff, -1)
		if err != nil {
			return nil, err
		}
		p.brkLine = n + 1
	}
	// The records: the top array's elements, else the shallowest list of
	// objects (the longest among lists as shallow), else the document
	// (the walk chose).
	p.list = d.Records
	more := d.Unlisted // not named
	for _, l := range d.Lists {
		if l != p.list && l.Objects && l.Len > 0 {
			if len(p.others) == maxOthers {
				more++
				continue
			}
			p.others = append(p.others, fmt.Sprintf("%s (%d)", l.Path, l.Len))
		}
	}
	if more > 0 {
		p.others = append(p.others, fmt.Sprintf("%d more lists", more))
	}
	p.whole = p.list == nil && d.Break == nil // a whole value, more after it or not
	return p, nil
}

// from is the records' list's path, "" for the document itself.
func (p *docPlan) from() string {
	if p.list == nil {
		return ""
	}
	return p.list.Path
}

// describe gives ds the document's facts and its notes, once its records
// are indexed (keys: their fields), and the break's error.
func (p *docPlan) describe(ds *model.Dataset, path string, n int, keys *keyList) {
	if p.brk != "" {
		ds.Issues = append(ds.Issues, model.Errorf("bad-json", path, p.brkLine, "",
			"the document breaks here: %s (at byte %d); the records before it are shown, nothing after it is read", p.brk, p.brkOff))
	}
	if n == 0 && len(ds.Issues) == 0 {
		ds.Issues = append(ds.Issues, model.Warnf("empty-file", path, 0, "", "the document holds no records"))
	}
	from := p.from()
	what := "the document itself, one record: it holds no list of objects"
	switch {
	case from == "$":
		what = fmt.Sprintf("the %s of its top-level array", count(p.list.Len, "element"))
	case from != "":
		what = fmt.Sprintf("the %s of its list %s", count(p.list.Len, "object"), from)
	case !p.whole:
		what = "none: the document breaks before any list of objects"
	}
	if p.brk != "" {
		what += fmt.Sprintf(", read up to line %d, where it breaks", p.brkLine)
	}
	ds.Facts = []model.Fact{
		{Key: "format", Value: "a JSON document, its records shown as plain records"},
		{Key: "records", Value: what},
	}
	if len(p.others) > 0 {
		ds.Facts = append(ds.Facts, model.Fact{Key: "other lists", Value: strings.Join(p.others, ", ")})
		ds.Issues = append(ds.Issues, model.Notef("document-records", path, 0, "",
			"the document holds several lists of objects: its records are %s, the longest of the shallowest; the others (%s) are in the document's fields", from, strings.Join(p.others, ", ")))
	}
	switch {
	case p.whole:
		ds.Issues = append(ds.Issues, model.Notef("document-records", path, 0, "",
			"the document holds no list of objects (an array, or a list under its top object or one level down): it is shown as one record, its members its fields"))
	case from == "$" && !p.list.Objects && p.list.Len > 0:
		ds.Issues = append(ds.Issues, model.Notef("document-records", path, 0, "",
			"the elements of its top-level array are not objects: each is a record of one field, value"))
	}
	if len(keys.order) > 0 {
		ds.Facts = append(ds.Facts, model.Fact{Key: "fields", Value: keys.String()})
	}
}

// count is n things, "1 thing" or "2 things".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// span is one element's place in the document.
type span struct {
	off  int64
	size int
}

// openDocument indexes the records of a JSON document of at most
// maxDocument into ds, reading it whole; errNotDocument when it is JSON
// Lines after all.
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
	spans := map[*jsondoc.List][]span{}
	d, err := jsondoc.Walk(bytes.NewReader(data[start:]), int64(start), func(l *jsondoc.List, _ int, off, size int64) error {
		spans[l] = append(spans[l], span{off, int(size)})
		return nil
	}, func(l *jsondoc.List) { delete(spans, l) })
	if err != nil {
		return err
	}
	p, err := planDocument(bytes.NewReader(data), int64(len(data)), d)
	if err != nil {
		return err
	}
	if start > 0 {
		ds.Issues = append(ds.Issues, model.Warnf("bom", path, 1, "", "file starts with a UTF-8 byte-order mark; read past it"))
	}
	recs := spans[p.list]
	if p.whole {
		recs = []span{{d.Start, int(d.End - d.Start)}}
	}
	inList := p.list != nil
	x := &jsonl.LineIndex{Path: path, Build: func(e jsonl.LineEntry, b []byte) *model.Record {
		rec, bad := build(path, e.Sum.Line, b, true)
		if bad != nil {
			return nil
		}
		rename(rec, e.Sum.ID)
		return rec
	}}
	firstOf := map[string]int{}
	var keys keyList
	var bad badElements
	line, at := 1, 0 // the line at byte at, counted as the records come in order
	for i, sp := range recs {
		line += bytes.Count(data[at:sp.off], []byte("\n"))
		at = int(sp.off)
		rec, is := docRecord(path, line, i, sp.off, data[sp.off:sp.off+int64(sp.size)], inList, false)
		if is != nil {
			bad.add(ds, *is)
			continue
		}
		e := jsonl.LineEntry{Off: sp.off, Size: sp.size}
		if first, dup := firstOf[rec.ID]; dup {
			id := rec.ID + " (record " + strconv.Itoa(i+1) + ")"
			e.Extra = append(e.Extra, dupPlace(path, line, id, rec.ID, first))
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
	bad.end(ds, path)
	ds.Records = x
	p.describe(ds, path, len(x.Recs), &keys)
	return nil
}

// docRecord builds the record of element pos of a document's list (of the
// document itself, when inList is false), at byte off of the file and on
// line line: named by its place in the list ("record 3") when it has no
// id of its own and the list holds the records.
func docRecord(path string, line, pos int, off int64, data []byte, inList, full bool) (*model.Record, *model.Issue) {
	v := bytes.TrimSpace(data)
	rec, bad := build(path, line, v, full)
	if bad != nil {
		is := model.Errorf("bad-json", path, line, "", "%s is not JSON: %s", elemName(pos, inList), jsonErrorAt(v, off))
		return nil, &is
	}
	byPlace(rec, line, pos, inList)
	return rec, nil
}

// elemName names element pos of the records' list, or the document.
func elemName(pos int, inList bool) string {
	if !inList {
		return "the document"
	}
	return "element " + strconv.Itoa(pos+1)
}

// byPlace names rec by its place in the list when it has no id.
func byPlace(rec *model.Record, line, pos int, inList bool) {
	if inList && rec.ID == "line "+strconv.Itoa(line) {
		rename(rec, "record "+strconv.Itoa(pos+1)) // several may start on one line
	}
}

// dupPlace is the warning of a record whose id an earlier one (the
// first-th of the list) gives: it is named by its place (id).
func dupPlace(path string, line int, id, was string, first int) model.Issue {
	return model.Warnf("duplicate-id", path, line, id, "id %q is also the id of record %d; this record is named by its place", was, first)
}

// badElements lists the elements that are not JSON, maxBadLines of them
// one by one and the rest in one issue, as lines are.
type badElements struct {
	n     int
	first int // the line of the first not listed
}

func (b *badElements) add(ds *model.Dataset, is model.Issue) {
	if b.n++; b.n <= maxBadLines {
		ds.Issues = append(ds.Issues, is)
	} else if b.n == maxBadLines+1 {
		b.first = is.Line
	}
}

func (b *badElements) end(ds *model.Dataset, path string) {
	if b.n > maxBadLines {
		ds.Issues = append(ds.Issues, model.Errorf("bad-json", path, b.first, "", "%d more elements from here on are not JSON (the first %d are listed)", b.n-maxBadLines, maxBadLines))
	}
}

// jsonErrorAt says what is wrong with an element that is not JSON, at
// byte off of the file: where, the offset in the file of the byte that
// is wrong, as a document's break is said.
func jsonErrorAt(v []byte, off int64) string {
	var x any
	err := json.Unmarshal(v, &x)
	var se *json.SyntaxError
	switch {
	case err == nil:
		return "not valid JSON"
	case errors.As(err, &se):
		// Offset counts the bytes read, the wrong one with them.
		return se.Error() + " (at byte " + strconv.FormatInt(off+max(se.Offset-1, 0), 10) + ")"
	}
	return err.Error()
}

// newlines counts the line ends of r in [from, to), stopping once it has
// counted stop of them (stop < 0: all).
func newlines(r io.ReaderAt, from, to int64, stop int) (int, error) {
	buf := make([]byte, min(256<<10, max(to-from, 0)))
	n := 0
	for from < to && (stop < 0 || n < stop) {
		k, err := r.ReadAt(buf[:min(int64(len(buf)), to-from)], from)
		n += bytes.Count(buf[:k], []byte("\n"))
		from += int64(k)
		if err != nil && from < to {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return n, err
		}
	}
	return n, nil
}

// readSome reads up to n bytes of r at off (fewer at its end).
func readSome(r io.ReaderAt, off int64, n int) ([]byte, error) {
	buf := make([]byte, n)
	k, err := r.ReadAt(buf, off)
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return buf[:k], err
}

// blankAfterLine reports whether r (of size bytes) holds nothing but
// white space after the line that holds byte off.
func blankAfterLine(r io.ReaderAt, off, size int64) (bool, error) {
	seen := false // the line's end
	for off < size {
		b, err := readSome(r, off, 64<<10)
		if err != nil || len(b) == 0 {
			return false, err
		}
		if !seen {
			k := bytes.IndexByte(b, '\n')
			if k < 0 {
				off += int64(len(b))
				continue
			}
			seen, b, off = true, b[k+1:], off+int64(k+1)
		}
		if len(bytes.TrimLeft(b, " \t\r\n")) > 0 {
			return false, nil
		}
		off += int64(len(b))
	}
	return true, nil
}

// jsonValid is encoding/json's Valid, Python's NaN and Infinity allowed.
func jsonValid(b []byte) bool {
	if q, n := jsonl.QuoteNonFinite(b); n > 0 {
		b = q
	}
	return len(b) > 0 && json.Valid(b)
}
