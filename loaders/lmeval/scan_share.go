package lmeval

import (
	"encoding/binary"
	"math"

	"evalview/model"
)

// maxSharedAnswer is the longest answer text the scan shares between
// rows: longer ones are a generation's own.
const maxSharedAnswer = 64

// shareAfter is the rows of a file that keep their own answers and
// metrics before the scan shares them: a file of a few rows would spend
// more on the tables than they save (a folder of 5,000 such files).
const shareAfter = 16

// sharing lets the rows of one samples file share the answers and metric
// lists they have in common, as labels do (labeler): a row's answer is
// mostly one of a few ("[invalid]", "A", "42") and its metrics one of a
// few ([exact_match 0], [exact_match 1]), which 430,000 rows of a
// 600-file folder each held a copy of (16 MB). Each table stops growing
// at maxInterned entries. The scan drops the tables when it is over.
type sharing struct {
	rows    int
	answers map[string]string
	metrics map[string][]model.MetricValue
	key     []byte // reused to build metric lists' keys
}

// share replaces o's answer and metric list by the copies already held,
// or keeps them to share. The caller holds the index lock. Shared metric
// lists have no spare room, so that an append copies them.
func (sh *sharing) share(o *model.Outcome) {
	if sh.rows++; sh.rows <= shareAfter {
		return
	}
	if a := o.Answer; a != "" && len(a) <= maxSharedAnswer {
		if sh.answers == nil {
			sh.answers = map[string]string{}
		}
		if s, ok := sh.answers[a]; ok {
			o.Answer = s
		} else if len(sh.answers) < maxInterned {
			sh.answers[a] = a
		}
	}
	if len(o.Metrics) == 0 {
		return
	}
	// The key spells each name's length, so that no two lists share one.
	k := sh.key[:0]
	for _, m := range o.Metrics {
		k = binary.AppendUvarint(k, uint64(len(m.Name)))
		k = append(k, m.Name...)
		k = binary.LittleEndian.AppendUint64(k, math.Float64bits(m.Value))
	}
	sh.key = k
	if ms, ok := sh.metrics[string(k)]; ok {
		o.Metrics = ms
		return
	}
	if sh.metrics == nil {
		sh.metrics = map[string][]model.MetricValue{}
	}
	if len(sh.metrics) < maxInterned {
		o.Metrics = o.Metrics[:len(o.Metrics):len(o.Metrics)]
		sh.metrics[string(k)] = o.Metrics
	}
}
