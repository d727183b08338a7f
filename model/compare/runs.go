package compare

import (
	"sort"
	"strconv"

	"evalview/model"
)

// Pair is one record key of a two-run comparison: the record on each side
// (-1 when that run has no such record), its cell in the 2x2 table, and
// the scores.
type Pair struct {
	// Key is what paired the records (a doc id, "source.jsonl#3", a
	// rendering name, a Sample id).
	Key string
	// A and B are record indexes in each run, -1 when absent.
	A, B int
	Cell Cell
	// ScoreA and ScoreB are the records' scores under the compared
	// filters; HasA and HasB tell whether there is one.
	ScoreA, ScoreB float64
	HasA, HasB     bool
	// Delta is ScoreB - ScoreA, 0 unless both have a score.
	Delta float64
}

// Flipped reports whether the record is right in one run and wrong in the
// other.
func (p Pair) Flipped() bool { return p.Cell == OnlyA || p.Cell == OnlyB }

// RunKey returns the key that pairs record i of ds with the same prompt in
// another run of kind ds.Kind:
//
//   - lm-eval, Sample JSONL and testsets: the record id (doc_id, id);
//   - run zips: the source file and sample_index ("gsm8k.jsonl#3") when
//     the run names its source file, else the rendering name (the title).
//
// Runs uses RunKeys, which also falls back to titles when two run zips
// name different source files.
func RunKey(ds *model.Dataset, i int) string {
	s := ds.Records.Summary(i)
	if ds.Kind == model.KindRun {
		if src := ds.Fact("source file"); src != "" {
			return src + "#" + s.ID
		}
		return s.Title
	}
	return s.ID
}

// runKeys keys every record of a and b. Run zips pair by source file and
// sample_index only when both name the same source file; otherwise by
// rendering name, which survives a re-sampled or re-ordered source.
func runKeys(a, b *model.Dataset) (ka, kb []string) {
	byTitle := a.Kind == model.KindRun && b.Kind == model.KindRun &&
		(a.Fact("source file") == "" || a.Fact("source file") != b.Fact("source file"))
	keys := func(ds *model.Dataset) []string {
		out := make([]string, ds.Records.Len())
		for i := range out {
			if byTitle {
				out[i] = ds.Records.Summary(i).Title
			} else {
				out[i] = RunKey(ds, i)
			}
		}
		return out
	}
	return keys(a), keys(b)
}

// Runs pairs the records of two runs over the same prompts (see RunKey),
// compares filterA of a with filterB of b (an index out of range reads the
// record's own status and score, as for run zips), and returns the 2x2
// table with every pair. Records present on one side only are pairs with
// A or B = -1, in the Missing cell. A key repeated within one run pairs
// with the first record of that key only; later ones stand alone.
//
// Pairs are sorted by |Delta|, largest first, then by key in natural
// order, so the biggest score changes lead; use Flips for the records
// whose right/wrong changed.
func Runs(a, b *model.Dataset, filterA, filterB int) (Table, []Pair) {
	ka, kb := runKeys(a, b)
	firstB := make(map[string]int, len(kb))
	for i, k := range kb {
		if _, dup := firstB[k]; !dup {
			firstB[k] = i
		}
	}
	usedB := make([]bool, len(kb))
	var pairs []Pair
	for i, k := range ka {
		p := Pair{Key: k, A: i, B: -1}
		if j, ok := firstB[k]; ok && !usedB[j] {
			p.B, usedB[j] = j, true
		}
		pairs = append(pairs, p)
	}
	for j, k := range kb {
		if !usedB[j] {
			pairs = append(pairs, Pair{Key: k, A: -1, B: j})
		}
	}
	var t Table
	for i := range pairs {
		p := &pairs[i]
		var oa, ob model.Outcome
		if p.A >= 0 {
			oa = a.Records.Summary(p.A).Outcome(filterA)
			p.ScoreA, p.HasA = oa.Score, oa.HasScore && oa.Present
		}
		if p.B >= 0 {
			ob = b.Records.Summary(p.B).Outcome(filterB)
			p.ScoreB, p.HasB = ob.Score, ob.HasScore && ob.Present
		}
		if p.HasA && p.HasB {
			p.Delta = p.ScoreB - p.ScoreA
		}
		p.Cell = cellOf(oa, ob)
		t.add(p.Cell)
	}
	sort.SliceStable(pairs, func(i, j int) bool {
		di, dj := abs(pairs[i].Delta), abs(pairs[j].Delta)
		if di != dj {
			return di > dj
		}
		return natLess(pairs[i].Key, pairs[j].Key)
	})
	return t, pairs
}

// Flips returns the pairs whose right/wrong changed between the runs
// (cells OnlyA and OnlyB), in the order given.
func Flips(pairs []Pair) []Pair {
	var out []Pair
	for _, p := range pairs {
		if p.Flipped() {
			out = append(out, p)
		}
	}
	return out
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// natLess orders text naturally: runs of digits compare as numbers, so
// doc id "2" sorts before "10".
func natLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, ea := strconv.ParseUint(a[:da], 10, 64)
			nb, eb := strconv.ParseUint(b[:db], 10, 64)
			if ea == nil && eb == nil && na != nb {
				return na < nb
			}
			if a[:da] != b[:db] {
				return a[:da] < b[:db]
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitRun(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// SameTaskOnly reports whether ds's records pair only with the records of
// a dataset of the same task: its loader says its ids are numbered per
// task (Presentation.IDsPerTask: lm-eval's doc ids, a lighteval details
// file's rows, an Inspect log's sample ids).
func SameTaskOnly(ds *model.Dataset) bool { return ds.Presentation.IDsPerTask }

// Comparable reports whether two datasets can be paired record by record
// (Runs): the same kind and, where record ids are per task, the same task.
func Comparable(a, b *model.Dataset) bool {
	return a.Kind == b.Kind && (!SameTaskOnly(a) || a.Task == b.Task)
}

// Partner returns the dataset of dss to compare dss[i] with: the first
// comparable one after dss[after] (wrapping), -1 when there is none.
// after < 0 asks for the default: the next dataset of the same kind and
// task (two runs opened together, each a folder of several tasks), else
// the next comparable one.
func Partner(dss []*model.Dataset, i, after int) int {
	n := len(dss)
	if i < 0 || i >= n {
		return -1
	}
	if after < 0 {
		for d := 1; d < n; d++ {
			j := (i + d) % n
			if o := dss[j]; o.Kind == dss[i].Kind && o.Task == dss[i].Task && o.Task != "" {
				return j
			}
		}
		after = i
	}
	for d := 1; d < n; d++ {
		j := (after + d) % n
		if j != i && Comparable(dss[i], dss[j]) {
			return j
		}
	}
	return -1
}
