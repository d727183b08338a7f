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
func (x *index) quickDoc(rec *model.Record, texts []string, qs *quickScratch) (d docResult, ok bool) {
	re := x.reextractor()
	if re.skip || len(texts) == 0 {
		return d, false
	}
	generate := false
	for _, fr := range rec.Filters {
		generate = generate || fr.Answers != nil
	}
	if !generate {
		return d, false
	}
	strs := texts
	pipes := make([]*pipe, len(rec.Filters))
	x.re.mu.Lock()
	for k, fr := range rec.Filters {
		pipes[k] = re.pipeFor(fr.Filter)
	}
	x.re.mu.Unlock()
	for _, p := range pipes {
		if p != nil && p.quick == nil {
			return d, false
		}
	}
	qs.reset()
	score := re.newScorer(rec.Target)
	var issues []model.Issue
	for k, fr := range rec.Filters {
		p := pipes[k]
		if p == nil {
			continue
		}
		o, err := qs.ownFor(p.quick, strs, score)
		if err != nil {
			return docResult{}, false // the executor words the error
		}
		answer, ok := p.quick.Answer(o.own)
		if !ok {
			return docResult{}, false
		}
		d.defaulted = d.defaulted || p.defaulted
		if len(fr.Answers) == 1 && answer != fr.Answers[0] {
			issues = append(issues, re.mismatch(rec.ID, fr, p, fr.Answers[0], answer))
		}
		if o.n > 0 {
			d.counts = append(d.counts, filterCount{fr.Filter, compare.RepeatCount{N: o.n, C: o.c}})
		}
	}
	x.countOnce(rec.ID, len(issues))
	d.issues = issues
	d.repeats = len(texts)
	return d, true
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
