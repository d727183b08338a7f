// Package compare answers "where do two answers differ" over the view
// model: two lm-eval filters of one dataset (a 2x2 table per doc), two
// runs of the same prompts paired record by record (flips), slices of a
// dataset by a field with per-filter metrics, frequency tables of
// extracted answers and targets, the vote histogram of a doc's repeats,
// and pass@k.
//
// The package is pure: it reads model values (summaries, and records the
// caller has loaded), does no I/O and imports nothing from Charm. Summary
// based functions are cheap enough for every keystroke on 100,000 records.
package compare

import (
	"sort"

	"evalview/model"
)

// Cell is where a record falls in the 2x2 table of two filters (or two
// runs): right under both, under only one, under neither, or Missing when
// either side has no row or no pass/fail outcome (unscored, errored).
type Cell int

// Cells of the 2x2 table, plus Missing for records it cannot place.
const (
	Both Cell = iota
	OnlyA
	OnlyB
	Neither
	Missing
)

// Cells lists the cells in table order, for views that iterate them.
var Cells = []Cell{Both, OnlyA, OnlyB, Neither, Missing}

// String names the cell as views and queries show it: "both", "only A",
// "only B", "neither", "missing".
func (c Cell) String() string {
	switch c {
	case Both:
		return "both"
	case OnlyA:
		return "only A"
	case OnlyB:
		return "only B"
	case Neither:
		return "neither"
	}
	return "missing"
}

// Table counts records per cell. The JSON field names are the `summary
// --json` agreement contract: both, only_a, only_b, neither (Missing is
// not part of it).
type Table struct {
	Both    int `json:"both"`
	OnlyA   int `json:"only_a"`
	OnlyB   int `json:"only_b"`
	Neither int `json:"neither"`
	Missing int `json:"-"`
}

// Get returns the count of cell c.
func (t Table) Get(c Cell) int {
	switch c {
	case Both:
		return t.Both
	case OnlyA:
		return t.OnlyA
	case OnlyB:
		return t.OnlyB
	case Neither:
		return t.Neither
	}
	return t.Missing
}

// add counts one record in cell c.
func (t *Table) add(c Cell) {
	switch c {
	case Both:
		t.Both++
	case OnlyA:
		t.OnlyA++
	case OnlyB:
		t.OnlyB++
	case Neither:
		t.Neither++
	default:
		t.Missing++
	}
}

// Placed is the number of records in the four cells (Missing excluded).
func (t Table) Placed() int { return t.Both + t.OnlyA + t.OnlyB + t.Neither }

// Agree is the fraction of placed records on which A and B agree (both
// right or both wrong); 0 when nothing is placed.
func (t Table) Agree() float64 {
	if t.Placed() == 0 {
		return 0
	}
	return float64(t.Both+t.Neither) / float64(t.Placed())
}

// right reads an outcome as right (true) or wrong (false); ok is false
// when it is neither: no row, unscored, or errored.
func right(o model.Outcome) (isRight, ok bool) {
	if !o.Present {
		return false, false
	}
	switch o.Status {
	case model.StatusPass:
		return true, true
	case model.StatusFail:
		return false, true
	}
	return false, false
}

// cellOf places one record given its two outcomes.
func cellOf(a, b model.Outcome) Cell {
	ra, oka := right(a)
	rb, okb := right(b)
	switch {
	case !oka || !okb:
		return Missing
	case ra && rb:
		return Both
	case ra:
		return OnlyA
	case rb:
		return OnlyB
	}
	return Neither
}

// allRows returns rows, or every record index of ds when rows is nil.
func allRows(ds *model.Dataset, rows []int) []int {
	if rows != nil {
		return rows
	}
	n := ds.Records.Len()
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// Filters compares filters a and b (indexes into ds.Filters) of ds over
// the given record indexes (nil: every record). It returns the table and
// each record's cell, aligned with rows (with every record when rows is
// nil). A filter index out of range reads the record's own status, so
// formats without filters compare with themselves.
func Filters(ds *model.Dataset, a, b int, rows []int) (Table, []Cell) {
	rows = allRows(ds, rows)
	var t Table
	cells := make([]Cell, len(rows))
	for i, ri := range rows {
		s := ds.Records.Summary(ri)
		c := cellOf(s.Outcome(a), s.Outcome(b))
		cells[i] = c
		t.add(c)
	}
	return t, cells
}

// PairKey is the key of the ordered filter pair a, b in Agreement's map:
// "A|B".
func PairKey(a, b string) string { return a + "|" + b }

// Agreement is the 2x2 table of every ordered pair of distinct filters of
// ds over all its records, keyed by PairKey (the `summary --json`
// "agreement" object). It is nil when ds has fewer than two filters.
// It reads summaries once.
func Agreement(ds *model.Dataset) map[string]Table {
	nf := len(ds.Filters)
	if nf < 2 {
		return nil
	}
	tabs := make([][]Table, nf)
	for i := range tabs {
		tabs[i] = make([]Table, nf)
	}
	for ri := 0; ri < ds.Records.Len(); ri++ {
		s := ds.Records.Summary(ri)
		for a := 0; a < nf; a++ {
			for b := 0; b < nf; b++ {
				if a != b {
					tabs[a][b].add(cellOf(s.Outcome(a), s.Outcome(b)))
				}
			}
		}
	}
	out := make(map[string]Table, nf*(nf-1))
	for a := 0; a < nf; a++ {
		for b := 0; b < nf; b++ {
			if a != b {
				out[PairKey(ds.Filters[a], ds.Filters[b])] = tabs[a][b]
			}
		}
	}
	return out
}

// Freq is one value of a frequency table and how many of its records are
// right.
type Freq struct {
	Value string
	Count int
	Pass  int
}

// sortFreqs orders a frequency table by count, most first, then by value
// in natural order ("2" before "10").
func sortFreqs(fs []Freq) {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Count != fs[j].Count {
			return fs[i].Count > fs[j].Count
		}
		return natLess(fs[i].Value, fs[j].Value)
	})
}

// freqs counts value(record) over rows, with passes under filter.
func freqs(ds *model.Dataset, filter int, rows []int, value func(s *model.Summary) (string, bool)) []Freq {
	acc := map[string]*Freq{}
	var order []string
	for _, ri := range allRows(ds, rows) {
		s := ds.Records.Summary(ri)
		v, ok := value(&s)
		if !ok {
			continue
		}
		f := acc[v]
		if f == nil {
			f = &Freq{Value: v}
			acc[v] = f
			order = append(order, v)
		}
		f.Count++
		if r, ok := right(s.Outcome(filter)); ok && r {
			f.Pass++
		}
	}
	out := make([]Freq, 0, len(order))
	for _, v := range order {
		out = append(out, *acc[v])
	}
	sortFreqs(out)
	return out
}

// Answers is the frequency table of the answers filter extracted (the
// logged filtered_resps as the summary holds them) over rows (nil: all),
// with how many of each are right. Records with no row for the filter are
// left out.
func Answers(ds *model.Dataset, filter int, rows []int) []Freq {
	return freqs(ds, filter, rows, func(s *model.Summary) (string, bool) {
		o := s.Outcome(filter)
		return o.Answer, o.Present
	})
}

// TargetLabel is the Summary.Labels key holding a record's target (the
// lm-eval loader sets it).
const TargetLabel = "target"

// Targets is the frequency table of targets (Summary.Labels["target"])
// over rows (nil: all), with how many of each are right under filter.
// Records without a target label are left out, so it is empty for formats
// that do not set one.
func Targets(ds *model.Dataset, filter int, rows []int) []Freq {
	return freqs(ds, filter, rows, func(s *model.Summary) (string, bool) {
		v, ok := s.Labels.Lookup(TargetLabel)
		return v, ok
	})
}
