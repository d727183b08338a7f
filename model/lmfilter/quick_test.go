package lmfilter

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// quickFilterList has every shape Quick takes (and group_select,
// fallback and vote variants), as a task config spells them.
const quickFilterList = `[
 {"name": "strict-match", "filter": [{"function": "regex", "regex_pattern": "#### (\\-?[0-9\\.\\,]+)"}, {"function": "take_first"}]},
 {"name": "flexible-extract", "filter": [{"function": "regex", "group_select": -1, "regex_pattern": "(-?[$0-9.,]{2,})|(-?[0-9]+)"}, {"function": "take_first"}]},
 {"name": "score-first", "filter": [{"function": "regex", "regex_pattern": "The answer is (\\-?[0-9\\.\\,]*[0-9]+)"}, {"function": "take_first"}]},
 {"name": "maj@64", "filter": [{"function": "regex", "regex_pattern": "The answer is (\\-?[0-9\\.\\,]*[0-9]+)"}, {"function": "majority_vote"}, {"function": "take_first"}]},
 {"name": "maj@8", "filter": [{"function": "take_first_k", "k": 8}, {"function": "regex", "regex_pattern": "The answer is (\\-?[0-9\\.\\,]*[0-9]+)"}, {"function": "majority_vote"}, {"function": "take_first"}]},
 {"name": "second", "filter": [{"function": "regex", "group_select": 1, "fallback": " none ", "regex_pattern": "(\\d+)|(x)"}, {"function": "majority_vote"}, {"function": "take_first"}]},
 {"name": "empty-groups", "filter": [{"function": "regex", "fallback": " none ", "regex_pattern": "(a?)b|(c)"}, {"function": "take_first"}]},
 {"name": "slow", "filter": [{"function": "regex", "regex_pattern": "(?i)answer: (\\w+)"}, {"function": "take_first"}]}
]`

// TestQuickMatchesRun: wherever Quick answers, its own answers are the
// per-repeat values the executor traces and its answer is the executor's.
func TestQuickMatchesRun(t *testing.T) {
	pipes, err := ParseFilterList([]byte(quickFilterList))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"The answer is ", "#### ", "12", "3.5", "1,000", "-", "$", " ", "\n", "x", "Answer: ", "ok", "é", "\xff", "7", "b", "ab", "c"}
	text := func() string {
		var b strings.Builder
		for k := rng.IntN(10); k > 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	compared := 0
	for _, p := range pipes {
		q := QuickFor(p)
		if q == nil {
			t.Fatalf("%s: no Quick form", p.Name)
		}
		own := Pipeline{Name: p.Name, Steps: p.Steps[:len(p.Steps)-1]}
		for len(own.Steps) > 0 && own.Steps[len(own.Steps)-1].Function == "majority_vote" {
			own.Steps = own.Steps[:len(own.Steps)-1]
		}
		if own.Steps[0].Function == "take_first_k" {
			own.Steps = own.Steps[1:]
		}
		for range 400 {
			texts := make([]string, rng.IntN(12))
			if rng.IntN(4) == 0 {
				texts = make([]string, 64)
			}
			for i := range texts {
				texts[i] = text()
			}
			got := make([]string, len(texts))
			ownErr := false
			for i, s := range texts {
				if got[i], err = q.Own(s); err != nil {
					ownErr = true
				}
			}
			res, runErr := p.Apply(texts)
			if ownErr {
				if runErr == nil {
					t.Errorf("%s on %q: Own failed, the executor did not", p.Name, texts)
				}
				continue
			}
			ownRes, err := own.Apply(texts)
			if err != nil {
				t.Fatalf("%s: %v", own, err)
			}
			for i := range texts {
				if got[i] != ownRes.PerRepeat[i].Extracted {
					t.Fatalf("%s repeat %d %q: Own %q, executor %q", p.Name, i, texts[i], got[i], ownRes.PerRepeat[i].Extracted)
				}
			}
			answer, ok := q.Answer(got)
			if !ok {
				continue
			}
			if runErr != nil || len(res.Notes) > 0 || answer != res.Answer {
				t.Fatalf("%s on %q: Quick %q, executor %q (%v, notes %v)", p.Name, texts, answer, res.Answer, runErr, res.Notes)
			}
			compared++
		}
	}
	if compared < 1000 {
		t.Fatalf("only %d answers compared", compared)
	}
}

// TestQuickRefuses: pipelines of other shapes get no Quick form.
func TestQuickRefuses(t *testing.T) {
	pipes, err := ParseFilterList([]byte(`[
 {"name": "a", "filter": [{"function": "regex"}, {"function": "lowercase"}, {"function": "take_first"}]},
 {"name": "b", "filter": [{"function": "regex"}, {"function": "majority_vote"}]},
 {"name": "c", "filter": [{"function": "take_first_k", "k": 0}, {"function": "regex"}, {"function": "take_first"}]},
 {"name": "d", "filter": [{"function": "regex", "fallback": 3}, {"function": "take_first"}]},
 {"name": "e", "filter": [{"function": "take_first"}]},
 {"name": "f", "filter": [{"function": "remove_whitespace"}, {"function": "regex"}, {"function": "take_first"}]}
]`))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pipes {
		if QuickFor(p) != nil {
			t.Errorf("%s (%s): has a Quick form", p.Name, p)
		}
	}
}
