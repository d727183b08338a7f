package plain

import (
	"container/heap"
	"hash/maphash"
	"slices"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// A repeated id is found by the records' ids' 64-bit hashes, sorted once
// indexing is done: a map of 10 million ids took more than the budget of
// the whole file, their hashes take 8 bytes each while the file is
// indexed. The records whose hash repeats are then read again, to name
// each by the line of the first with its id.

// idSet gathers the hashes of a file's ids, in chunks (the first grows by
// append, the next are never copied to grow).
type idSet struct {
	seed   maphash.Seed
	chunks [][]uint64
}

func newIDSet() *idSet { return &idSet{seed: maphash.MakeSeed()} }

func (s *idSet) add(id string) {
	if len(s.chunks) == 0 || len(s.chunks[len(s.chunks)-1]) == chunkSize {
		s.chunks = append(s.chunks, make([]uint64, 0, chunkCap(len(s.chunks)*chunkSize)))
	}
	last := &s.chunks[len(s.chunks)-1]
	*last = append(*last, maphash.String(s.seed, id))
}

// repeated returns the hashes given more than once, sorting each chunk and
// merging them (no copy of them all); the set is emptied.
func (s *idSet) repeated() map[uint64]bool {
	h := &chunkHeap{}
	for _, c := range s.chunks {
		slices.Sort(c)
		if len(c) > 0 {
			*h = append(*h, c)
		}
	}
	s.chunks = nil
	heap.Init(h)
	var out map[uint64]bool
	prev, any := uint64(0), false
	for h.Len() > 0 {
		c := (*h)[0]
		v := c[0]
		if any && v == prev {
			if out == nil {
				out = map[uint64]bool{}
			}
			out[v] = true
		}
		prev, any = v, true
		if (*h)[0] = c[1:]; len(c) == 1 {
			heap.Pop(h)
		} else {
			heap.Fix(h, 0)
		}
	}
	return out
}

// chunkHeap orders sorted chunks by their first hash.
type chunkHeap [][]uint64

func (h chunkHeap) Len() int           { return len(h) }
func (h chunkHeap) Less(i, j int) bool { return h[i][0] < h[j][0] }
func (h chunkHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *chunkHeap) Push(x any)        { *h = append(*h, x.([]uint64)) }
func (h *chunkHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// maxDupMarks bounds the records named by their line for a repeated id;
// the ones past it keep their id, and a dataset issue says so.
const maxDupMarks = 100_000

// markDups finds the records whose id an earlier record gives, among those
// whose hash is in dups, reading their ids again (from the kept summaries,
// or the file), and marks each with the first one's line (in a document,
// its place in the list).
func (x *index) markDups(dups map[uint64]bool, seed maphash.Seed) []model.Issue {
	first := map[string]int{}
	x.dupOf = map[int]int{}
	var issues []model.Issue
	note := func(i int, id string, line int) bool {
		if !dups[maphash.String(seed, id)] {
			return true
		}
		f, ok := first[id]
		if !ok {
			first[id] = line
			return true
		}
		if len(x.dupOf) == maxDupMarks {
			issues = append(issues, model.Warnf("duplicate-id", x.path, line, "", "more than %d records give an id an earlier one gives: from here on they keep it", maxDupMarks))
			return false
		}
		x.dupOf[i] = f
		return true
	}
	if x.keptSums != nil {
		for i := range x.keptSums {
			if !note(i, x.keptSums[i].ID, x.place(i, x.keptSums[i].Line)) {
				break
			}
		}
		return issues
	}
	i := 0
	err := x.lines(0, x.n, int(x.blocks[0].line), func(l jsonl.Line) (bool, error) {
		rec, bad := x.buildAt(l, i, false)
		if bad != nil {
			return false, nil
		}
		if !note(i, rec.ID, x.place(i, l.N)) {
			return true, errStop
		}
		i++
		return true, nil
	})
	if err != nil {
		issues = append(issues, model.Errorf("read-error", x.path, 0, "", "reading it again for repeated ids stopped: %v", err))
	}
	if i < x.n && len(issues) == 0 {
		issues = append(issues, model.Errorf("read-error", x.path, 0, "", "reading it again for repeated ids found %d records of %d: the file changed since it was opened", i, x.n))
	}
	return issues
}

// place is what names record i, on line line, to a later record with its
// id: its line, or in a document its place in the list.
func (x *index) place(i, line int) int {
	if x.doc != nil {
		return x.doc.pos(i) + 1
	}
	return line
}
