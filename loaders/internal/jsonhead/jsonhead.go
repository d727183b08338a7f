// Package jsonhead reads the shape of the JSON value a file starts with,
// from its first bytes only: the keys of its objects and the kinds of
// their values, a few levels down, as far as the bytes go. Sniffers ask it
// for positive evidence of a format's structure (a "results" object whose
// members are tasks' metrics; an "eval" object holding a task and a
// model), which a word found anywhere in the bytes is not: a promptfoo
// export holds "results" and "config" too.
package jsonhead

import (
	"bytes"
	"errors"

	"evalview/loaders/internal/jsonscan"
	"evalview/loaders/internal/jsonstr"
)

// Kind is a JSON value's kind.
type Kind byte

const (
	Unknown Kind = iota // cut before it began
	Object
	Array
	String
	Number
	Bool
	Null
)

// Value is what the head shows of one JSON value.
type Value struct {
	Kind Kind
	// Keys are an object's keys in the order written, as far as the head
	// goes; Fields their values, to the depth asked (nil below it).
	Keys   []string
	Fields map[string]*Value
	// Elems are an array's first elements (at most MaxElems, to the
	// depth asked); Len counts the elements seen.
	Elems []*Value
	Len   int
	// Text is a string's value or a number's or literal's bytes, when
	// short (at most 200 bytes).
	Text string
	// Whole tells that the value ends within the head.
	Whole bool
	// Bad is set on the top value when the head holds a syntax error
	// before its end: what it shows is no JSON value, cut or not.
	Bad bool
}

// MaxElems is how many elements of an array Value keeps.
const MaxElems = 3

// Parse reads the value head starts with (after a byte-order mark and
// white space), depth levels of members deep (0: the top value's keys
// only). It returns nil when head starts with no object or array.
func Parse(head []byte, depth int) *Value {
	t := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(t) == 0 || t[0] != '{' && t[0] != '[' {
		return nil
	}
	s := jsonscan.New(bytes.NewReader(t))
	defer s.Release()
	v := &Value{}
	// An error at the head's end is the head's end: what was read stays.
	// One before it is a syntax error.
	if err := parse(s, v, depth); err != nil && err != errEnd {
		var se *jsonscan.SyntaxError
		if !errors.As(err, &se) || se.Offset < int64(len(t)) {
			v.Bad = true
		}
	}
	return v
}

func parse(s *jsonscan.Scanner, v *Value, depth int) error {
	c, ok := s.Peek()
	if !ok {
		return errEnd
	}
	switch c {
	case '{':
		v.Kind = Object
		v.Fields = map[string]*Value{}
		err := s.Object(func(k string) error {
			v.Keys = append(v.Keys, k)
			if depth <= 0 {
				child := &Value{}
				err := scalar(s, child)
				v.Fields[k] = child
				return err
			}
			child := &Value{}
			v.Fields[k] = child
			return parse(s, child, depth-1)
		})
		v.Whole = err == nil
		return err
	case '[':
		v.Kind = Array
		err := s.Array(func(i int) error {
			v.Len++
			if i >= MaxElems {
				return s.Skip()
			}
			child := &Value{}
			v.Elems = append(v.Elems, child)
			if depth <= 0 {
				return scalar(s, child)
			}
			return parse(s, child, depth-1)
		})
		v.Whole = err == nil
		return err
	}
	return scalar(s, v)
}

// scalar reads a value's kind, and a scalar's text, skipping a
// container's members.
func scalar(s *jsonscan.Scanner, v *Value) error {
	c, ok := s.Peek()
	if !ok {
		return errEnd
	}
	switch c {
	case '{', '[':
		if c == '{' {
			v.Kind = Object
		} else {
			v.Kind = Array
		}
		err := s.Skip()
		v.Whole = err == nil
		return err
	}
	raw, cut, err := s.Capture(200)
	if err != nil {
		return err
	}
	v.Whole = true
	switch {
	case c == '"':
		v.Kind = String
		if !cut {
			if u, ok := jsonstr.Unquote(raw); ok {
				v.Text = u
			} else {
				v.Text = string(bytes.Trim(raw, `"`))
			}
		}
	case bytes.Equal(raw, []byte("true")) || bytes.Equal(raw, []byte("false")):
		v.Kind, v.Text = Bool, string(raw)
	case bytes.Equal(raw, []byte("null")):
		v.Kind = Null
	default:
		v.Kind, v.Text = Number, string(raw) // NaN and Infinity too, as Python writes them
	}
	return nil
}

type endError struct{}

func (endError) Error() string { return "the head ends" }

var errEnd error = endError{}

// Has reports whether v is an object with every one of keys.
func (v *Value) Has(keys ...string) bool {
	if v == nil || v.Kind != Object {
		return false
	}
	for _, k := range keys {
		if _, ok := v.Fields[k]; !ok {
			return false
		}
	}
	return true
}

// Count is how many of keys v has.
func (v *Value) Count(keys ...string) int {
	if v == nil || v.Kind != Object {
		return 0
	}
	n := 0
	for _, k := range keys {
		if _, ok := v.Fields[k]; ok {
			n++
		}
	}
	return n
}

// Get is v's member k, or nil.
func (v *Value) Get(k string) *Value {
	if v == nil || v.Fields == nil {
		return nil
	}
	return v.Fields[k]
}

// Is reports whether v is of kind k (false for nil).
func (v *Value) Is(k Kind) bool { return v != nil && v.Kind == k }
