// Package jsondoc finds the records of a JSON document in one pass over
// its bytes, as a stream: the lists that may hold them (the top-level
// array; the lists of objects a top-level object holds, as members or
// members of members) and where each of their elements starts and ends,
// without keeping any of them. The plain loader keeps the offsets and
// reads a record again from them when it is shown, so a document of any
// size is indexed in the memory its offsets take.
//
// The walk checks the document's structure as jsonscan does (keys,
// colons, commas; brackets closed by their own kind), not the spelling of
// what is inside an element: an element is checked when it is read. A
// break (the document cut short, a bad token) stops the walk where it is,
// with what was found before it.
package jsondoc

import (
	"errors"
	"io"

	"evalview/loaders/internal/jsonscan"
)

// MaxDepth is how many levels of members down from a top-level object
// lists are looked for: its own members (depth 0) and theirs (1), as in
// {"results": {"results": [...]}}.
const MaxDepth = 1

// MaxLists is how many lists Doc.Lists names: a document of millions of
// small lists would otherwise keep them all. The lists past it are
// walked, and one may hold the records, all the same.
const MaxLists = 1000

// List is an array of the document that may hold its records.
type List struct {
	// Path is "$" for the top-level array, else the keys down to the
	// list joined by dots ("results.results").
	Path string
	// Depth counts the objects between the top one and the list: 0 for a
	// member of the top object.
	Depth int
	// Objects tells that its first element is an object. The elements of
	// a list under an object are reported only then (a list of numbers
	// holds no records).
	Objects bool
	// Len counts the elements reported.
	Len int
}

// Doc is what a walk found.
type Doc struct {
	// Start is the offset of the document's first byte, End of the byte
	// after it, or of where the walk stopped.
	Start, End int64
	// Top is the document's first byte: '[' or '{' for the documents
	// that hold lists, else the first byte of a scalar.
	Top byte
	// Lists are the lists found, in the order they start, the first
	// MaxLists of them; Unlisted counts the others.
	Lists    []*List
	Unlisted int
	// Records is the list that holds the records: the top-level array,
	// else the shallowest list of objects, the longest (the first of
	// those as long) among those as shallow; nil when there is none.
	Records *List
	// Break is where the document stops being JSON, when it does: it is
	// cut short, or holds a bad token (the walk stopped there).
	Break *jsonscan.SyntaxError
	// More is the offset of the first byte after the document other than
	// white space, or -1: more follows it.
	More int64
}

// Elem is told each element of a list that may hold records, in the
// order of the file: its index in the list, its first byte's offset and
// its length.
type Elem func(l *List, i int, off, size int64) error

// Drop is told of a list whose elements Elem was told once it cannot
// hold the records (a list before it or after it is shallower, or as
// shallow and longer), so that what was kept of them can go: at most two
// lists' elements are kept at once.
type Drop func(l *List)

// Walk walks the JSON document r holds; base is the offset in the file of
// r's first byte. An error is a read error, or one elem returned; a
// document that is not JSON is a Doc with a Break. drop may be nil.
func Walk(r io.Reader, base int64, elem Elem, drop Drop) (*Doc, error) {
	s := jsonscan.New(r)
	defer s.Release()
	w := &walker{s: s, base: base, elem: elem, drop: drop, doc: &Doc{More: -1}}
	d := w.doc
	c, ok := s.Peek()
	d.Start, d.Top = base+s.Offset(), c
	var err error
	switch {
	case !ok:
		err = s.Skip() // the error of a stream that ends before its value
	case c == '[':
		err = w.list("$", 0)
	case c == '{':
		err = w.members("", 0)
	default:
		err = s.Skip()
	}
	d.End = base + s.Offset()
	if err != nil {
		var se *jsonscan.SyntaxError
		if !errors.As(err, &se) {
			return d, err
		}
		d.Break = &jsonscan.SyntaxError{Offset: base + se.Offset, Msg: se.Msg}
		return d, nil
	}
	if _, ok := s.Peek(); ok {
		d.More = base + s.Offset()
	}
	return d, nil
}

type walker struct {
	s    *jsonscan.Scanner
	base int64
	elem Elem
	drop Drop
	doc  *Doc
}

// list walks a list at path, depth objects down, and weighs it for the
// records once it ends (cut short by a break too).
func (w *walker) list(path string, depth int) error {
	l := &List{Path: path, Depth: depth}
	d := w.doc
	if len(d.Lists) < MaxLists {
		d.Lists = append(d.Lists, l)
	} else {
		d.Unlisted++
	}
	err := w.s.Array(func(i int) error { return w.element(l, i) })
	lost := l
	if b := d.Records; path == "$" || l.Objects && l.Len > 0 && (b == nil || l.Depth < b.Depth || l.Depth == b.Depth && l.Len > b.Len) {
		lost, d.Records = b, l
	}
	if lost != nil && lost.Len > 0 && w.drop != nil {
		w.drop(lost)
	}
	return err
}

// element consumes element i of l, reported when l may hold records.
func (w *walker) element(l *List, i int) error {
	c, _ := w.s.Peek()
	if i == 0 {
		l.Objects = c == '{'
	}
	if l.Path != "$" && !l.Objects {
		return w.s.Skip()
	}
	off := w.s.Offset()
	if err := w.s.Skip(); err != nil {
		return err
	}
	l.Len++
	if w.elem == nil {
		return nil
	}
	return w.elem(l, i, w.base+off, w.s.Offset()-off)
}

// members walks an object's members depth levels down from the top
// object (at: the keys down to it), gathering its lists and walking its
// objects while they are within MaxDepth.
func (w *walker) members(at string, depth int) error {
	return w.s.Object(func(k string) error {
		p := k
		if at != "" {
			p = at + "." + k
		}
		c, _ := w.s.Peek()
		switch {
		case c == '[':
			return w.list(p, depth)
		case c == '{' && depth < MaxDepth:
			return w.members(p, depth+1)
		}
		return w.s.Skip()
	})
}
