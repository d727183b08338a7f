package lmfilter

import (
	"reflect"
	"testing"
)

// TestMemoSameResults: runs sharing a Memo give exactly the results of
// runs without one, including pipelines whose regex sees rewritten text
// (which must not be answered from the memo) and several group_selects.
func TestMemoSameResults(t *testing.T) {
	rx := func(p string, gs float64) Step {
		return Step{Function: "regex", Params: map[string]any{"regex_pattern": p, "group_select": gs}}
	}
	answer := `The answer is (\-?[0-9\.\,]*[0-9]+)`
	pipes := []Pipeline{
		{Name: "score-first", Steps: []Step{rx(answer, 0), {Function: "take_first"}}},
		{Name: "maj", Steps: []Step{rx(answer, 0), {Function: "majority_vote"}, {Function: "take_first"}}},
		{Name: "maj@2", Steps: []Step{{Function: "take_first_k", Params: map[string]any{"k": 2.0}}, rx(answer, 0), {Function: "majority_vote"}, {Function: "take_first"}}},
		{Name: "last", Steps: []Step{rx(`(-?[$0-9.,]{2,})|(-?[0-9]+)`, -1), {Function: "take_first"}}},
		{Name: "lower", Steps: []Step{{Function: "lowercase"}, rx(`the answer is (\-?[0-9\.\,]*[0-9]+)`, 0), {Function: "take_first"}}},
		{Name: "lower-same-pattern", Steps: []Step{{Function: "uppercase"}, rx(answer, 0), {Function: "take_first"}}},
		{Name: "strip", Steps: []Step{{Function: "remove_whitespace"}, rx(answer, 0), {Function: "majority_vote"}, {Function: "take_first"}}},
	}
	requests := [][]any{
		{"The answer is 12.", "  The answer is 7", "the answer is 12", "The answer is 1,200 and The answer is 3", "nothing", "THE ANSWER IS 9"},
		{"The answer is 5", "The answer is 6"},
		{"no", "The answer is 8", "x", "The answer is 8", "the answer is 2", "y", "z", "The answer is 1"},
	}
	memo, arena := NewMemo(), &Arena{}
	for r, resps := range requests {
		// One memo and arena serve request after request, reset between
		// them; the second round over a request is answered from the memo.
		memo.Reset()
		arena.Reset()
		in := Input{Resps: resps, Memo: memo, Arena: arena}
		for round := 0; round < 2; round++ {
			for _, p := range pipes {
				got, err1 := p.Run(in)
				want, err2 := p.Run(Input{Resps: resps})
				if (err1 != nil) != (err2 != nil) || !reflect.DeepEqual(got, want) {
					t.Errorf("request %d round %d %s: with memo %+v (%v), without %+v (%v)", r, round, p.Name, got, err1, want, err2)
				}
			}
		}
		if r == 0 && len(memo.searches) != 3 {
			t.Errorf("memo holds %d searches, want 3 (answer gs 0, flexible gs -1, and the rewritten-text pattern's entry)", len(memo.searches))
		}
	}
}
