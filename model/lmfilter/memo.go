package lmfilter

// Memo remembers regex searches over a request's repeats, so that several
// pipelines run over the same repeats (score-first, maj@64 and maj@8 all
// search "The answer is ..." in every repeat) search each repeat once per
// pattern and group_select. A Memo belongs to one Input's repeats: pass
// the same Memo only to runs over the same Resps. It is not safe for
// concurrent use.
type Memo struct {
	// searches are few (one per distinct pattern and group_select of the
	// task's filters), so a list beats a map keyed by repeat.
	searches []memoSearch
	// spare are emptied searches whose buffers Reset kept.
	spare []memoSearch
}

// memoSearch holds one pattern's results, by repeat.
type memoSearch struct {
	re   *Regexp
	gs   int
	hits []regexHit
	have []bool
	// vals are the stripped matches, boxed once for every run's items.
	vals []any
}

// NewMemo returns an empty Memo.
func NewMemo() *Memo { return &Memo{} }

// Reset empties the memo for another request's repeats, keeping its
// buffers; results it gave before must no longer be used.
func (m *Memo) Reset() {
	m.spare = append(m.spare, m.searches...)
	m.searches = m.searches[:0]
}

// search is re.extract(text, gs), answered from the Input's Memo when text
// is the unmodified repeat origin (a previous step may have rewritten it:
// then the search runs).
// val, when not nil, holds the hit's stripped value boxed (nil until the
// first run boxes it): runs share it rather than box it again.
func (ex *executor) search(re *Regexp, gs, origin int, text string) (hit regexHit, val *any, err error) {
	m := ex.in.Memo
	if m == nil || origin < 0 || origin >= len(ex.in.Resps) {
		hit, err = re.extract(text, gs)
		return hit, nil, err
	}
	if orig, ok := ex.in.Resps[origin].(string); !ok || orig != text {
		hit, err = re.extract(text, gs)
		return hit, nil, err
	}
	var ms *memoSearch
	for k := range m.searches {
		if m.searches[k].re == re && m.searches[k].gs == gs {
			ms = &m.searches[k]
			break
		}
	}
	if ms == nil {
		n := len(ex.in.Resps)
		s := memoSearch{re: re, gs: gs}
		if k := len(m.spare) - 1; k >= 0 && cap(m.spare[k].hits) >= n {
			s.hits, s.have, s.vals = m.spare[k].hits[:n], m.spare[k].have[:n], m.spare[k].vals[:n]
			clear(s.hits)
			clear(s.have)
			clear(s.vals)
			m.spare = m.spare[:k]
		} else {
			s.hits, s.have, s.vals = make([]regexHit, n), make([]bool, n), make([]any, n)
		}
		m.searches = append(m.searches, s)
		ms = &m.searches[len(m.searches)-1]
	}
	if ms.have[origin] {
		return ms.hits[origin], &ms.vals[origin], nil
	}
	hit, err = re.extract(text, gs)
	if err != nil {
		return hit, nil, err
	}
	ms.hits[origin], ms.have[origin] = hit, true
	return hit, &ms.vals[origin], nil
}
