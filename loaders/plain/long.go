package plain

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"evalview/loaders/internal/jsonscan"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// A line longer than longLine (a 2 GB line took 12 GB, issue 30) is never
// held whole: it is walked as a stream (jsonscan), which checks its
// structure and keeps the head of each top-level value, fieldHead bytes
// at most and recordHead for all of them together; the record's raw JSON
// is the line's head, and the rest is read only when asked for (the
// pager: RawPart.Full), as lm-eval reads a 200 MB row.
const (
	fieldHead  = 1 << 20
	recordHead = 8 << 20
	rawHead    = 1 << 20
)

// buildLong builds the record of the cut line l, reading it again from
// the file as a stream; full asks for its raw JSON too. what names it in
// an issue ("line", or a document's "element 3"); in a document, where an
// element is broken is counted in the file, not from the element's
// start.
func (x *index) buildLong(l jsonl.Line, full bool, what string) (*model.Record, *model.Issue) {
	bad := func(format string, args ...any) (*model.Record, *model.Issue) {
		is := model.Errorf("bad-json", x.path, l.N, "", format, args...)
		return nil, &is
	}
	f, err := source.Open(x.path)
	if err != nil {
		return bad("cannot read the %s again: %v", what, err)
	}
	defer f.Close()
	sc := jsonscan.New(io.NewSectionReader(f, l.Offset, l.Size))
	defer sc.Release()
	var members []member
	var dups []string
	seen := map[string]int{}
	left := recordHead
	capture := func(key string) error {
		start := sc.Offset()
		raw, cut, err := sc.Capture(min(fieldHead, left))
		if err != nil {
			return err
		}
		if !cut && !json.Valid(raw) {
			// jsonscan checks the structure; a value it kept whole is
			// checked as encoding/json would.
			return fmt.Errorf("the value of %q is not valid JSON", key)
		}
		left -= len(raw)
		m := member{Member: jsonl.Member{Key: key, Value: bytes.Clone(raw)}}
		if cut {
			m.more = sc.Offset() - start - int64(len(raw))
		}
		if i, ok := seen[key]; ok {
			dups = append(dups, key)
			members[i] = m // the last value wins, as in encoding/json
			return nil
		}
		seen[key] = len(members)
		members = append(members, m)
		return nil
	}
	c, ok := sc.Peek()
	switch {
	case !ok:
		return bad("%s is not JSON: it ends before its value", what)
	case c == '{':
		err = sc.Object(capture)
	default:
		// A line that is JSON but not an object is a record of one value.
		err = capture("value")
	}
	base := int64(0)
	if x.doc != nil {
		base = l.Offset
	}
	if err == nil {
		if c, ok := sc.Peek(); ok {
			err = fmt.Errorf("invalid character %q after the value (at byte %d)", c, base+sc.Offset())
		}
	}
	if se := (*jsonscan.SyntaxError)(nil); errors.As(err, &se) {
		se.Offset += base
	}
	if err != nil {
		return bad("%s is not JSON: %v", what, err)
	}
	whole := func() string {
		if len(members) == 1 && members[0].Key == "value" && members[0].more == 0 {
			return jsonl.Clip(jsonl.Compact(members[0].Value), maxTitle) // an array or a scalar
		}
		return jsonl.Clip(string(bytes.TrimSpace(l.Data[:min(len(l.Data), 4*maxTitle)])), maxTitle)
	}
	r := fill(x.path, l.N, members, dups, full, whole)
	if full {
		path, off, size := x.path, l.Offset, l.Size
		head, err := readLine(path, off, min(size, rawHead))
		if err != nil {
			return bad("cannot read the %s again: %v", what, err)
		}
		part := model.RawPart{Label: "line " + strconv.Itoa(l.N), File: x.path, Line: l.N, JSON: bytes.TrimSpace(head)}
		if size > int64(len(head)) {
			part.Omitted = int(size) - len(head)
			part.Full = func() ([]byte, error) { return readLine(path, off, size) }
		}
		r.Raw = []model.RawPart{part}
	}
	return r, nil
}

// readLine reads size bytes at off of the file at path: a long line
// whole, when the pager asks for it.
func readLine(path string, off, size int64) ([]byte, error) {
	f, err := source.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, size)
	if _, err := f.ReadAt(buf, off); err != nil && !(err == io.EOF) {
		return nil, err
	}
	return buf, nil
}

// headString decodes the head of a JSON string cut short (its opening
// quote and some of its text): the escapes complete in it, an escape or
// a UTF-8 sequence cut at its end left out.
func headString(raw []byte) string {
	for k := 0; k <= 12 && k < len(raw); k++ {
		if s, ok := jsonl.String(append(bytes.Clone(raw[:len(raw)-k]), '"')); ok {
			return strings.ToValidUTF8(s, string(utf8.RuneError))
		}
	}
	return ""
}
