package lmfilter

import (
	"errors"
	"fmt"
)

// Input is what one request of a doc gives a pipeline.
type Input struct {
	// Resps are the request's repeats as logged in the samples row's
	// resps[i]: strings for generate_until, [logprob, is_greedy] pairs for
	// loglikelihood. Values are what encoding/json decodes into any.
	Resps []any
	// Doc is the doc; only multi_choice_regex needs it (doc["choices"]).
	Doc map[string]any
	// Memo, when set, shares regex searches between runs of several
	// pipelines over these Resps (nil: every run searches).
	Memo *Memo
	// Arena, when set, lends the run's slices (see Arena; nil allocates).
	Arena *Arena
}

// Result is a pipeline's output for one request and how it came about.
type Result struct {
	// Value is the filtered response as the harness logs it in
	// filtered_resps[i]: normally a string, a list when the pipeline does
	// not end in a selection, a [logprob, is_greedy] pair for
	// loglikelihood requests. Nil when the pipeline could not run.
	Value any
	// Answer is Value as text: a string as itself, anything else compact
	// JSON.
	Answer string
	// Answers are the texts of Value's elements when Value is a list, or
	// just Answer.
	Answers []string
	// PerRepeat has one entry per input repeat, in order.
	PerRepeat []RepeatTrace
	// Votes is the histogram of the last majority_vote step, in
	// Counter.most_common() order (count descending, first seen first);
	// nil when the pipeline has no vote.
	Votes []Vote
	// Unsupported lists steps that could not be re-applied ("2: custom").
	Unsupported []string
	// Notes are non-fatal remarks (a take_first_k with too few repeats).
	Notes []string
}

// RepeatTrace explains what happened to one repeat.
type RepeatTrace struct {
	// Index is the repeat's position in resps.
	Index int
	// Kept is false when a selection step (take_first_k, take_first)
	// dropped the repeat before it could count: every repeat but the first
	// under score-first, repeats past k under take_first_k.
	Kept bool
	// Extracted is the repeat's value after the last per-repeat step (what
	// a vote counts): the regex result, "[invalid]" when nothing matched,
	// or the raw text when no per-repeat step ran.
	Extracted string
	// Regex is true when a regex step ran on the repeat; Matched tells
	// whether it extracted something rather than falling back.
	Regex   bool
	Matched bool
	// Span is the byte span of the extracted text in the original repeat
	// text, {-1, -1} when nothing matched or the regex ran on text a
	// previous step rewrote beyond mapping back (lowercase of ß, map).
	Span [2]int
	// Matches are the whole-match spans of the regex in the original text
	// (at most 256; MatchCount counts them all). Nil when not mappable.
	Matches    [][2]int
	MatchCount int
}

// Vote is one distinct answer of a majority vote and how many repeats gave
// it.
type Vote struct {
	Answer string
	Count  int
}

// ErrUnsupported is matched (errors.Is) by an UnsupportedError.
var ErrUnsupported = errors.New("unsupported filter step")

// UnsupportedError says a step cannot be re-applied: an unregistered or
// custom function, or multi_choice_regex without the doc's choices.
type UnsupportedError struct {
	Pipeline string
	Step     int // 1-based
	Function string
	Reason   string
}

// Error names the pipeline, the step and why it cannot run.
func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("filter %q step %d (%s): %s", e.Pipeline, e.Step, e.Function, e.Reason)
}

// Is makes errors.Is(err, ErrUnsupported) true.
func (e *UnsupportedError) Is(target error) bool { return target == ErrUnsupported }

// StepError is a step failing where the harness would raise (take_first of
// an empty list, group_select out of range, a bad regex).
type StepError struct {
	Pipeline string
	Step     int // 1-based
	Function string
	Err      error
}

// Error names the pipeline, the step and what went wrong.
func (e *StepError) Error() string {
	return fmt.Sprintf("filter %q step %d (%s): %v", e.Pipeline, e.Step, e.Function, e.Err)
}

// Unwrap returns the underlying error.
func (e *StepError) Unwrap() error { return e.Err }

// Apply runs the pipeline over one generate_until request's repeats.
func (p Pipeline) Apply(resps []string) (Result, error) {
	in := Input{Resps: make([]any, len(resps))}
	for i, r := range resps {
		in.Resps[i] = r
	}
	return p.Run(in)
}

// Run runs the pipeline over one request. On an UnsupportedError nothing
// runs and Result.Unsupported says why; on a StepError Result holds the
// traces up to the failing step and a nil Value.
func (p Pipeline) Run(in Input) (Result, error) {
	ex := newExecutor(p, in)
	res := Result{PerRepeat: ex.traces}
	if err := ex.check(); err != nil {
		var ue *UnsupportedError
		if errors.As(err, &ue) {
			res.Unsupported = p.Unsupported()
			if len(res.Unsupported) == 0 { // a supported step missing its input
				res.Unsupported = []string{fmt.Sprintf("%d: %s", ue.Step, ue.Function)}
			}
		}
		return res, err
	}
	for i, s := range p.Steps {
		if err := ex.step(s); err != nil {
			res.Votes, res.Notes = ex.votes, ex.notes
			return res, &StepError{Pipeline: p.Name, Step: i + 1, Function: s.Function, Err: err}
		}
	}
	res.Value = ex.value()
	res.Answer = valueText(res.Value)
	if l, ok := res.Value.([]any); ok {
		res.Answers = make([]string, len(l))
		for i, v := range l {
			res.Answers[i] = valueText(v)
		}
	} else {
		res.Answers = []string{res.Answer}
	}
	res.Votes, res.Notes = ex.votes, ex.notes
	return res, nil
}

// check refuses pipelines with steps this package cannot run, before any
// step runs.
func (ex *executor) check() error {
	for i, s := range ex.p.Steps {
		if !isSupported(s.Function) {
			return &UnsupportedError{Pipeline: ex.p.Name, Step: i + 1, Function: s.Function,
				Reason: "not a built-in harness filter (custom or task-specific code cannot be re-run)"}
		}
		if s.Function == "multi_choice_regex" {
			if _, ok := ex.in.Doc["choices"].([]any); !ok {
				return &UnsupportedError{Pipeline: ex.p.Name, Step: i + 1, Function: s.Function,
					Reason: "needs the doc's \"choices\" list to build its fallback patterns"}
			}
		}
	}
	return nil
}
