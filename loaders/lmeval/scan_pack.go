package lmeval

import (
	"fmt"
	"slices"
	"strings"

	"evalview/model"
)

// The index of a complete samples file holds its records packed: what a
// model.Summary spells out, and what only the scan needs, cost 1 KB a
// record at 600 files (issue 17), most of it the browser's memory. While
// the scan runs, records are model.Summary values (sums), changed as rows
// arrive; finish packs them once all rows are in, and Summary builds a
// record's model.Summary again from its packed form, allocating nothing.

// packedSum is a complete index's record: a model.Summary less what the
// lm-eval index leaves unset (tags, planned and scored attempts) or
// keeps elsewhere (outcomes, in scanned.outs; status and score, which
// are the first filter's), with counts in 32 bits. It takes 72 bytes
// where a model.Summary takes 176.
type packedSum struct {
	id, title string
	labels    model.Labels
	attempts  int32
	errors    int32
	warnings  int32
	line      int32
}

// packing is a complete index's packed form, built from the settled
// summaries (packing) and put in their place (install).
type packing struct {
	packed   []packedSum
	outs     []model.Outcome
	byID     []int32
	rowStart []int32
	rowIdx   []int32
}

// finish records the scan's error, settles the records and packs them,
// once all rows and filters are known. The packed form is built under the
// read lock, so that the browser reads the settled records meanwhile (a
// file of 200,000 records held its list for 60 ms while packing under the
// write lock), and put in their place under the write lock; a warning
// added meanwhile (a record opened, a deep pass) makes it build again
// there. The caller holds no lock.
func (s *scanned) finish(err error) {
	s.mu.Lock()
	s.err = err
	s.settle()
	warned := s.warned
	s.mu.Unlock()
	s.mu.RLock()
	p := s.packing()
	s.mu.RUnlock()
	afterPacking(s)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.warned != warned {
		p = s.packing()
	}
	s.install(p)
}

// afterPacking runs between the packing and its install (tests).
var afterPacking = func(*scanned) {}

// pack replaces the scan's summaries by their packed form, and the map
// from doc_id to record by a sorted list. The caller holds mu, and has
// scored every summary's outcomes, one per filter.
func (s *scanned) pack() { s.install(s.packing()) }

// packing builds the packed form of the settled summaries. It only reads
// the index: the caller holds mu, for reading at least (finish builds it
// while the browser reads on, then takes the lock to install it).
func (s *scanned) packing() *packing {
	nf := len(s.filters)
	texts := packTexts(s.sums)
	at := 0
	text := func(t string) string {
		at += len(t)
		return texts[at-len(t) : at]
	}
	p := &packing{packed: make([]packedSum, len(s.sums))}
	// Every record has one outcome per filter: one array for all, rather
	// than a slice of its own each (a header, and a size class's room).
	p.outs = make([]model.Outcome, len(s.sums)*nf)
	for i := range s.sums {
		sum := &s.sums[i]
		p.packed[i] = packedSum{
			id: text(sum.ID), title: text(sum.Title), labels: sum.Labels,
			attempts: int32(sum.Attempts), errors: int32(sum.Errors),
			warnings: int32(sum.Warnings), line: int32(sum.Line),
		}
		copy(p.outs[i*nf:(i+1)*nf], sum.Outcomes)
	}
	p.byID = make([]int32, len(p.packed))
	for i := range p.byID {
		p.byID[i] = int32(i)
	}
	slices.SortFunc(p.byID, func(a, b int32) int {
		return strings.Compare(p.packed[a].id, p.packed[b].id)
	})
	// The records' rows: one list for all, not a slice each.
	p.rowStart = make([]int32, len(s.rows)+1)
	n := 0
	for i, rows := range s.rows {
		p.rowStart[i] = int32(n)
		n += len(rows)
	}
	p.rowStart[len(s.rows)] = int32(n)
	p.rowIdx = make([]int32, 0, n)
	for _, rows := range s.rows {
		p.rowIdx = append(p.rowIdx, rows...)
	}
	return p
}

// install puts p in the place of the summaries it was built from. The
// caller holds mu.
func (s *scanned) install(p *packing) {
	s.packed, s.outs, s.byID = p.packed, p.outs, p.byID
	s.rowStart, s.rowIdx = p.rowStart, p.rowIdx
	s.sums, s.docs, s.rows = nil, nil, nil
}

// rowsOf returns record i's rows, in the order the file gives them, in a
// slice of the caller's own. The caller holds mu.
func (s *scanned) rowsOf(i int) []rowLoc {
	idx := s.rows
	var ks []int32
	if idx != nil {
		ks = idx[i]
	} else {
		ks = s.rowIdx[s.rowStart[i]:s.rowStart[i+1]]
	}
	locs := make([]rowLoc, len(ks))
	for j, k := range ks {
		locs[j] = s.byOff[k]
	}
	return locs
}

// droppedRows are the rows tooManyFilters left out: how many, of how
// many filters, and their docs, to count those left out whole.
type droppedRows struct {
	// at is the issue's position in dsIssue, line and key the first
	// row's.
	at, line int
	key      string
	rows     int
	filters  map[string]bool
	// unnamed is set when a row without a filter key was left out.
	unnamed bool
	// docs holds each doc's first row left out, as a count of rows.
	docs map[string]int
}

// tooManyFilters leaves out a row of a filter past maxFilters. The first
// one gives a dataset error; countDropped words it again with every row
// counted. The caller holds mu.
func (s *scanned) tooManyFilters(p *parsedRow) {
	d := s.dropped
	if d == nil {
		d = &droppedRows{at: len(s.dsIssue), line: int(p.loc.line), key: p.key, filters: map[string]bool{}, docs: map[string]int{}}
		s.dropped = d
		s.dsIssue = append(s.dsIssue, model.Errorf("too-many-filters", s.path, d.line, d.key,
			"more than %d filters: the rows of the others, from this one on, are left out", maxFilters))
	}
	if p.noFilter {
		d.unnamed = true
	} else {
		d.filters[p.filter] = true
	}
	if _, ok := d.docs[p.key]; !ok {
		d.docs[p.key] = d.rows
	}
	d.rows++
}

// countDropped words the too-many-filters error with the rows left out
// and the docs none of whose rows is kept (no record lists them), once
// every row is in and before pack drops docs. The caller holds mu.
func (s *scanned) countDropped() {
	d := s.dropped
	if d == nil {
		return
	}
	lost, first := 0, ""
	for k, at := range d.docs {
		if _, ok := s.docs[k]; !ok {
			if lost++; lost == 1 || at < d.docs[first] {
				first = k
			}
		}
	}
	filters := len(d.filters)
	if d.unnamed {
		filters++ // rows without a filter key: one more, whichever it was
	}
	msg := fmt.Sprintf("more than %d filters: %s of %s, from this one on, left out", maxFilters, counted(d.rows, "row"), counted(filters, "more filter"))
	if lost > 0 {
		msg += fmt.Sprintf(", and with them %s that had no other row (the first: %s)", counted(lost, "doc"), first)
	}
	s.dsIssue[d.at] = model.Errorf("too-many-filters", s.path, d.line, d.key, "%s", msg)
	s.dropped = nil // said: its docs' keys go
}

// counted is "1 row", "2 rows".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// packTexts returns the IDs and titles of sums, id, title, id, title...,
// in one string, which pack cuts them from: each in a string of its own
// held a size class's room, or a tiny block of 16 bytes for an ID of a
// few digits.
func packTexts(sums []model.Summary) string {
	n := 0
	for i := range sums {
		n += len(sums[i].ID) + len(sums[i].Title)
	}
	var b strings.Builder
	b.Grow(n)
	for i := range sums {
		b.WriteString(sums[i].ID)
		b.WriteString(sums[i].Title)
	}
	return b.String()
}

// count is the number of records. The caller holds mu.
func (s *scanned) count() int {
	if s.packed != nil {
		return len(s.packed)
	}
	return len(s.sums)
}

// summary returns record i's summary. The caller holds mu.
func (s *scanned) summary(i int) model.Summary {
	if s.packed == nil {
		return s.sums[i]
	}
	p := &s.packed[i]
	nf := len(s.filters)
	sum := model.Summary{
		ID: p.id, Title: p.title, Labels: p.labels,
		Attempts: int(p.attempts), Errors: int(p.errors),
		Warnings: int(p.warnings), Line: int(p.line),
	}
	if nf > 0 {
		// Capped, so that a reader's append copies rather than writes
		// over the next record's outcomes.
		sum.Outcomes = s.outs[i*nf : (i+1)*nf : (i+1)*nf]
		first := sum.Outcomes[0]
		sum.Status, sum.Score, sum.HasScore = first.Status, first.Score, first.HasScore
	} else {
		sum.Outcomes = []model.Outcome{}
	}
	return sum
}

// recordOf returns the position of the record with doc_id text id. The
// caller holds mu.
func (s *scanned) recordOf(id string) (int, bool) {
	if s.packed == nil {
		i, ok := s.docs[id]
		return i, ok
	}
	k, ok := slices.BinarySearchFunc(s.byID, id, func(i int32, id string) int {
		return strings.Compare(s.packed[i].id, id)
	})
	if !ok {
		return 0, false
	}
	return int(s.byID[k]), true
}

// addWarnings adds n warnings to record i's count. The caller holds mu.
func (s *scanned) addWarnings(i, n int) {
	s.warned++
	if s.packed != nil {
		s.packed[i].warnings += int32(n)
		return
	}
	s.sums[i].Warnings += n
}

// inMemory returns the bytes of the row at loc when the file was read
// whole, nil when the row is to be read from the file.
func (s *scanned) inMemory(loc rowLoc) []byte {
	if s.whole == nil {
		return nil
	}
	return s.whole[loc.off : loc.off+int64(loc.size)]
}

// fit returns xs in a slice of its own length when its room is more than
// an eighth of it.
func fit[T any](xs []T) []T {
	if cap(xs)-len(xs) <= len(xs)/8 {
		return xs
	}
	return append(make([]T, 0, len(xs)), xs...)
}
