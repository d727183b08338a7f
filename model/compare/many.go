package compare

import "evalview/model"

// Verdict is a doc's outcome in one run of a many-run comparison.
type Verdict int8

// The verdicts: no pass/fail (absent, unscored or errored), right, wrong.
const (
	NoVerdict Verdict = iota
	Right
	Wrong
)

// ManyDoc is one doc across the runs of Many.
type ManyDoc struct {
	Key string
	// Recs are the doc's record in each run, -1 where it is absent.
	Recs []int
	// Verdicts are its outcome in each run.
	Verdicts []Verdict
	// Flips counts the neighbouring runs (i, i+1) where it is right in
	// one and wrong in the other.
	Flips int
}

// ManyTable is the comparison of one task across N runs: each doc's
// verdicts, and counts over the docs.
type ManyTable struct {
	Docs []ManyDoc
	// Right and Scored count, per run, the docs it got right and those
	// with a verdict.
	Right, Scored []int
	// Agree[i][j] counts the docs with a verdict in runs i and j that
	// got the same one (both right or both wrong), Placed[i][j] those
	// with a verdict in both.
	Agree, Placed [][]int
	// Flips[i] counts the docs whose verdict changes between runs i and
	// i+1.
	Flips []int
}

// Many compares runs of one task doc by doc (models or checkpoints in
// order), each under its filter (an index of its Filters; out of range
// reads a record's own status). Docs pair by RunKey; a key repeated in
// one run pairs its first record only. Docs are in the order the runs
// first list them.
func Many(dss []*model.Dataset, filters []int) ManyTable {
	n := len(dss)
	t := ManyTable{Right: make([]int, n), Scored: make([]int, n), Flips: make([]int, max(n-1, 0))}
	t.Agree, t.Placed = square(n), square(n)
	byKey := map[string]int{}
	keys := manyKeys(dss)
	for run, ks := range keys {
		for rec, k := range ks {
			d, ok := byKey[k]
			if !ok {
				d = len(t.Docs)
				byKey[k] = d
				doc := ManyDoc{Key: k, Recs: make([]int, n), Verdicts: make([]Verdict, n)}
				for i := range doc.Recs {
					doc.Recs[i] = -1
				}
				t.Docs = append(t.Docs, doc)
			}
			doc := &t.Docs[d]
			if doc.Recs[run] >= 0 {
				continue
			}
			doc.Recs[run] = rec
			fi := -1
			if run < len(filters) {
				fi = filters[run]
			}
			if r, ok := right(dss[run].Records.Summary(rec).Outcome(fi)); ok {
				doc.Verdicts[run] = Wrong
				if r {
					doc.Verdicts[run] = Right
				}
			}
		}
	}
	for d := range t.Docs {
		doc := &t.Docs[d]
		for i, v := range doc.Verdicts {
			if v == NoVerdict {
				continue
			}
			t.Scored[i]++
			if v == Right {
				t.Right[i]++
			}
			for j, w := range doc.Verdicts {
				if w == NoVerdict {
					continue
				}
				t.Placed[i][j]++
				if v == w {
					t.Agree[i][j]++
				}
			}
			if i+1 < n && doc.Verdicts[i+1] != NoVerdict && doc.Verdicts[i+1] != v {
				doc.Flips++
				t.Flips[i]++
			}
		}
	}
	return t
}

func square(n int) [][]int {
	out := make([][]int, n)
	for i := range out {
		out[i] = make([]int, n)
	}
	return out
}

// manyKeys keys every record of every run as runKeys does for two: run
// zips by source file and sample_index when all name the same source
// file, else by rendering name.
func manyKeys(dss []*model.Dataset) [][]string {
	byTitle := false
	for _, ds := range dss {
		if ds.Kind == model.KindRun && (ds.Fact("source file") == "" || ds.Fact("source file") != dss[0].Fact("source file")) {
			byTitle = true
		}
	}
	out := make([][]string, len(dss))
	for r, ds := range dss {
		out[r] = make([]string, ds.Records.Len())
		for i := range out[r] {
			if byTitle {
				out[r][i] = ds.Records.Summary(i).Title
			} else {
				out[r][i] = RunKey(ds, i)
			}
		}
	}
	return out
}
