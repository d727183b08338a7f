package lmfilter

import "slices"

// counter counts keys in the order they are first seen, as Python's
// collections.Counter does for majority_vote. Repeats agree a lot (a
// handful of distinct answers among 64): a scan of the keys finds one
// faster than a map would, until there are more than counterScan.
type counter[K comparable] struct {
	keys   []K
	counts []int
	index  map[K]int
	// The first keys live here, sparing the allocations for a vote
	// (one per doc and voting filter in the deep check).
	smallKeys   [counterScan]K
	smallCounts [counterScan]int
}

const counterScan = 16

// add counts k and returns its position in first-seen order and whether
// it is new.
func (c *counter[K]) add(k K) (pos int, isNew bool) {
	if c.keys == nil {
		c.keys, c.counts = c.smallKeys[:0], c.smallCounts[:0]
	}
	if c.index != nil {
		if i, ok := c.index[k]; ok {
			c.counts[i]++
			return i, false
		}
	} else {
		for i := range c.keys {
			if c.keys[i] == k {
				c.counts[i]++
				return i, false
			}
		}
	}
	c.keys, c.counts = append(c.keys, k), append(c.counts, 1)
	pos = len(c.keys) - 1
	switch {
	case c.index != nil:
		c.index[k] = pos
	case len(c.keys) > counterScan:
		c.index = make(map[K]int, 2*len(c.keys))
		for i, key := range c.keys {
			c.index[key] = i
		}
	}
	return pos, true
}

// top is the position of most_common(1): the highest count, the first
// seen on a tie; -1 when nothing was counted.
func (c *counter[K]) top() int {
	best := -1
	for i, n := range c.counts {
		if best < 0 || n > c.counts[best] {
			best = i
		}
	}
	return best
}

// mostCommon returns the positions in most_common() order: count
// descending, first seen first on a tie.
func (c *counter[K]) mostCommon() []int {
	order := make([]int, len(c.keys))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return c.counts[b] - c.counts[a] })
	return order
}
