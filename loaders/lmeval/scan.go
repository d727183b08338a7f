package lmeval

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// noFilter is the filter name of rows that carry none (harness v0.4.0 and
// older), matching the ",none" suffix the results files of that era use.
const noFilter = "none"

// rowLoc says where one samples row is: its line and byte range in the
// (uncompressed) file, or, when the file had to be read whole (array
// files), in scanned.whole. Offsets are int64 and sizes uint32 (a row may
// be 4 GB). rec is the row's record and filter its filter's position
// (a file has at most maxFilters). The struct takes 24 bytes.
type rowLoc struct {
	off    int64
	line   int32
	size   uint32
	rec    int32
	filter uint16
	// one is set when the row's filtered_resps is a list of one string
	// (the index's Outcome.Answer is then that string): the deep check
	// takes it from the index rather than read the row again.
	one bool
}

// maxFilters is the most filters a samples file's index holds (rowLoc's
// filter): the rows of any more are left out, and said (tooManyFilters).
const maxFilters = 1 << 16

// scanned is the index of one samples file. A background scan fills it
// while readers (the browser) call Len, Summary and Record: every field
// below mu is guarded by it. Summaries are never changed in place once
// published; a row that adds an outcome replaces the Outcomes slice
// (copy on write), so a Summary a reader holds stays valid.
type scanned struct {
	path string
	comp jsonl.Compression
	// reported are the results file's metrics, the fallback main metric.
	reported []model.Metric

	mu      sync.RWMutex
	filters []string
	main    string
	// mainScoreOnly is set when the main metric is better lower (mae,
	// perplexity), bypass (--predict_only's 999), or a score rather than
	// a pass or a fail (continuous): its values score a row but pass or
	// fail none.
	mainScoreOnly bool
	// continuous lists the metrics a row gave a value other than 0 and
	// 1 (a sentence's BLEU, an f1 between 0 and 1): a metric is pass or
	// fail by nature only where every row's value is 0 or 1.
	continuous map[string]bool
	// sums are the records while the scan runs; finish packs them into
	// packed, outs and byID (scan_pack.go). Read them with count,
	// summary and recordOf.
	sums   []model.Summary
	packed []packedSum
	// outs holds the packed records' outcomes, len(filters) a record.
	outs []model.Outcome
	// byID lists the packed records in the order of their doc_id text.
	byID []int32
	// rows lists each record's rows (positions in byOff) while the scan
	// runs; finish packs them (rowIdx). Read them with rowsOf.
	rows [][]int32
	// rowIdx holds the complete index's records' rows, record i's at
	// rowIdx[rowStart[i]:rowStart[i+1]].
	rowIdx, rowStart []int32
	// warned counts the warnings added to records (addWarnings): finish
	// packs again when one came while it packed.
	warned int
	// dropped counts the rows of filters past maxFilters left out, nil
	// while none is.
	dropped *droppedRows
	issues  map[int][]model.Issue
	dsIssue []model.Issue
	// docs maps a doc_id's text to its record position, while the scan
	// runs.
	docs map[string]int
	// rowsPerFilter counts rows by filter position.
	rowsPerFilter []int
	// metrics notes metrics seen with values, for the main metric.
	metrics []string
	lines   int
	// crlfSeen is set once the file's crlf warning is given.
	crlfSeen bool
	// labels chooses and shares the records' labels; shared shares
	// their outcomes' answers and metrics.
	labels labeler
	shared sharing
	// byOff lists every used row in file order (raw search maps hits
	// back through it); rows and rowIdx point into it.
	byOff []rowLoc
	// whole holds the file's bytes when it was read whole (an array or
	// pretty-printed file); its rows' offsets are into it (inMemory).
	whole []byte
	err   error

	// claims lets parallel workers agree which one does a doc's once-only
	// work (title, attempt count, hash checks).
	claims claimSet
	// indexed counts the uncompressed bytes indexed so far.
	indexed atomic.Int64
	// stopped ends the scan at its next read (Stop).
	stopped atomic.Bool
	// complete flips when the scan and its final pass are over.
	complete atomic.Bool
	done     chan struct{}
	// firstRows is closed when the first rows are published (or at done).
	firstRows chan struct{}
	firstOnce sync.Once
	// rd reads rows back for Record and raw search.
	rd *rowReader
	// inferred names the filters rows without a "filter" key are
	// attributed to, in filter_list order (infer.go); inferWhy says why
	// there are none. inferRows counts each record's rows so far and
	// inferUsed the rows attributed.
	// known are the metric names the results file reports or the task
	// config lists: in rows without a "metrics" list (harness before
	// v0.4.7) these fields are metrics whatever their value.
	known     map[string]bool
	inferred  []string
	inferWhy  string
	inferRows []int32
	inferUsed int
	// prepare, when set, re-extracts a doc from its claimed row while
	// indexing (reextract_pre.go); pre holds the results by record.
	prepare func(h *rowHead) *preDoc
	pre     []*preDoc
	// held are bad lines kept back in case they make one row broken over
	// several lines (scan_join.go), heldBytes their size.
	held      []parsedRow
	heldBytes int
}

func newScanned(path string, reported []model.Metric) *scanned {
	s := &scanned{
		path: path, reported: reported,
		issues: map[int][]model.Issue{}, docs: map[string]int{},
		done: make(chan struct{}), firstRows: make(chan struct{}),
	}
	s.setMain()
	return s
}

// scanSamples indexes a samples file completely before returning.
func scanSamples(path string) (*scanned, error) {
	s, err := startScan(path, nil, nil)
	if err != nil {
		return nil, err
	}
	return s, s.wait()
}

// startScan opens path and indexes it in the background; wait (or Done on
// the index) tells when it is over. Only a file that cannot be opened at
// all is an error here; read errors later end the scan with s.err.
//
// setup, when set, is called with the index before the scan starts.
func startScan(path string, reported []model.Metric, setup func(*scanned)) (*scanned, error) {
	s := newScanned(path, reported)
	r, comp, err := jsonl.OpenStream(path)
	if err != nil {
		return nil, err
	}
	s.comp = comp
	s.rd = newRowReader(path, comp)
	if setup != nil {
		setup(s)
	}
	go func() {
		scanSlots <- struct{}{}
		defer func() { <-scanSlots }()
		s.run(r, nil)
	}()
	return s, nil
}

// deferScan is startScan for a folder the browser opens: the file is not
// opened yet, its scan waits for runDeferred, which a queue calls in
// folder order (startDeferred). Opening every file of a folder of 5,000
// at once held 5,000 descriptors and goroutines, and the first dataset's
// scan waited behind others'. The paths come from a folder listing or
// from detection, which saw regular files; OpenStream checks again.
func deferScan(path string, reported []model.Metric, setup func(*scanned)) (*scanned, error) {
	s := newScanned(path, reported)
	s.rd = newRowReader(path, jsonl.Plain) // replaced before any row is read back
	if setup != nil {
		setup(s)
	}
	return s, nil
}

// runDeferred opens a deferred scan's file and indexes it, in the
// caller's goroutine. A file that cannot be opened now ends the scan
// with that error, which SyncDataset makes a dataset issue.
func (s *scanned) runDeferred() {
	r, comp, err := jsonl.OpenStream(s.path)
	if err == nil {
		s.comp = comp
		s.rd = newRowReader(s.path, comp)
	}
	s.run(r, err)
}

// startDeferred runs deferred scans in their order, as many at a time as
// scanSlots allows.
func startDeferred(scans []*scanned) {
	if len(scans) == 0 {
		return
	}
	go func() {
		for _, s := range scans {
			scanSlots <- struct{}{}
			go func() {
				defer func() { <-scanSlots }()
				s.runDeferred()
			}()
		}
	}()
}

// run indexes r (nil when opening failed with openErr) and marks the
// scan complete.
func (s *scanned) run(r io.ReadCloser, openErr error) {
	err := openErr
	if r != nil {
		err = s.scan(r)
		r.Close()
	}
	s.finish(err)
	s.complete.Store(true)
	s.firstOnce.Do(func() { close(s.firstRows) })
	close(s.done)
}

// wait blocks until the scan is over and returns its read error.
func (s *scanned) wait() error {
	<-s.done
	return s.err
}

// scan reads the samples stream: JSONL through the parallel pipeline, or
// the old harness's JSON array whole.
func (s *scanned) scan(r io.Reader) error {
	head := make([]byte, 512)
	n, err := io.ReadFull(r, head)
	head = head[:n]
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return err
	}
	if jsonl.IsLFSPointer(head) {
		s.mu.Lock()
		s.dsIssue = append(s.dsIssue, jsonl.LFSIssue(s.path))
		s.mu.Unlock()
		return nil
	}
	ra, _ := r.(io.ReaderAt) // a plain file: the stream's offsets are its own
	r = io.MultiReader(bytes.NewReader(head), stopReader{r, &s.stopped})
	if t := bytes.TrimLeft(head, " \t\r\n\xef\xbb\xbf"); len(t) > 0 && t[0] == '[' {
		return s.scanArray(r)
	} else if prettyRows(t) {
		return s.scanPretty(r)
	}
	return s.pipeline(r, ra)
}

// errStopped ends a scan that Stop stopped.
var errStopped = errors.New("indexing stopped (the file was reloaded)")

// stopReader is r until stop is set, then an error.
type stopReader struct {
	r    io.Reader
	stop *atomic.Bool
}

func (sr stopReader) Read(p []byte) (int, error) {
	if sr.stop.Load() {
		return 0, errStopped
	}
	return sr.r.Read(p)
}

// parsedRow is what a worker learns from one row, for the in-order apply.
type parsedRow struct {
	loc rowLoc
	bad error
	// noFilter is set for a row without a "filter" key: apply names its
	// filter (infer.go).
	noFilter bool
	key      string
	filter   string
	// title, attempts and the label candidates are only set by the
	// worker that claimed the doc (claimed).
	claimed   bool
	title     string
	attempts  int
	target    string
	docFields []docField
	issues    []model.Issue
	out       model.Outcome
	// pre is the claimed row's re-extraction, when the scan prepares it.
	pre *preDoc
	// raw is a bad line's bytes, kept to try it with the lines after it
	// (scan_join.go).
	raw []byte
	// sig hashes the row's doc, prompt and target hashes (0 without).
	sig uint64
}

// parse does a row's expensive work (splitting, validation, hashes); it
// runs on any worker and touches no shared state but the claim set.
func (s *scanned) parse(data []byte, loc rowLoc) parsedRow {
	p := parsedRow{loc: loc}
	h, err := parseRow(data)
	if err != nil {
		p.bad = err
		return p
	}
	line := int(loc.line)
	if h.DocID == nil {
		// Not joined with any other row, but kept, as a record of its
		// own named after its line: rowIssues reports the missing key.
		p.key = "line " + strconv.Itoa(line)
	} else {
		p.key = docKey(h.DocID)
	}
	p.filter = noFilter
	if h.Filter != nil {
		p.filter = *h.Filter
	} else {
		p.noFilter = true
	}
	p.issues = rowIssues(s.path, line, p.key, &h, s.known)
	sig := h.DocHash + h.PromptHash + h.TargetHash
	first, check := s.claims.claim(p.key, loc.line, sig)
	if sig != "" {
		p.sig = s.claims.sigHash(sig)
	}
	if check {
		his := hashIssues(s.path, line, p.key, &h)
		if len(his) == 0 {
			s.claims.verified(p.key, sig)
		}
		p.issues = append(p.issues, his...)
	}
	if first {
		// Every row of a doc repeats its doc and resps, so this is done
		// once per doc rather than once per filter.
		entries, err := docEntries(h.Doc)
		p.claimed = true
		p.title = titleOf(entries, err, h.Doc, h.Arguments)
		p.attempts = attemptCount(h.Resps)
		p.target, p.docFields = labelsOf(h.Target, entries, err, s.labels.chosen.Load())
		if s.prepare != nil {
			p.pre = s.prepare(&h)
		}
	}
	answer, ok := stringAnswers(h.FilteredResps)
	if ok {
		p.loc.one = oneString(h.FilteredResps)
	} else {
		answer = answerText(h.FilteredResps)
	}
	p.out = model.Outcome{Present: true, Answer: answer}
	var values []model.RowValue
	p.out.Metrics, values = rowMetrics(&h, s.known)
	p.out.SetValues(values)
	return p
}

// apply adds a parsed row to the index, in file order. The caller holds mu.
func (s *scanned) apply(p *parsedRow) {
	line := int(p.loc.line)
	switch {
	case p.bad != nil && p.raw != nil:
		s.holdBad(p)
		return
	case p.bad != nil:
		s.badLine(p)
		return
	case len(s.held) > 0:
		s.resolveHeld()
	}
	// Past maxFilters, a row is left out unless its filter is known (a
	// row without one too: which it gets is only settled below).
	if len(s.filters) >= maxFilters && (p.noFilter || !slices.Contains(s.filters, p.filter)) {
		s.tooManyFilters(p)
		return
	}
	ri, ok := s.docs[p.key]
	if !ok {
		ri = len(s.sums)
		s.docs[p.key] = ri
		s.sums = append(s.sums, model.Summary{ID: p.key, Line: line})
		s.rows = append(s.rows, nil)
		if s.prepare != nil {
			s.pre = append(s.pre, nil)
		}
	}
	if p.noFilter {
		p.filter = s.inferFilter(ri)
	}
	fi := s.filterIndex(p.filter)
	loc := p.loc
	loc.filter, loc.rec = uint16(fi), int32(ri)
	if !ok && p.claimed {
		// The doc's first row in the file, which always claims it (a
		// later row may have claimed it too, arriving first: its work
		// is not used, so that a record is the same from run to run).
		s.setLabels(s.labels.add(ri, p.target, p.docFields))
		if p.pre != nil {
			p.pre.line = p.loc.line
			s.pre[ri] = p.pre
		}
	} else {
		p.title, p.attempts = "", 0
	}
	for _, k := range s.rows[ri] {
		if prev := s.byOff[k]; int(prev.filter) == fi {
			s.addIssue(ri, model.Warnf("duplicate-row", s.path, line, p.key, "second row for filter %q (first on line %d); the first is used", p.filter, prev.line))
			return
		}
	}
	s.rowsPerFilter[fi]++ // rows used: a duplicate is not one more doc
	if p.sig != 0 {
		if ref, same := s.claims.sameDoc(p.key, p.loc.line, p.sig); !same {
			s.addIssue(ri, model.Warnf("doc-rows-differ", s.path, line, p.key,
				"this row's doc_hash, prompt_hash or target_hash differ from those of the doc's row on line %d: the rows of one doc_id log one doc, prompt and target; rows of two docs mixed up?", ref))
		}
	}
	if s.rows[ri] == nil {
		// One row per filter: sized for them at once, not grown 1, 2, 4.
		s.rows[ri] = make([]int32, 0, max(1, len(s.filters)))
	}
	s.rows[ri] = append(s.rows[ri], int32(len(s.byOff)))
	s.byOff = append(s.byOff, loc)
	for _, is := range p.issues {
		if is.Code == "hash-mismatch" && s.hasMessage(ri, is) {
			continue // the doc's rows share their hashes: said once, on the first
		}
		s.addIssue(ri, is)
	}
	for _, m := range p.out.Metrics {
		s.noteMetric(m.Name)
		if m.Value != 0 && m.Value != 1 && m.Value == m.Value {
			s.noteContinuous(m.Name)
		}
	}
	sum := &s.sums[ri]
	if sum.Title == "" {
		sum.Title = p.title
	}
	sum.Attempts = max(sum.Attempts, p.attempts)
	out := p.out
	s.shared.share(&out)
	scoreOutcome(&out, s.main, s.mainScoreOnly)
	outs := make([]model.Outcome, max(len(sum.Outcomes), fi+1))
	copy(outs, sum.Outcomes)
	outs[fi] = out
	sum.Outcomes = outs
	if fi == 0 {
		sum.Status, sum.Score, sum.HasScore = out.Status, out.Score, out.HasScore
	}
}

// scoreOutcome sets an outcome's score and status from the main metric;
// a metric better lower (lower) scores the outcome but passes or fails
// nothing.
func scoreOutcome(o *model.Outcome, main string, lower bool) {
	o.Status, o.Score, o.HasScore = model.StatusUnscored, 0, false
	for _, m := range o.Metrics {
		if m.Name == main {
			o.Score, o.HasScore = m.Value, true
			if !lower {
				o.Status = statusOf(m.Value)
			}
		}
	}
}

// setMain settles the main metric and whether it passes or fails rows:
// not when it is better lower (as the results file's higher_is_better
// says, else the harness's registry), nor bypass, the placeholder
// --predict_only runs log (lm_eval/api/metrics.py bypass: 999). The caller
// holds mu.
func (s *scanned) setMain() {
	s.main = mainMetric(s, s.reported)
	var higher *bool
	for _, m := range s.reported {
		if m.Name == s.main && m.HigherIsBetter != nil {
			higher = m.HigherIsBetter
			break
		}
	}
	s.mainScoreOnly = model.LowerIsBetter(s.main, higher) || s.main == "bypass" || s.continuous[s.main]
}

// noteContinuous records a metric seen with a value other than 0 and 1.
// When it is the main metric, the rows already listed lose the pass or
// fail they were given while its values were all 0 or 1, so that no ✓
// stands that the metric does not declare. The caller holds mu.
func (s *scanned) noteContinuous(m string) {
	if s.continuous[m] {
		return
	}
	if s.continuous == nil {
		s.continuous = map[string]bool{}
	}
	s.continuous[m] = true
	was := s.mainScoreOnly
	s.setMain()
	if was || !s.mainScoreOnly {
		return
	}
	for i := range s.sums {
		sum := &s.sums[i]
		if len(sum.Outcomes) == 0 {
			continue
		}
		outs := make([]model.Outcome, len(sum.Outcomes)) // published slices are not changed in place
		copy(outs, sum.Outcomes)
		for fi := range outs {
			scoreOutcome(&outs[fi], s.main, s.mainScoreOnly)
		}
		sum.Outcomes = outs
		sum.Status, sum.Score, sum.HasScore = outs[0].Status, outs[0].Score, outs[0].HasScore
	}
}

// hasMessage reports whether record ri already has an issue of is's code
// and message (another row's).
func (s *scanned) hasMessage(ri int, is model.Issue) bool {
	for _, x := range s.issues[ri] {
		if x.Code == is.Code && x.Message == is.Message && x.Path == is.Path {
			return true
		}
	}
	return false
}

func (s *scanned) addIssue(ri int, is model.Issue) {
	s.issues[ri] = append(s.issues[ri], is)
	if is.Severity == model.SeverityError {
		s.sums[ri].Errors++
	} else {
		s.sums[ri].Warnings++
	}
}

func (s *scanned) filterIndex(name string) int {
	for i, f := range s.filters {
		if f == name {
			return i
		}
	}
	s.filters = append(s.filters, name)
	s.rowsPerFilter = append(s.rowsPerFilter, 0)
	return len(s.filters) - 1
}

// noteMetric records a metric seen with a value and re-picks the main
// metric, which later rows may still change (finish settles it).
func (s *scanned) noteMetric(m string) {
	for _, x := range s.metrics {
		if x == m {
			return
		}
	}
	s.metrics = append(s.metrics, m)
	s.setMain()
}

// settle settles the main metric and every summary's outcomes, once all
// rows and filters are known: the records as pack takes them. The caller
// holds mu.
func (s *scanned) settle() {
	if len(s.held) > 0 {
		s.resolveHeld()
	}
	s.setLabels(s.labels.decide())
	s.countDropped()
	// What only the scan needed goes: the tables that share label values
	// and sets, and the docs' claims. At 600 files they held 52 MB.
	s.labels.release()
	s.claims.release()
	s.shared = sharing{}
	// The slices grew by doubling: a quarter of them, on average, was
	// room never used.
	s.byOff = fit(s.byOff)
	s.setMain()
	for i := range s.sums {
		sum := &s.sums[i]
		outs := make([]model.Outcome, max(len(sum.Outcomes), len(s.filters)))
		copy(outs, sum.Outcomes)
		for fi := range outs {
			scoreOutcome(&outs[fi], s.main, s.mainScoreOnly)
		}
		sum.Outcomes = outs
		first := sum.Outcome(0)
		sum.Status, sum.Score, sum.HasScore = first.Status, first.Score, first.HasScore
	}
}

// statusOf maps a value of a metric that is 0 or 1 on every row
// (accuracy-like: acc, exact_match) to pass or fail; a metric with any
// other value passes or fails no row (mainScoreOnly).
func statusOf(v float64) model.Status {
	if v == 1 {
		return model.StatusPass
	}
	return model.StatusFail
}
