package query

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"evalview/model"
)

// op is a comparison operator.
type op uint8

const (
	opNone op = iota // bare word
	opEq             // = and :
	opNe
	opLt
	opLe
	opGt
	opGe
	opRe
)

var opText = map[string]op{"=": opEq, ":": opEq, "!=": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe, "~": opRe}

// String returns the operator as the canonical query spells it.
func (o op) String() string {
	return [...]string{"", "=", "!=", "<", "<=", ">", ">=", "~"}[o]
}

// term is one parsed term.
type term struct {
	neg   bool
	field fieldRef
	op    op
	value string

	num    float64 // value as a number, for ordering and numeric fields
	hasNum bool
	// nan is a value of "nan" on a numeric field: = and != then test for
	// a NaN score, which the list shows as nan (a NaN has no order).
	nan    bool
	status model.Status
	re     *regexp.Regexp
	// fold is smart case for bare words: value is then lower-case and the
	// match ignores case.
	fold bool

	pos int    // byte offset of the term in the line
	col int    // 1-based column of the term, in characters
	raw string // the term as written
}

// Query is a parsed query line. The zero value and nil match everything.
type Query struct {
	terms []term
	// order lists term indices cheapest first: Match evaluates in this
	// order so that a failing number comparison spares a map lookup, a
	// regex or a note lookup.
	order []int
	// filter is the lm-eval filter a filter=NAME term selects, "" for none.
	filter string
}

// Error is a query that cannot be used: a syntax error (Parse) or a field
// the dataset lacks (ValueIndex.Check). Code is one of the codes listed in
// the package documentation.
type Error struct {
	Code string
	Term string // the term as written
	Pos  int    // byte offset of the term in the line
	Col  int    // 1-based column of the term, in characters
	Msg  string
}

// Error formats the error as `bad term "score<<5" at column 7: ...`.
func (e *Error) Error() string {
	return fmt.Sprintf("bad term %q at column %d: %s", e.Term, e.Col, e.Msg)
}

func errAt(line string, sp span, code, format string, args ...any) *Error {
	return &Error{Code: code, Term: sp.raw(line), Pos: sp.start, Col: utf8.RuneCountInString(line[:sp.start]) + 1, Msg: fmt.Sprintf(format, args...)}
}

// Parse parses a query line (see the package documentation for the
// language). It checks syntax and value types; ValueIndex.Check then
// checks the fields against a dataset.
func Parse(line string) (*Query, error) {
	q := &Query{}
	neg := false
	var pending *span // the "not" or dashes waiting for a term
	// col and colPos track the 1-based column of byte colPos, so that each
	// term's column costs only the runes since the previous term (counting
	// from the start for every term made long lines quadratic).
	col, colPos := 1, 0
	for _, sp := range lex(line) {
		col += utf8.RuneCountInString(line[colPos:sp.start])
		colPos = sp.start
		if sp.unterminated {
			return nil, errAt(line, sp, "unterminated-quote", "unterminated quote")
		}
		if sp.dashes > 0 && sp.body == sp.end {
			return nil, errAt(line, sp, "missing-term", "- needs a term after it")
		}
		if line[sp.start:sp.end] == "not" {
			neg = !neg
			s := sp
			pending = &s
			continue
		}
		t, err := parseTerm(line, sp, col)
		if err != nil {
			return nil, err
		}
		t.neg = neg != (sp.dashes%2 == 1)
		neg, pending = false, nil
		if t.field.kind == fFilter && t.op == opEq && !t.neg && t.value != "" {
			if q.filter != "" && q.filter != t.value {
				return nil, errAt(line, sp, "conflicting-filter", "filter %q is already selected", q.filter)
			}
			q.filter = t.value
		}
		q.terms = append(q.terms, t)
	}
	if pending != nil {
		return nil, errAt(line, *pending, "missing-term", "not needs a term after it")
	}
	q.order = make([]int, len(q.terms))
	for i := range q.order {
		q.order[i] = i
	}
	sort.SliceStable(q.order, func(a, b int) bool { return q.terms[q.order[a]].cost() < q.terms[q.order[b]].cost() })
	return q, nil
}

// cost ranks how expensive a term is to evaluate.
func (t *term) cost() int {
	c := 0
	switch {
	case t.field.kind == fNote || t.field.kind == fNoteLabel:
		c = 4 // calls out to the note store
	case t.field.kind == fBare:
		c = 2
	case t.field.kind == fLabel || t.field.kind == fAgreement:
		c = 1
	}
	if t.op == opRe {
		c += 2
	}
	return c
}

// parseTerm parses one term, without its negation; col is the term's
// 1-based column.
func parseTerm(line string, sp span, col int) (term, error) {
	t := term{pos: sp.start, col: col, raw: sp.raw(line)}
	if sp.op < 0 {
		t.field = fieldRef{kind: fBare}
		t.value, _ = unquote(line[sp.body:sp.end])
		if !hasUpper(t.value, false) {
			t.fold = true
			t.value = strings.ToLower(t.value)
		}
		return t, nil
	}
	opStr := line[sp.op:sp.opEnd]
	name, _ := unquote(line[sp.body:sp.op])
	if name == "" || name == labelPrefix {
		return t, errAt(line, sp, "missing-field", "a field name must come before %s", opStr)
	}
	value, quoted := unquote(line[sp.opEnd:sp.end])
	if value == "" && !quoted {
		return t, errAt(line, sp, "missing-value", "a value must follow %s (write \"\" for no value)", opStr)
	}
	t.field, t.op, t.value = resolveField(name), opText[opStr], value
	if err := t.check(line, sp, name, opStr); err != nil {
		return t, err
	}
	return t, nil
}

// check validates the operator and value against the field's type and
// precomputes numbers, statuses and regexes.
func (t *term) check(line string, sp span, name, opStr string) error {
	ordering := t.op >= opLt && t.op <= opGe
	if t.op == opRe && t.field.typ == tNumber {
		return errAt(line, sp, "bad-operator", "%s is a number: use =, !=, <, <=, > or >=, not ~", name)
	}
	if t.op == opRe {
		pat := t.value
		if !hasUpper(pat, true) {
			pat = "(?i)" + pat
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			return errAt(line, sp, "bad-regex", "%s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
		}
		t.re = re
		return nil
	}
	switch t.field.typ {
	case tMulti, tStatus:
		if ordering {
			return errAt(line, sp, "bad-operator", "%s takes =, !=, : or ~, not %s", name, opStr)
		}
	}
	if ordering && t.value == "" {
		return errAt(line, sp, "missing-value", "%s needs a value to compare with", opStr)
	}
	if t.field.typ == tStatus {
		st, ok := model.ParseStatus(strings.ToLower(t.value))
		if !ok {
			return errAt(line, sp, "bad-status", "status is pass, fail, error or unscored, not %q", t.value)
		}
		t.status, t.value = st, st.String()
		return nil
	}
	if t.value == "" {
		return nil // "no value"
	}
	v, ok := parseValue(t.value)
	t.num, t.hasNum = v, ok && v == v
	if t.field.typ == tNumber && ok && v != v {
		if ordering {
			return errAt(line, sp, "bad-number", "nan has no order: %s takes = or != with nan", name)
		}
		t.nan = true
		return nil
	}
	if t.field.typ == tNumber && !t.hasNum {
		return errAt(line, sp, "bad-number", "%s needs a number, got %q", name, t.value)
	}
	return nil
}

// hasUpper reports whether s has an upper-case letter; for regexes the
// letter after a backslash (\W, \S, \pL, \p{Greek}) does not count.
func hasUpper(s string, regex bool) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if regex && r == '\\' && i+1 < len(s) {
			i++
			c := s[i]
			i++
			if (c == 'p' || c == 'P') && i < len(s) && s[i] == '{' {
				if j := strings.IndexByte(s[i:], '}'); j >= 0 {
					i += j + 1
				}
			} else if (c == 'p' || c == 'P') && i < len(s) {
				i++ // one-letter class: \pL
			}
			continue
		}
		if unicode.IsUpper(r) {
			return true
		}
		i += n
	}
	return false
}

// String returns the query in canonical form, for the status bar: terms
// in order, negation as a leading -, quotes only where needed. It parses
// back to an equivalent query.
func (q *Query) String() string {
	if q == nil {
		return ""
	}
	parts := make([]string, len(q.terms))
	for i, t := range q.terms {
		parts[i] = t.String()
	}
	return strings.Join(parts, " ")
}

// String returns the term in canonical form.
func (t term) String() string {
	neg := ""
	if t.neg {
		neg = "-"
	}
	if t.field.kind == fBare {
		return neg + quoteWord(t.value)
	}
	o := t.op.String()
	if t.op == opEq && t.field.typ == tMulti && t.field.kind != fFilter {
		o = ":"
	}
	return neg + quoteField(t.field.name()) + o + quoteValue(t.value, t.op == opRe)
}

// Empty reports whether the query has no terms (it matches everything).
func (q *Query) Empty() bool { return q == nil || len(q.terms) == 0 }

// FilterName returns the lm-eval filter a filter=NAME term selects, or "".
func (q *Query) FilterName() string {
	if q == nil {
		return ""
	}
	return q.filter
}

// TermFor returns the query term that selects records whose field has
// value (the Enter key on a facet row); value "" selects records with no
// value. The term parses back to exactly that field and value.
func TermFor(field, value string) string {
	f := resolveField(field)
	o := "="
	if f.typ == tMulti && f.kind != fFilter {
		o = ":"
	}
	if f.typ == tStatus {
		value = strings.ToLower(value)
	}
	return quoteField(field) + o + quoteValue(value, false)
}
