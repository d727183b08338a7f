package query

import (
	"regexp"
	"strings"
)

// maxCandidates bounds what Complete returns: a field such as answer may
// have as many values as records.
const maxCandidates = 100

// Candidate is one completion of the word under the cursor.
type Candidate struct {
	// Text replaces the bytes Replace[0]:Replace[1] of the line; it is
	// quoted as the query needs.
	Text    string
	Replace [2]int
	// Count is how many records have the value (for a field, how many
	// have the field).
	Count int
	// Field is true for a field name (Text ends with its operator), so the
	// caller may offer values right after accepting it.
	Field bool
}

// Complete returns completions for the word under the cursor (a byte
// offset into line): field names with an operator while the term has no
// operator yet or the cursor is before it, values of the field seen in the
// dataset after it. Values are ranked by frequency, those starting with
// the typed prefix (ignoring case) before those merely containing it.
// Status and answer values are those of the filter a filter= term of the
// line names, else of idx's filter (ValueIndex.ForFilter).
func Complete(idx *ValueIndex, line string, cursor int) []Candidate {
	if idx == nil {
		return nil
	}
	cursor = max(0, min(cursor, len(line)))
	spans := lex(line)
	for _, sp := range spans {
		if cursor < sp.start || cursor > sp.end {
			continue
		}
		if cursor < sp.body {
			return nil // among the negation dashes
		}
		if sp.op >= 0 && cursor >= sp.opEnd {
			return completeValue(idx, line, spans, sp, cursor)
		}
		return completeField(idx, line, sp, cursor)
	}
	return completeField(idx, line, span{start: cursor, body: cursor, end: cursor, op: -1, opEnd: -1}, cursor)
}

func completeField(idx *ValueIndex, line string, sp span, cursor int) []Candidate {
	prefix, _ := unquote(line[sp.body:cursor])
	end, opText := sp.end, ""
	if sp.op >= 0 {
		end, opText = sp.opEnd, line[sp.op:sp.opEnd]
	}
	var values []ValueCount
	for _, name := range idx.Fields() {
		f := resolveField(name)
		n := idx.n
		if f.kind == fLabel {
			n = idx.labelKeys[f.key]
		}
		values = append(values, ValueCount{name, n})
	}
	out := rank(values, prefix, func(name string) string {
		o := opText
		if o == "" {
			o = "="
			if f := resolveField(name); f.typ == tMulti && f.kind != fFilter {
				o = ":"
			}
		}
		return quoteField(name) + o
	}, [2]int{sp.body, end})
	for i := range out {
		out[i].Field = true
	}
	return out
}

func completeValue(idx *ValueIndex, line string, spans []span, sp span, cursor int) []Candidate {
	name, _ := unquote(line[sp.body:sp.op])
	prefix, _ := unquote(line[sp.opEnd:cursor])
	regex := line[sp.op:sp.opEnd] == "~"
	vi := idx
	if fi := lineFilter(idx, line, spans); fi >= 0 {
		vi = idx.ForFilter(fi)
	}
	return rank(vi.Values(name), prefix, func(v string) string {
		if regex {
			return quoteValue(regexp.QuoteMeta(v), true)
		}
		return quoteValue(v, false)
	}, [2]int{sp.opEnd, sp.end})
}

// lineFilter returns the index of the filter a filter=NAME term of the line
// selects, or -1.
func lineFilter(idx *ValueIndex, line string, spans []span) int {
	for _, sp := range spans {
		if sp.op < 0 || sp.dashes%2 == 1 || sp.unterminated {
			continue
		}
		if o := line[sp.op:sp.opEnd]; o != "=" && o != ":" {
			continue
		}
		if name, _ := unquote(line[sp.body:sp.op]); name != "filter" {
			continue
		}
		v, _ := unquote(line[sp.opEnd:sp.end])
		if fi := idx.ds.FilterIndex(v); fi >= 0 {
			return fi
		}
	}
	return -1
}

// rank keeps the values that start with prefix (ignoring case), then those
// that contain it, each group in the given order, and renders them.
func rank(values []ValueCount, prefix string, render func(string) string, repl [2]int) []Candidate {
	lp := strings.ToLower(prefix)
	var starts, contains []Candidate
	for _, v := range values {
		lv := strings.ToLower(v.Value)
		switch {
		case strings.HasPrefix(lv, lp):
			starts = append(starts, Candidate{Text: render(v.Value), Replace: repl, Count: v.Count})
		case len(contains) < maxCandidates && strings.Contains(lv, lp):
			contains = append(contains, Candidate{Text: render(v.Value), Replace: repl, Count: v.Count})
		}
		if len(starts) >= maxCandidates {
			break
		}
	}
	out := append(starts, contains...)
	if len(out) > maxCandidates {
		out = out[:maxCandidates]
	}
	return out
}
