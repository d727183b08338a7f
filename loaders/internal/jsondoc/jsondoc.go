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
	// Lists are the lists found, in the order they start.
	Lists []*List
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

// Walk walks the JSON document r holds; base is the offset in the file of
// r's first byte. An error is a read error, or one elem returned; a
// document that is not JSON is a Doc with a Break.
func Walk(r io.Reader, base int64, elem Elem) (*Doc, error) {
	s := jsonscan.New(r)
	defer s.Release()
	w := &walker{s: s, base: base, elem: elem, doc: &Doc{More: -1}}
	d := w.doc
	c, ok := s.Peek()
	d.Start, d.Top = base+s.Offset(), c
	var err error
	switch {
	case !ok:
		err = s.Skip() // the error of a stream that ends before its value
	case c == '[':
		l := &List{Path: "$"}
		d.Lists = append(d.Lists, l)
		err = s.Array(func(i int) error { return w.element(l, i) })
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
	doc  *Doc
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
			l := &List{Path: p, Depth: depth}
			w.doc.Lists = append(w.doc.Lists, l)
			return w.s.Array(func(i int) error { return w.element(l, i) })
		case c == '{' && depth < MaxDepth:
			return w.members(p, depth+1)
		}
		return w.s.Skip()
	})
}
