package lmeval

import (
	"slices"
	"strings"
	"sync"

	"evalview/model"
)

// Deep work while indexing. check and summary run the deep check right
// after the index; re-extraction then read every doc's first row back
// from the file and split it again, though the index had just held and
// split it. When the caller asks for it (OpenForDeep), the index's parse
// workers re-extract the doc from the row they have claimed, on the quick
// path, for every filter of the task config, and keep only the answers and
// counts (preDoc). The deep check then builds a doc's findings from them
// and the logged answers the index holds, without a read. A doc whose
// findings the pass cannot trust (its first row is not the one prepared,
// a filter was not prepared, a logged answer is not in the index) goes
// the usual way; TestPreparedDeepMatches holds both ways to one report.

// preDoc is a doc's re-extraction done while indexing.
type preDoc struct {
	// line is the row it was computed from: the doc's first row must be
	// that one for the findings to be the lean path's.
	line    int32
	repeats int
	filters []preFilter
	// target is the doc's target as the task's exact_match normalises
	// it (targetOK false when it cannot), to re-score logged answers.
	target   string
	alts     []string
	targetOK bool
}

// preFilter is one config filter's answer and right repeats for a doc.
type preFilter struct {
	p      *pipe
	answer string
	n, c   int
}

// preScratch is a parse worker's buffers for prepare.
type preScratch struct {
	arena textArena
	texts []string
	quick quickScratch
}

var preScratchPool = sync.Pool{New: func() any { return new(preScratch) }}

// preparer returns the index's prepare function for its parse workers,
// nil when the deep check would not take the quick path anyway (no task
// config, a task that does not generate, a filter without a Quick form).
func (x *index) preparer() func(h *rowHead) *preDoc {
	re := x.reextractor()
	if re.skip || !re.hasConfig || len(re.pipes) == 0 {
		return nil
	}
	names := make([]string, 0, len(re.pipes))
	for name, p := range re.pipes {
		if p.quick == nil {
			return nil
		}
		names = append(names, name)
	}
	slices.Sort(names)
	pipes := make([]*pipe, len(names))
	for k, name := range names {
		pipes[k] = re.pipes[name]
	}
	return func(h *rowHead) *preDoc { return prepare(re, pipes, h) }
}

// prepare re-extracts the doc of row h for every pipe; nil when the row's
// repeats are not plain texts (the deep check then reads them itself).
func prepare(re *reextractor, pipes []*pipe, h *rowHead) *preDoc {
	sc := preScratchPool.Get().(*preScratch)
	var texts []string
	var ok bool
	if len(h.Resps) > bigRow {
		// The block is the pipeline's, read for this row only, and the
		// parse is done with its repeats (attemptCount came before): a
		// long row's texts are decoded over their own bytes rather than
		// copied beside them.
		texts, ok = repeatStringsInPlace(sc.texts[:0], h.Resps)
	} else {
		sc.arena.reset(len(h.Resps))
		texts, ok = sc.arena.repeatStrings(sc.texts[:0], h.Resps)
	}
	defer func() {
		// The pool must not keep the block alive (a line of hundreds of
		// MB is handed back right after it is indexed): drop every
		// string into it, and a big arena.
		clear(texts)
		sc.texts = texts[:0]
		sc.quick.reset()
		sc.quick.forget()
		sc.arena.drop()
		preScratchPool.Put(sc)
	}()
	if !ok || len(texts) == 0 {
		return nil
	}
	qs := &sc.quick
	qs.reset()
	score := re.newScorer(scalarText(h.Target))
	pre := &preDoc{repeats: len(texts), filters: make([]preFilter, 0, len(pipes)), target: score.target, alts: score.alts, targetOK: score.ok}
	for _, p := range pipes {
		o, err := qs.ownFor(p.quick, texts, score)
		if err != nil {
			return nil
		}
		answer, ok := p.quick.Answer(o.own)
		if !ok {
			return nil
		}
		// The texts are the block's and the arena's: keep a copy.
		pre.filters = append(pre.filters, preFilter{p: p, answer: strings.Clone(answer), n: o.n, c: o.c})
	}
	return pre
}

// preparedDoc is deepDoc's findings for record i from its preDoc; ok is
// false when the usual way must run.
func (x *index) preparedDoc(i int) (docResult, bool) {
	x.s.mu.RLock()
	var pre *preDoc
	if i < len(x.s.pre) {
		pre = x.s.pre[i]
	}
	locs := x.s.rowsOf(i)
	sum := x.s.summary(i)
	x.s.mu.RUnlock()
	if pre == nil || len(locs) == 0 || locs[0].line != pre.line {
		return docResult{}, false
	}
	re := x.reextractor()
	found := make([]finding, 0, len(locs))
	for _, loc := range locs {
		if !loc.one || int(loc.filter) >= len(sum.Outcomes) {
			return docResult{}, false
		}
		x.s.mu.RLock()
		name := x.s.filters[loc.filter]
		x.s.mu.RUnlock()
		k := slices.IndexFunc(pre.filters, func(f preFilter) bool { return f.p.p.Name == name })
		x.re.mu.Lock()
		p := re.pipeFor(name)
		x.re.mu.Unlock()
		if p == nil {
			continue // a filter the config does not know: not re-applied
		}
		if k < 0 || pre.filters[k].p != p {
			return docResult{}, false
		}
		f := pre.filters[k]
		logged := sum.Outcomes[loc.filter].Answer // the row's one answer (loc.one)
		fr := model.FilterResult{Filter: name, Line: int(loc.line), Answer: logged, Answers: []string{logged}, Metrics: sum.Outcomes[loc.filter].Metrics}
		found = append(found, finding{fr: fr, p: p, answer: f.answer, n: f.n, c: f.c})
	}
	var score *scorer
	if re.em != nil {
		score = &scorer{em: re.em, target: pre.target, alts: pre.alts, ok: pre.targetOK, seen: map[string]model.Status{}}
	}
	return x.findings(sum.ID, found, pre.repeats, score), true
}

// allPrepared reports whether the first total records all have a preDoc
// for their first row and one logged answer per row, so that the deep
// check need not stream a compressed file again (a record the preDoc
// still does not serve is read back on its own).
func (x *index) allPrepared(total int) bool {
	x.s.mu.RLock()
	defer x.s.mu.RUnlock()
	if len(x.s.pre) < total {
		return false
	}
	for i := range total {
		pre, locs := x.s.pre[i], x.s.rowsOf(i)
		if pre == nil || len(locs) == 0 || locs[0].line != pre.line {
			return false
		}
		for _, loc := range locs {
			if !loc.one {
				return false
			}
		}
	}
	return true
}
