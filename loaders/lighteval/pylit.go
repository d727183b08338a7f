package lighteval

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"evalview/loaders/internal/pylit"
)

// Before February 2025 (lighteval #572) every details column was written
// as str(value): lists and dicts in Python's repr ("['A']",
// "{'acc': 1.0}"). parsePy reads that repr back: dicts, lists, tuples,
// strings in either quote, ints, floats (nan, inf), True, False, None.
// Anything else (an object's repr) fails, and the caller shows the text.

// maxPyDepth bounds nesting, so hostile text cannot exhaust the stack.
const maxPyDepth = 200

type pyParser struct {
	s     string
	i     int
	depth int
}

func parsePy(s string) (any, error) {
	p := &pyParser{s: s}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.s) {
		return nil, errors.New("text after the value")
	}
	return v, nil
}

func (p *pyParser) ws() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *pyParser) value() (any, error) {
	p.ws()
	if p.i >= len(p.s) {
		return nil, errors.New("unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '[' || c == '(':
		return p.list(map[byte]byte{'[': ']', '(': ')'}[c])
	case c == '{':
		return p.dict()
	case c == '\'' || c == '"':
		return p.str()
	}
	j := p.i
	for j < len(p.s) && strings.IndexByte(",:]}) \t\r\n", p.s[j]) < 0 {
		j++
	}
	tok := p.s[p.i:j]
	p.i = j
	switch tok {
	case "True":
		return true, nil
	case "False":
		return false, nil
	case "None":
		return nil, nil
	case "nan":
		return math.NaN(), nil
	case "inf":
		return math.Inf(1), nil
	case "-inf":
		return math.Inf(-1), nil
	}
	if n, err := strconv.ParseInt(tok, 10, 64); err == nil {
		return n, nil
	}
	if f, err := strconv.ParseFloat(tok, 64); err == nil {
		return f, nil
	}
	return nil, errors.New("not a Python literal: " + tok)
}

func (p *pyParser) enter() error {
	p.depth++
	if p.depth > maxPyDepth {
		return errors.New("nested too deep")
	}
	return nil
}

func (p *pyParser) list(close byte) (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.i++
	out := []any{}
	for {
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == close {
			p.i++
			return out, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.ws()
		if p.i >= len(p.s) {
			return nil, errors.New("unexpected end in a list")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case close:
		default:
			return nil, errors.New("expected , in a list")
		}
	}
}

func (p *pyParser) dict() (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.i++
	out := map[string]any{}
	for {
		p.ws()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return out, nil
		}
		k, err := p.value()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, errors.New("expected : in a dict")
		}
		p.i++
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out[pyKey(k)] = v
		p.ws()
		if p.i >= len(p.s) {
			return nil, errors.New("unexpected end in a dict")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
		default:
			return nil, errors.New("expected , in a dict")
		}
	}
}

func pyKey(k any) string {
	if s, ok := k.(string); ok {
		return s
	}
	return textOf(k)
}

// str reads a quoted string with Python's escapes.
func (p *pyParser) str() (any, error) {
	v, n, err := pylit.String(p.s[p.i:])
	if err != nil {
		return nil, err
	}
	p.i += n
	return v, nil
}
