package lighteval

import (
	"errors"
	"fmt"
)

// thriftSize walks one Thrift struct in the compact protocol (the
// encoding of a Parquet footer and page headers) without decoding it, and
// returns how many bytes it takes. It is evalview's own: parquet-go's
// decoder allocates what a list or a string declares before reading a
// byte of it (a list of 2^31 schema elements is 200 GB at once, which
// ends the process with no panic to recover), so every declared length is
// checked here against the bytes that are really there first: a list's
// elements each take a byte at least, a string its length. Nesting past
// maxThriftNesting is refused too (a footer nests six deep; a crafted one
// would otherwise recurse without end), and so are more than
// maxThriftEntries list entries in all: each becomes a struct of up to
// 560 bytes once decoded (a column chunk's metadata), so that a footer of
// a megabyte of empty structs would decode to half a gigabyte.
func thriftSize(b []byte) (int, error) {
	w := thriftWalker{b: b}
	if err := w.value(tStruct, 0); err != nil {
		return 0, err
	}
	return w.at, nil
}

// maxThriftNesting bounds how deep structs and lists nest in one Thrift
// value.
const maxThriftNesting = 32

// maxThriftEntries bounds the entries of the lists and maps of one Thrift
// value, all together: a footer lists its schema's columns, and each row
// group's column chunks (a details file written 1,000 rows to a row group
// has a few thousand).
const maxThriftEntries = 100_000

// Compact protocol type codes.
const (
	tStop   = 0
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
	tUUID   = 13
)

// errThriftShort is a Thrift value that runs past the bytes it was read
// from.
var errThriftShort = errors.New("ends before its last value")

type thriftWalker struct {
	b       []byte
	at      int
	entries uint64
}

func (w *thriftWalker) byte() (byte, error) {
	if w.at >= len(w.b) {
		return 0, errThriftShort
	}
	c := w.b[w.at]
	w.at++
	return c, nil
}

func (w *thriftWalker) uvarint() (uint64, error) {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		c, err := w.byte()
		if err != nil {
			return 0, err
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, errors.New("holds a number longer than 64 bits")
}

func (w *thriftWalker) skip(n uint64) error {
	if n > uint64(len(w.b)-w.at) {
		return fmt.Errorf("declares a value of %s where %s left", count(int64(min(n, 1<<62)), "byte"), count(int64(len(w.b)-w.at), "byte is"))
	}
	w.at += int(n)
	return nil
}

// count checks a list's or a map's declared element count against the
// bytes left: each element takes one at least.
func (w *thriftWalker) count(n uint64, per int) error {
	if left := uint64(len(w.b) - w.at); n > left/uint64(per) {
		return fmt.Errorf("declares a list of %s where %s left", count(int64(min(n, 1<<62)), "entry"), count(int64(left), "byte is"))
	}
	if w.entries += n; w.entries > maxThriftEntries {
		return fmt.Errorf("declares more than %s (columns, column chunks); evalview reads at most that many", count(maxThriftEntries, "list entry"))
	}
	return nil
}

// value skips one value of type t at nesting depth.
func (w *thriftWalker) value(t byte, depth int) error {
	if depth > maxThriftNesting {
		return fmt.Errorf("nests more than %d levels deep", maxThriftNesting)
	}
	switch t {
	case tTrue, tFalse, tByte:
		_, err := w.byte() // a bool in a list or a map is a byte
		return err
	case tI16, tI32, tI64:
		_, err := w.uvarint()
		return err
	case tDouble:
		return w.skip(8)
	case tUUID:
		return w.skip(16)
	case tBinary:
		n, err := w.uvarint()
		if err != nil {
			return err
		}
		return w.skip(n)
	case tList, tSet:
		c, err := w.byte()
		if err != nil {
			return err
		}
		n, et := uint64(c>>4), c&0xf
		if n == 0xf {
			if n, err = w.uvarint(); err != nil {
				return err
			}
		}
		if err := w.count(n, 1); err != nil {
			return err
		}
		for range n {
			if err := w.value(et, depth+1); err != nil {
				return err
			}
		}
		return nil
	case tMap:
		n, err := w.uvarint()
		if err != nil || n == 0 {
			return err
		}
		c, err := w.byte()
		if err != nil {
			return err
		}
		if err := w.count(n, 2); err != nil {
			return err
		}
		for range n {
			if err := w.value(c>>4, depth+1); err != nil {
				return err
			}
			if err := w.value(c&0xf, depth+1); err != nil {
				return err
			}
		}
		return nil
	case tStruct:
		for {
			c, err := w.byte()
			if err != nil {
				return err
			}
			ft := c & 0xf
			if ft == tStop {
				return nil
			}
			if c>>4 == 0 { // the field id follows, as a zigzag varint
				if _, err := w.uvarint(); err != nil {
					return err
				}
			}
			switch ft {
			case tTrue, tFalse: // a struct field's bool is in its type
				continue
			}
			if err := w.value(ft, depth+1); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("holds an unknown value type %d", t)
}
