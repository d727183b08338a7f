package lmfilter

import (
	"fmt"
	"unicode/utf8"
)

// The harness passes each filter a request's whole value and lets Python
// semantics decide what "each response" is: a list yields its elements, but
// after take_first the value is a string, and iterating a string yields
// characters. The executor keeps that shape (a list of items, or one item)
// so odd pipelines behave as they would in Python, and tags every item with
// the repeat it came from and where its text sits in that repeat, for the
// traces.

// item is one value flowing through the pipeline.
type item struct {
	v any
	// origin is the repeat index the value derives from, -1 for values
	// built from several repeats (a vote winner).
	origin int
	// off is the byte offset of v (a string) in the original repeat text,
	// -1 when unknown.
	off int
}

type executor struct {
	p  Pipeline
	in Input
	// isList tells whether the request's value is a list (list) or a
	// single value (one), as after take_first.
	isList bool
	list   []item
	one    item

	traces []RepeatTrace
	// consumed marks repeats a vote already counted: later selections of
	// the vote's result do not drop them.
	consumed []bool
	votes    []Vote
	notes    []string
}

func newExecutor(p Pipeline, in Input) *executor {
	ex := &executor{p: p, in: in, isList: true,
		traces: in.Arena.traceSlice(len(in.Resps)), consumed: in.Arena.boolSlice(len(in.Resps))}
	ex.list = in.Arena.itemSlice(len(in.Resps))
	for i, r := range in.Resps {
		off := -1
		if _, ok := r.(string); ok {
			off = 0
		}
		ex.list[i] = item{v: r, origin: i, off: off}
		ex.traces[i] = RepeatTrace{Index: i, Kept: true, Extracted: valueText(r), Span: [2]int{-1, -1}}
	}
	return ex
}

// value returns the request's current value as the harness would hold it.
func (ex *executor) value() any {
	if !ex.isList {
		return ex.one.v
	}
	out := make([]any, len(ex.list))
	for i, it := range ex.list {
		out[i] = it.v
	}
	return out
}

// elements returns what `for resp in inst` iterates over.
func (ex *executor) elements() ([]item, error) {
	if ex.isList {
		return ex.list, nil
	}
	switch v := ex.one.v.(type) {
	case string:
		out := make([]item, 0, utf8.RuneCountInString(v))
		for i, r := range v {
			off := -1
			if ex.one.off >= 0 {
				off = ex.one.off + i
			}
			out = append(out, item{v: string(r), origin: ex.one.origin, off: off})
		}
		return out, nil
	case []any:
		out := make([]item, len(v))
		for i, e := range v {
			out[i] = item{v: e, origin: ex.one.origin, off: -1}
		}
		return out, nil
	}
	return nil, fmt.Errorf("'%s' object is not iterable", pyTypeName(ex.one.v))
}

// setList makes items the request's value, a list.
func (ex *executor) setList(items []item) {
	ex.isList, ex.list, ex.one = true, items, item{}
}

// setOne makes it the request's value, a single value.
func (ex *executor) setOne(it item) {
	ex.isList, ex.list, ex.one = false, nil, it
}

// dropUnselected marks repeats no longer present (and not already counted
// by a vote) as not kept.
func (ex *executor) dropUnselected() {
	present := ex.in.Arena.boolSlice(len(ex.traces))
	mark := func(it item) {
		if it.origin >= 0 {
			present[it.origin] = true
		}
	}
	if ex.isList {
		for _, it := range ex.list {
			mark(it)
		}
	} else {
		mark(ex.one)
	}
	for i := range ex.traces {
		if !present[i] && !ex.consumed[i] {
			ex.traces[i].Kept = false
		}
	}
}

// record sets the per-repeat value of the repeat it came from.
func (ex *executor) record(it item) {
	if it.origin >= 0 {
		ex.traces[it.origin].Extracted = valueText(it.v)
	}
}

// perElement runs fn on every element and makes the results a list, as
// the harness's per-response filters do.
func (ex *executor) perElement(fn func(it item) (item, error)) error {
	elems, err := ex.elements()
	if err != nil {
		return err
	}
	out := ex.in.Arena.itemSlice(len(elems))
	for i, it := range elems {
		o, err := fn(it)
		if err != nil {
			return err
		}
		ex.record(o)
		out[i] = o
	}
	ex.setList(out)
	return nil
}

// step runs one supported step.
func (ex *executor) step(s Step) error {
	switch s.Function {
	case "take_first":
		return ex.takeFirst()
	case "take_first_k":
		return ex.takeFirstK(s)
	case "majority_vote":
		return ex.majorityVote()
	case "regex":
		return ex.regex(s)
	case "remove_whitespace":
		return ex.removeWhitespace()
	case "lowercase":
		return ex.changeCase(pyLower, "lower")
	case "uppercase":
		return ex.changeCase(pyUpper, "upper")
	case "map":
		return ex.mapValues(s)
	case "strip_think":
		return ex.stripThink(s)
	case "multi_choice_regex":
		return ex.multiChoice(s)
	}
	return fmt.Errorf("unsupported function %q", s.Function)
}

// pyTypeName names v's Python type, for error messages that read like the
// harness's tracebacks.
func pyTypeName(v any) string {
	switch v.(type) {
	case string:
		return "str"
	case float64:
		return "float"
	case bool:
		return "bool"
	case nil:
		return "NoneType"
	case []any:
		return "list"
	case map[string]any:
		return "dict"
	}
	return fmt.Sprintf("%T", v)
}
