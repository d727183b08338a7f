package compare

import (
	"strings"

	"evalview/model"
	"evalview/model/lmfilter"
)

// NotCounted starts the Extraction.Note of a repeat that the filter's
// pipeline dropped before it could count (every repeat but the first under
// a take_first filter such as score-first, repeats past k under
// take_first_k). The extraction still holds the repeat's own answer, as
// the pipeline would give it run on that repeat alone, which is what
// pass@k counts; Votes leaves such repeats out.
const NotCounted = "not counted: "

// Vote is one distinct answer among a doc's repeats under one filter.
type Vote struct {
	Answer string
	// Count is how many counted repeats gave the answer.
	Count int
	// Correct tells whether the answer matches the target under the
	// task's metric.
	Correct bool
	// Chosen marks the answer the filter picks from the counted repeats:
	// a majority vote's winner (most votes, the first seen among equals,
	// as the harness's Counter.most_common does), or the single selected
	// repeat's answer.
	Chosen bool
}

// Votes is the histogram of the answers filter extracted from r's repeats
// (Attempt.Extractions, filled by the loader's re-extraction), counting
// only repeats the filter keeps. It is sorted by count, most first, the
// first seen first among equals; the first vote is Chosen. It is nil when
// no attempt has an extraction for filter.
func Votes(r *model.Record, filter string) []Vote {
	var out []Vote
	index := map[string]int{}
	for _, a := range r.Attempts {
		e, ok := extraction(a, filter)
		if !ok || strings.HasPrefix(e.Note, NotCounted) {
			continue
		}
		if i, seen := index[e.Answer]; seen {
			out[i].Count++
			continue
		}
		index[e.Answer] = len(out)
		out = append(out, Vote{Answer: e.Answer, Count: 1, Correct: e.Status == model.StatusPass})
	}
	// Stable insertion sort by count: most_common keeps first-seen order
	// among equal counts.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Count > out[j-1].Count; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	if len(out) > 0 {
		out[0].Chosen = true
	}
	return out
}

// extraction returns attempt a's extraction for filter.
func extraction(a model.Attempt, filter string) (model.Extraction, bool) {
	for _, e := range a.Extractions {
		if e.Filter == filter {
			return e, true
		}
	}
	return model.Extraction{}, false
}

// RepeatsRight counts r's repeats with an extraction for filter (n) and
// those whose own answer is right (c), counted or not: the inputs of
// pass@k and the "fraction of repeats right" of a doc. Repeats whose
// status is unknown count in neither.
func RepeatsRight(r *model.Record, filter string) (n, c int) {
	for _, a := range r.Attempts {
		e, ok := extraction(a, filter)
		if !ok || (e.Status != model.StatusPass && e.Status != model.StatusFail) {
			continue
		}
		n++
		if e.Status == model.StatusPass {
			c++
		}
	}
	return n, c
}

// PassAtK is the unbiased pass@k estimator 1 - C(n-c, k)/C(n, k) for n
// samples of which c are right (NaN for impossible arguments); see
// lmfilter.PassAtK.
func PassAtK(n, c, k int) float64 { return lmfilter.PassAtK(n, c, k) }

// KValues returns the k worth reporting for n repeats: 1, the powers of
// two below n, and n.
func KValues(n int) []int { return lmfilter.KValues(n) }

// RepeatCount is one doc's repeats (N) and right repeats (C).
type RepeatCount struct{ N, C int }

// MeanPassAtK averages pass@k over docs for each k in ks, each k over the
// docs with at least k repeats (docs with fewer cannot estimate it). A k
// no doc allows is left out of the map.
func MeanPassAtK(docs []RepeatCount, ks []int) map[int]float64 {
	out := map[int]float64{}
	for _, k := range ks {
		sum, n := 0.0, 0
		for _, d := range docs {
			if d.N >= k && k >= 1 {
				sum += lmfilter.PassAtK(d.N, d.C, k)
				n++
			}
		}
		if n > 0 {
			out[k] = sum / float64(n)
		}
	}
	return out
}
