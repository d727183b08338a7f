package lmeval

import (
	"evalview/model"
	"evalview/model/compare"
	"evalview/model/lmfilter"
)

// The deep check's quick path. When every filter of a doc has the
// harness's common shape (lmfilter.Quick: a regex, maybe a vote, the
// first answer), the deep check needs only each repeat's own answer per
// distinct regex step and each filter's answer, and computes them
// without the executor, whose traces it would throw away. quickDoc
// reports the same issues and counts deepDoc's eachRun path does
// (TestQuickDocMatchesEachRun), and declines (ok false) anything else.

// quickScratch is one deep-check worker's buffers for quickDoc.
type quickScratch struct {
	owns  []quickOwn
	spare [][]string
}

// quickOwn is one regex step's own answers for the doc's repeats and
// their tally.
type quickOwn struct {
	key  string
	own  []string
	n, c int
}

// quickDoc is deepDoc's re-extraction of a lean record on the quick
// path; ok is false when a filter or a repeat needs the executor.
func (x *index) quickDoc(rec *model.Record, texts []string, qs *quickScratch) (docResult, bool) {
	re := x.reextractor()
	if re.skip || len(texts) == 0 {
		return docResult{}, false
	}
	generate := false
	for _, fr := range rec.Filters {
		generate = generate || fr.Answers != nil
	}
	if !generate {
		return docResult{}, false
	}
	pipes := make([]*pipe, len(rec.Filters))
	x.re.mu.Lock()
	for k, fr := range rec.Filters {
		pipes[k] = re.pipeFor(fr.Filter)
	}
	x.re.mu.Unlock()
	for _, p := range pipes {
		if p != nil && p.quick == nil {
			return docResult{}, false
		}
	}
	qs.reset()
	score := re.newScorer(rec.Target)
	found := make([]finding, 0, len(rec.Filters))
	for k, fr := range rec.Filters {
		p := pipes[k]
		if p == nil {
			continue
		}
		o, err := qs.ownFor(p.quick, texts, score)
		if err != nil {
			return docResult{}, false // the executor words the error
		}
		answer, ok := p.quick.Answer(o.own)
		if !ok {
			return docResult{}, false
		}
		found = append(found, finding{fr: fr, p: p, answer: answer, n: o.n, c: o.c})
	}
	return x.findings(rec.ID, found, len(texts), score), true
}

// finding is one filter's re-extraction of a doc on the quick path: its
// answer and right repeats, beside the filter's logged answers (fr).
type finding struct {
	fr     model.FilterResult
	p      *pipe
	answer string
	n, c   int
}

// findings is deepDoc's result from a doc's findings, in row order: a
// reextract-mismatch warning per filter whose one logged answer the
// pipeline does not give and a rescore-mismatch one per logged
// exact_match its answer does not give (counted once in the doc's
// summary), the right repeats per filter, as eachRun's path reports them.
func (x *index) findings(id string, found []finding, repeats int, score *scorer) docResult {
	d := docResult{repeats: repeats, reextracted: len(found)}
	re := x.reextractor()
	for _, f := range found {
		d.defaulted = d.defaulted || f.p.defaulted
		if len(f.fr.Answers) == 1 && f.answer != f.fr.Answers[0] {
			d.issues = append(d.issues, re.mismatch(id, f.fr, f.p, f.fr.Answers[0], f.answer))
		} else if is, ok := re.rescore(id, f.fr, score); ok {
			d.issues = append(d.issues, is) // one warning a row: a disputed answer is not re-scored
		}
		if f.n > 0 {
			d.counts = append(d.counts, filterCount{f.fr.Filter, compare.RepeatCount{N: f.n, C: f.c}})
		}
	}
	x.countOnce(id, countWarnings(d.issues))
	return d
}

// reset forgets the previous doc's own answers, keeping their buffers.
func (qs *quickScratch) reset() {
	for _, o := range qs.owns {
		qs.spare = append(qs.spare, o.own)
	}
	qs.owns = qs.owns[:0]
}

// forget clears the kept buffers' answers, which point into a doc's texts,
// after reset.
func (qs *quickScratch) forget() {
	for _, own := range qs.spare {
		clear(own[:cap(own)])
	}
}

// ownFor returns q's own answers for texts and their tally, computed
// once per distinct regex step of the doc.
func (qs *quickScratch) ownFor(q *lmfilter.Quick, texts []string, score *scorer) (*quickOwn, error) {
	for k := range qs.owns {
		if qs.owns[k].key == q.OwnKey() {
			return &qs.owns[k], nil
		}
	}
	var own []string
	if n := len(qs.spare); n > 0 {
		own, qs.spare = qs.spare[n-1][:0], qs.spare[:n-1]
	}
	o := quickOwn{key: q.OwnKey()}
	for _, s := range texts {
		v, err := q.Own(s)
		if err != nil {
			return nil, err
		}
		own = append(own, v)
		o.n, o.c = score.tally(o.n, o.c, v)
	}
	o.own = own
	qs.owns = append(qs.owns, o)
	return &qs.owns[len(qs.owns)-1], nil
}
