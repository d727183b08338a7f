package jsondoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// span is an element as the walk or encoding/json finds it.
type span struct {
	list     string
	i        int
	off, end int64
}

// found is what a walk reports: its lists, as "path depth objects len",
// and their elements.
type found struct {
	lists   []string
	elems   []span
	records string // the records' list's path
	doc     *Doc
}

func walk(t testing.TB, r io.Reader, base int64) found {
	var f found
	dropped := map[*List]bool{}
	d, err := Walk(r, base, func(l *List, i int, off, size int64) error {
		if dropped[l] {
			t.Fatalf("an element of %s, dropped", l.Path)
		}
		f.elems = append(f.elems, span{l.Path, i, off, off + size})
		return nil
	}, func(l *List) {
		if dropped[l] || l == nil || l.Len == 0 {
			t.Fatalf("%v dropped twice, or with no element", l)
		}
		dropped[l] = true
	})
	if err != nil {
		t.Fatalf("walk: %v", err)
	}
	for _, l := range d.Lists {
		f.lists = append(f.lists, fmt.Sprintf("%s %d %v %d", l.Path, l.Depth, l.Objects, l.Len))
	}
	// Every list that told elements was dropped but the records' one.
	for _, l := range d.Lists {
		if l.Len > 0 && l.Path != "$" && dropped[l] == (l == d.Records) {
			t.Fatalf("%s: dropped %v, the records' list %v", l.Path, dropped[l], l == d.Records)
		}
	}
	f.records = "none"
	if d.Records != nil {
		f.records = d.Records.Path
	}
	f.doc = d
	return f
}

// reference finds the same with encoding/json's Decoder, on data in
// memory: the elements it decodes before its first error, and the offset
// of that error (-1: data is one valid JSON value).
func reference(data []byte) (lists []string, elems []span, records string, errAt int64) {
	dec := json.NewDecoder(bytes.NewReader(data))
	// next is the first byte of the value after off, past white space
	// and a colon.
	next := func() byte {
		for _, c := range data[dec.InputOffset():] {
			switch c {
			case ' ', '\t', '\r', '\n', ':', ',':
				continue
			}
			return c
		}
		return 0
	}
	type list struct {
		path    string
		depth   int
		objects bool
		n       int
	}
	var ls []*list
	var elements func(l *list) error
	elements = func(l *list) error {
		if _, err := dec.Token(); err != nil { // [
			return err
		}
		for i := 0; dec.More(); i++ {
			if i == 0 {
				l.objects = next() == '{'
			}
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return err
			}
			if l.path == "$" || l.objects {
				end := dec.InputOffset()
				elems = append(elems, span{l.path, i, end - int64(len(raw)), end})
				l.n++
			}
		}
		_, err := dec.Token() // ]
		return err
	}
	var members func(at string, depth int) error
	members = func(at string, depth int) error {
		if _, err := dec.Token(); err != nil { // {
			return err
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			p := tok.(string)
			if at != "" {
				p = at + "." + p
			}
			switch c := next(); {
			case c == '[':
				l := &list{path: p, depth: depth}
				ls = append(ls, l)
				if err := elements(l); err != nil {
					return err
				}
			case c == '{' && depth < MaxDepth:
				if err := members(p, depth+1); err != nil {
					return err
				}
			default:
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return err
				}
			}
		}
		_, err := dec.Token() // }
		return err
	}
	var err error
	switch next() {
	case '[':
		l := &list{path: "$"}
		ls = append(ls, l)
		err = elements(l)
	case '{':
		err = members("", 0)
	default:
		var raw json.RawMessage
		err = dec.Decode(&raw)
	}
	records = "none"
	var best *list
	for _, l := range ls {
		lists = append(lists, fmt.Sprintf("%s %d %v %d", l.path, l.depth, l.objects, l.n))
		if l.path == "$" || l.objects && l.n > 0 && (best == nil || l.depth < best.depth || l.depth == best.depth && l.n > best.n) {
			best, records = l, l.path
		}
	}
	errAt = -1
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// The bad byte, or the one after it: Decode counts it in Offset,
		// Token does not.
		errAt = max(se.Offset-1, 0)
	case err != nil:
		errAt = dec.InputOffset()
	case !json.Valid(data):
		errAt = dec.InputOffset() // a value, then more
	}
	return lists, elems, records, errAt
}

// check holds the walk of data to encoding/json's: on a valid document,
// the same lists and elements and no break; on any, the elements
// encoding/json decodes before its error found the same (the walk is
// lenient inside elements, so it may report more), and no break or
// value after the document before encoding/json's error.
func check(t *testing.T, data []byte) {
	t.Helper()
	lists, elems, records, errAt := reference(data)
	got := walk(t, bytes.NewReader(data), 0)
	one := walk(t, iotest.OneByteReader(bytes.NewReader(data)), 0)
	if !reflect.DeepEqual(got.lists, one.lists) || !reflect.DeepEqual(got.elems, one.elems) ||
		(got.doc.Break == nil) != (one.doc.Break == nil) || got.doc.More != one.doc.More {
		t.Fatalf("%q: whole and one byte at a time differ:\n%v %v\n%v %v", data, got.lists, got.elems, one.lists, one.elems)
	}
	d := got.doc
	if errAt < 0 {
		if d.Break != nil || d.More >= 0 {
			t.Fatalf("%q: valid JSON, but the walk breaks (%v) or finds more at %d", data, d.Break, d.More)
		}
		if !reflect.DeepEqual(got.lists, lists) || !reflect.DeepEqual(got.elems, elems) || got.records != records {
			t.Fatalf("%q:\nwalk     %v %v %s\nencoding %v %v %s", data, got.lists, got.elems, got.records, lists, elems, records)
		}
		return
	}
	// An element next to encoding/json's error may be longer in the walk
	// (`07`: encoding/json decodes 0, then fails on 7), and is then no
	// JSON value of its own, which reading it says.
	for i, e := range elems {
		if i >= len(got.elems) || got.elems[i] != e && (e.end < errAt-1 || json.Valid(data[got.elems[i].off:got.elems[i].end])) {
			t.Fatalf("%q: encoding/json decodes %v before its error at %d; the walk found %v", data, elems, errAt, got.elems)
		}
	}
	if d.Break != nil && d.Break.Offset < errAt {
		t.Fatalf("%q: the walk breaks at %d (%v), before encoding/json's error at %d", data, d.Break.Offset, d.Break, errAt)
	}
	if d.More >= 0 && d.More < errAt {
		t.Fatalf("%q: the walk finds more at %d, before encoding/json's error at %d", data, d.More, errAt)
	}
}

var docs = []string{
	`[]`,
	"[\n  {\"id\": 1, \"q\": \"a ] } [ {\"},\n  {\"id\": 2}\n]\n",
	`[1, "two", [3], {"four": 4}, null]`,
	`{"name": "run", "rows": [{"a": 1}, {"a": 2}], "nums": [1, 2], "empty": []}`,
	`{"results": {"prompts": [{"raw": "p"}], "results": [{"id": "r1"}, {"id": "r2"}], "deep": {"x": [{"no": 1}]}}}`,
	`{"a.b": [{"k": 1}], "c": {"a": [{"k": 2}]}}`,
	`{"k\u00e9y": [{"\"": "\\"}], "k": "v"}`,
	`"just a string"`,
	` 42 `,
	`{}`,
	`{"a": 1, "a": [{"x": 1}], "a": [{"x": 2}, {"x": 3}]}`,
	"\t[ {\"a\":\"\\u00e9\\\"\"} , {\"b\": [1, {\"c\": []}]} ]\r\n",
	// broken ones
	"[\n  {\"id\": 1},\n  {\"id\": 2},\n  {\"id\"",
	`[{"a": [1}, {"b": 2}]`,
	`[{"a": 1} {"b": 2}]`,
	`[{"a": tru}, {"b": 2}]`,
	`{"rows": [{"a": 1}, {"a": 2}], "more": [{"b": 1}, `,
	`{"a": 1}{"b": 2}`,
	"{\"a\": 1}\n{\"b\": 2}\n",
	`[{"a": 1},]`,
	`{"a" 1}`,
	`[{"a": 1}, ]`,
	`{"a": [{"b": 1}], }`,
	"[\x00]",
	`]`,
	``,
}

// TestWalk: every document of the list walked as encoding/json reads it.
func TestWalk(t *testing.T) {
	for _, d := range docs {
		check(t, []byte(d))
	}
}

// TestWalkFacts: the lists, offsets, break and what follows of a few
// documents, spelled out.
func TestWalkFacts(t *testing.T) {
	f := walk(t, strings.NewReader("[\n {\"a\": 1},\n 2\n]"), 10)
	if strings.Join(f.lists, "|") != "$ 0 true 2" || !reflect.DeepEqual(f.elems, []span{{"$", 0, 13, 21}, {"$", 1, 24, 25}}) || f.doc.Start != 10 || f.doc.End != 27 {
		t.Errorf("array: %v %v %+v", f.lists, f.elems, f.doc)
	}
	f = walk(t, strings.NewReader(`{"n": [1, 2], "r": {"s": [{"x": 1}], "t": {"u": [{"y": 1}]}}}`), 0)
	if strings.Join(f.lists, "|") != "n 0 false 0|r.s 1 true 1" {
		t.Errorf("object: lists %v (r.t.u is two objects down: not looked for)", f.lists)
	}
	f = walk(t, strings.NewReader("[{\"a\": 1}, {\"a\": 2}, {\"a\""), 0)
	if f.doc.Break == nil || f.doc.Break.Offset != 25 || len(f.elems) != 2 {
		t.Errorf("cut short: break %v, %d elements", f.doc.Break, len(f.elems))
	}
	f = walk(t, strings.NewReader(`{"a": [{}], "b": {"c": [{}, {}, {}]}, "d": [{}, {}], "e": [{}, {}]}`), 0)
	if f.records != "d" {
		t.Errorf("records in %s: the longest of the shallowest, the first of those as long, is d", f.records)
	}
	var many strings.Builder
	many.WriteString("{")
	for i := range MaxLists + 500 {
		fmt.Fprintf(&many, `"k%d": [%s{}], `, i, strings.Repeat("{}, ", i%7))
	}
	many.WriteString(`"last": [{}, {}, {}, {}, {}, {}, {}, {}]}`)
	f = walk(t, strings.NewReader(many.String()), 0)
	if len(f.doc.Lists) != MaxLists || f.doc.Unlisted != 501 || f.records != "last" {
		t.Errorf("%d lists named, %d more; records in %s", len(f.doc.Lists), f.doc.Unlisted, f.records)
	}
	f = walk(t, strings.NewReader("{\n\"a\": 1\n}\n{\"b\": 2}"), 0)
	if f.doc.Break != nil || f.doc.More != 11 || f.doc.End != 10 {
		t.Errorf("two values: %+v", f.doc)
	}
}

// genValue writes a random JSON value of at most depth levels to b,
// pretty-printed when indent is set.
func genValue(r *rand.Rand, b *strings.Builder, depth, level int, indent string, objects bool) {
	nl := func(level int) {
		if indent != "" {
			b.WriteString("\n" + strings.Repeat(indent, level))
		}
	}
	k := r.IntN(8)
	if objects {
		k = 6
	}
	if depth <= 0 && k >= 5 {
		k = r.IntN(5)
	}
	switch k {
	case 0:
		b.WriteString([]string{"true", "false", "null"}[r.IntN(3)])
	case 1:
		b.WriteString(strconv.FormatFloat(r.NormFloat64()*1e3, 'g', -1, 64))
	case 2, 3:
		b.WriteString(strconv.Quote(genString(r)))
	case 4:
		b.WriteString(strconv.Itoa(r.IntN(1000) - 500))
	case 5:
		b.WriteString("[")
		n := r.IntN(5)
		elemObjects := r.IntN(2) == 0
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			nl(level + 1)
			genValue(r, b, depth-1, level+1, indent, elemObjects && r.IntN(4) > 0)
		}
		if n > 0 {
			nl(level)
		}
		b.WriteString("]")
	default:
		b.WriteString("{")
		n := r.IntN(5)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			nl(level + 1)
			b.WriteString(strconv.Quote(genString(r)) + ":")
			if indent != "" {
				b.WriteString(" ")
			}
			genValue(r, b, depth-1, level+1, indent, false)
		}
		if n > 0 {
			nl(level)
		}
		b.WriteString("}")
	}
}

// genString is a short string of the characters JSON writers escape and
// a document's structure is made of.
func genString(r *rand.Rand) string {
	const chars = `ab {}[]",:\` + "\n\té"
	rs := []rune(chars)
	var s strings.Builder
	for range r.IntN(6) {
		s.WriteRune(rs[r.IntN(len(rs))])
	}
	return s.String()
}

// generate makes a random JSON document from seed: an array or an object,
// pretty-printed or not.
func generate(seed []byte) []byte {
	var a, b uint64
	for i, c := range seed {
		if i%2 == 0 {
			a = a*131 + uint64(c)
		} else {
			b = b*137 + uint64(c)
		}
	}
	r := rand.New(rand.NewPCG(a, b))
	var s strings.Builder
	indent := []string{"", "  ", "\t"}[r.IntN(3)]
	if r.IntN(2) == 0 {
		s.WriteString("[")
		for i := range r.IntN(6) {
			if i > 0 {
				s.WriteString(",")
			}
			if indent != "" {
				s.WriteString("\n" + indent)
			}
			genValue(r, &s, 3, 1, indent, r.IntN(3) > 0)
		}
		s.WriteString("\n]")
	} else {
		genValue(r, &s, 4, 0, indent, true)
	}
	return []byte(s.String())
}

// TestGenerated: random documents, and each cut short at every byte and
// with one byte changed, walked as encoding/json reads them.
func TestGenerated(t *testing.T) {
	for seed := range 300 {
		doc := generate([]byte(strconv.Itoa(seed)))
		if !json.Valid(doc) {
			t.Fatalf("generated an invalid document: %s", doc)
		}
		check(t, doc)
		for k := 0; k < len(doc); k += 1 + len(doc)/40 {
			check(t, doc[:k])
			bad := bytes.Clone(doc)
			bad[k] = "]}[{,:\"x 1"[seed%10]
			check(t, bad)
		}
	}
}

// FuzzWalk: the walk of a random document (generated from the fuzzer's
// bytes), and of the bytes themselves, finds the elements encoding/json
// finds, at the same offsets, and breaks no earlier than it does.
func FuzzWalk(f *testing.F) {
	for _, d := range docs {
		f.Add([]byte(d))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, generate(data))
		check(t, data)
	})
}
