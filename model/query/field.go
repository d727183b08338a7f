package query

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"evalview/model"
)

// fieldKind tells how a field's value is read from a summary.
type fieldKind uint8

const (
	fLabel     fieldKind = iota // Summary.Labels[key]
	fBare                       // a bare word: id or title
	fID                         // Summary.ID
	fTitle                      // Summary.Title
	fStatus                     // the selected filter's status
	fScore                      // the selected filter's score
	fErrors                     // Summary.Errors
	fWarnings                   // Summary.Warnings
	fIssues                     // Errors + Warnings
	fAttempts                   // Summary.Attempts
	fLine                       // Summary.Line (0 = none)
	fFilter                     // the filters the doc has a row for
	fAnswer                     // the selected filter's answer
	fAgreement                  // whether the filters agree on the status
	fTag                        // Summary.Tags
	fNoteLabel                  // note labels (Env.Notes)
	fNote                       // note text (Env.Notes)
	fAnswerOf                   // one filter's answer: answer.FILTER
)

// valueType groups fields by the operators and values they accept.
type valueType uint8

const (
	tText valueType = iota
	tNumber
	tStatus
	tMulti // several values per record: membership tests only
)

// builtin describes one built-in field.
type builtin struct {
	name string
	kind fieldKind
	typ  valueType
}

// builtins lists the built-in fields in the order help and completion show
// them.
var builtins = []builtin{
	{"id", fID, tText},
	{"title", fTitle, tText},
	{"status", fStatus, tStatus},
	{"score", fScore, tNumber},
	{"filter", fFilter, tMulti},
	{"answer", fAnswer, tText},
	{"agreement", fAgreement, tText},
	{"attempts", fAttempts, tNumber},
	{"errors", fErrors, tNumber},
	{"warnings", fWarnings, tNumber},
	{"issues", fIssues, tNumber},
	{"line", fLine, tNumber},
	{"tag", fTag, tMulti},
	{"label", fNoteLabel, tMulti},
	{"note", fNote, tText},
}

// labelPrefix reaches a Summary.Labels key that a built-in name shadows.
const labelPrefix = "labels."

// answerPrefix names one filter's answer, whatever filter the list
// shows: answer.strict-match beside answer.flexible-extract.
const answerPrefix = "answer."

// AnswerField is the field of filter's extracted answer.
func AnswerField(filter string) string { return answerPrefix + filter }

// noneValue is how facets show a missing value.
const noneValue = "(none)"

// fieldRef is a resolved field: a built-in kind, or a label key.
type fieldRef struct {
	kind fieldKind
	typ  valueType
	key  string // label key for fLabel
}

// resolveField maps a field name as written in a query to the field.
// Every non-empty name resolves: names that are not built-in are label
// keys (ValueIndex.Check rejects keys the dataset lacks).
func resolveField(name string) fieldRef {
	for _, b := range builtins {
		if b.name == name {
			return fieldRef{kind: b.kind, typ: b.typ}
		}
	}
	if f, ok := strings.CutPrefix(name, answerPrefix); ok && f != "" {
		return fieldRef{kind: fAnswerOf, typ: tText, key: f}
	}
	return fieldRef{kind: fLabel, typ: tText, key: strings.TrimPrefix(name, labelPrefix)}
}

// name returns the field's canonical name, the one that resolves back to it.
func (f fieldRef) name() string {
	switch f.kind {
	case fLabel:
		return LabelField(f.key)
	case fAnswerOf:
		return AnswerField(f.key)
	}
	for _, b := range builtins {
		if b.kind == f.kind {
			return b.name
		}
	}
	return ""
}

// LabelField returns the query field name of Summary.Labels key: the key
// itself, or labels.KEY when a built-in field has that name (or the key
// itself starts with "labels.").
func LabelField(key string) string {
	if strings.HasPrefix(key, labelPrefix) || resolveField(key).kind != fLabel {
		return labelPrefix + key
	}
	return key
}

// rec is one summary being evaluated, with the lazily fetched note.
type rec struct {
	s     *model.Summary
	ds    *model.Dataset
	fi    int // selected filter
	notes NoteLookup
	// note points to storage owned by the caller. Keeping the note out of
	// rec itself matters: escape analysis does not tell rec's
	// fields apart, and a note string read from rec and handed to a regex
	// would move every summary to the heap.
	note *noteState
}

// noteState is a record's note, fetched at most once, and the record's
// fields where a query reads them (see fieldValue).
type noteState struct {
	loaded bool
	labels []string
	text   string
	// idx is the record's index in its dataset, -1 when unknown.
	idx          int
	fieldsLoaded bool
	fields       []model.Field
}

// fieldValue is the value of the record's field key where its label only
// says that the record has it (Presentation.FieldLabels: a plain JSON
// Lines text too long or not one line to be a label): the record is read
// once, when a query needs it.
func (r *rec) fieldValue(key string) string {
	if r.ds == nil || !r.ds.Presentation.FieldLabels || r.note.idx < 0 {
		return ""
	}
	if !r.s.Labels.Has(key) {
		return ""
	}
	n := r.note
	if !n.fieldsLoaded {
		n.fieldsLoaded = true
		if full, err := r.ds.Records.Record(n.idx); err == nil && full != nil {
			n.fields = full.Fields
		}
	}
	for _, f := range n.fields {
		if f.Name == key {
			return f.Value
		}
	}
	return ""
}

func (r *rec) loadNote() *noteState {
	n := r.note
	if !n.loaded {
		n.loaded = true
		if r.notes != nil {
			n.labels, n.text = r.notes(r.s.ID)
		}
	}
	return n
}

// text returns a single-valued field as text; ok is false when the record
// has no value (an empty string counts as none).
func (r *rec) text(f fieldRef) (string, bool) {
	var v string
	switch f.kind {
	case fLabel:
		if v = r.s.Labels.Get(f.key); v == "" {
			v = r.fieldValue(f.key)
		}
	case fID:
		v = r.s.ID
	case fTitle:
		v = r.s.Title
	case fStatus:
		return r.s.Outcome(r.fi).Status.String(), true
	case fAnswer:
		if r.fi >= 0 && r.fi < len(r.s.Outcomes) && r.s.Outcomes[r.fi].Present {
			v = r.s.Outcomes[r.fi].Answer
		}
	case fAnswerOf:
		if r.ds != nil {
			if fi := r.ds.FilterIndex(f.key); fi >= 0 && fi < len(r.s.Outcomes) && r.s.Outcomes[fi].Present {
				v = r.s.Outcomes[fi].Answer
			}
		}
	case fAgreement:
		v = r.s.Agreement()
	case fNote:
		v = r.loadNote().text
	default:
		if n, ok := r.num(f); ok {
			return formatNum(n), true
		}
	}
	return v, v != ""
}

// num returns a numeric field; ok is false when the record has no value.
func (r *rec) num(f fieldRef) (float64, bool) {
	switch f.kind {
	case fScore:
		o := r.s.Outcome(r.fi)
		return o.Score, o.HasScore && o.Score == o.Score // NaN counts as none
	case fErrors:
		return float64(r.s.Errors), true
	case fWarnings:
		return float64(r.s.Warnings), true
	case fIssues:
		return float64(r.s.Errors + r.s.Warnings), true
	case fAttempts:
		return float64(r.s.Attempts), true
	case fLine:
		return float64(r.s.Line), r.s.Line > 0
	}
	return 0, false
}

// isNaN reports whether a numeric field holds NaN, which num counts as no
// value: only a score can (a regression metric Python wrote as NaN).
func (r *rec) isNaN(f fieldRef) bool {
	if f.kind != fScore {
		return false
	}
	o := r.s.Outcome(r.fi)
	return o.HasScore && o.Score != o.Score
}

// each calls fn with every value of a multi-valued field, and with the
// filter index for fFilter (-1 otherwise); it stops when fn returns true
// and reports whether it did.
func (r *rec) each(f fieldRef, fn func(v string, fi int) bool) bool {
	switch f.kind {
	case fTag:
		for _, t := range r.s.Tags {
			if fn(t, -1) {
				return true
			}
		}
	case fNoteLabel:
		for _, l := range r.loadNote().labels {
			if fn(l, -1) {
				return true
			}
		}
	case fFilter:
		if r.ds == nil {
			return false
		}
		for i, o := range r.s.Outcomes {
			if o.Present && i < len(r.ds.Filters) && fn(r.ds.Filters[i], i) {
				return true
			}
		}
	}
	return false
}

// formatNum writes a number the shortest way that parses back to it, and
// a non-finite one as the list, export and summary do: inf, -inf, nan.
func formatNum(v float64) string {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return model.FormatFloat(v, 0)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// parseValue parses a query value or a field's text as a number: what
// strconv accepts ("inf", "-Infinity" and "nan" included), and a number
// too big for a float64 ("1e400") as the infinity it rounds to.
func parseValue(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return v, true // ±Inf past the largest float, 0 below the smallest
		}
		return 0, false
	}
	return v, true
}

// parseNum parses text as a number without allocating on the common
// failure of text that is plainly not a number.
func parseNum(s string) (float64, bool) {
	if s == "" || len(s) > 64 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E' {
			return parseNonFinite(s)
		}
	}
	return parseValue(s)
}

// parseNonFinite parses "inf", "-inf" and "infinity" in any case, as
// Python and the list write them; "nan" is no number here, since a NaN
// has no order.
func parseNonFinite(s string) (float64, bool) {
	sign := 1
	if s[0] == '-' || s[0] == '+' {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	if strings.EqualFold(s, "inf") || strings.EqualFold(s, "infinity") {
		return math.Inf(sign), true
	}
	return 0, false
}

// FieldValue returns record s's value of field as the list or an export
// would show it: "" when it has none, multi-valued fields joined with ", ".
// env.Filter selects the lm-eval filter status, score and answer refer to.
func FieldValue(env Env, s model.Summary, field string) string {
	f := resolveField(field)
	r := rec{s: &s, ds: env.Dataset, fi: env.Filter, notes: env.Notes, note: &noteState{idx: -1}}
	if f.typ == tMulti {
		var parts []string
		r.each(f, func(v string, _ int) bool { parts = append(parts, v); return false })
		return strings.Join(parts, ", ")
	}
	v, _ := r.text(f)
	return v
}
