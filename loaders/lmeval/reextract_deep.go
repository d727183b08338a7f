package lmeval

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"evalview/loaders/jsonl"
	"evalview/model"
	"evalview/model/compare"
	"evalview/model/lmfilter"
)

// exactMatch is the harness's exact_match (exact_match_hf_evaluate): the
// regexes_to_ignore are removed from prediction and reference, then case,
// ASCII punctuation (string.punctuation) and digits are dropped as
// configured, and the texts must be equal.
type exactMatch struct {
	ignore                                   []*lmfilter.Regexp
	ignoreCase, ignorePunctuation, ignoreNum bool
}

// gsm8kMetric is the gsm8k family's exact_match, the default when no task
// config is found for a task whose name starts with gsm8k.
var gsm8kMetric = []string{",", `\$`, "(?s).*#### ", `\.$`}

// metricFrom builds the task's exact_match, or returns nil and why not.
func metricFrom(cfg taskConfig, hasConfig bool, task string) (*exactMatch, string) {
	if !hasConfig {
		if !strings.HasPrefix(task, "gsm8k") {
			return nil, "no task config: repeats are not scored"
		}
		em := &exactMatch{ignoreCase: true}
		for _, p := range gsm8kMetric {
			re, _ := lmfilter.CompilePython(p)
			em.ignore = append(em.ignore, re)
		}
		return em, ""
	}
	for _, m := range cfg.MetricList {
		if m.Metric != "exact_match" {
			continue
		}
		em := &exactMatch{ignoreCase: m.IgnoreCase, ignorePunctuation: m.IgnorePunctuation, ignoreNum: m.IgnoreNumbers}
		for _, p := range m.RegexesToIgnore {
			re, err := lmfilter.CompilePython(p)
			if err != nil {
				return nil, fmt.Sprintf("regexes_to_ignore %q cannot be compiled: %v", p, err)
			}
			em.ignore = append(em.ignore, re)
		}
		return em, ""
	}
	return nil, "the task's metric is not exact_match: repeats are not scored"
}

// norm applies the metric's normalisation to one text.
func (m *exactMatch) norm(s string) (string, bool) {
	for _, re := range m.ignore {
		var err error
		if s, err = re.ReplaceAllLiteral(s, ""); err != nil {
			return "", false
		}
	}
	if m.ignoreCase {
		s = strings.ToLower(s)
	}
	if m.ignorePunctuation || m.ignoreNum {
		s = strings.Map(func(r rune) rune {
			if m.ignorePunctuation && r < 128 && strings.ContainsRune(asciiPunct, r) {
				return -1
			}
			if m.ignoreNum && r >= '0' && r <= '9' {
				return -1
			}
			return r
		}, s)
	}
	return s, true
}

// asciiPunct is Python's string.punctuation.
const asciiPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// scorer scores a doc's answers against its target. Repeats agree a lot
// (64 repeats give a handful of distinct answers), and normalising runs
// the metric's regexes, so the target is normalised once and each
// distinct answer once.
type scorer struct {
	em     *exactMatch
	target string
	// alts are the normalised elements of a list target (a task with
	// multiple targets: triviaqa's aliases), any of which passes.
	alts []string
	ok   bool
	seen map[string]model.Status
}

func (re *reextractor) newScorer(target string) *scorer {
	sc := &scorer{em: re.em}
	if re.em != nil {
		ok := true
		if re.choices != nil || re.choicesUnknown {
			target, ok = choiceAt(re.choices, target)
		}
		sc.target, sc.ok = re.em.norm(target)
		sc.ok = sc.ok && ok
		sc.ok = sc.ok && target != "" // a row without a target: nothing to score against
		sc.alts = re.em.normList(target)
		sc.seen = map[string]model.Status{}
	}
	return sc
}

func (sc *scorer) status(answer string) model.Status {
	if sc.em == nil {
		return model.StatusUnscored
	}
	if st, ok := sc.seen[answer]; ok {
		return st
	}
	a, ok := sc.em.norm(answer)
	st := model.StatusFail
	switch {
	case !ok || !sc.ok:
		st = model.StatusUnscored
	case a == sc.target || slices.Contains(sc.alts, a):
		st = model.StatusPass
	}
	sc.seen[answer] = st
	return st
}

// rescore checks a row's logged exact_match against its logged answer
// scored as the task's metric scores it (exact_match_hf_evaluate with
// the metric_list options): a value that disagrees was edited, or the row
// and its answer do not belong together. Tasks with their own
// process_results are left alone, their exact_match being their code's.
func (re *reextractor) rescore(id string, fr model.FilterResult, sc *scorer) (model.Issue, bool) {
	if re.em == nil || re.ownScoring || sc == nil || len(fr.Answers) != 1 {
		return model.Issue{}, false
	}
	v, ok := fr.Metric("exact_match")
	if !ok || v != 0 && v != 1 {
		return model.Issue{}, false
	}
	logged := fr.Answers[0]
	st := sc.status(logged)
	if st == model.StatusUnscored || (st == model.StatusPass) == (v == 1) {
		return model.Issue{}, false
	}
	return model.Warnf("rescore-mismatch", re.path, fr.Line, id,
		"filter %q: the row logs exact_match %g, but its logged answer %q scored against the target as the task's exact_match scores it gives %g",
		fr.Filter, v, clip(logged, 80), 1-v), true
}

// deep is the dataset's Deep: it waits for the index, then re-extracts
// every record on one worker per core and gathers the mismatches and the
// repeats right per filter for pass@k.
func (x *index) deep(ctx context.Context, progress func(done, total int)) (*model.DeepReport, error) {
	_ = x.Wait() // a read error is a dataset issue already
	total := x.Len()
	re := x.reextractor()
	rep := &model.DeepReport{}
	if re.skip || total == 0 {
		return rep, nil
	}
	workers := max(runtime.GOMAXPROCS(0), 1)
	type part struct {
		issues    []model.Issue
		flagged   []int
		counts    map[string][]indexedCount
		repeats   int
		defaulted bool
		reext     int
		err       error
	}
	parts := make([]part, workers)
	var done atomic.Int64
	var progMu sync.Mutex
	step := int64(max(total/200, 1))
	// add gathers record i's findings into the worker's part.
	add := func(p *part, i int, doc docResult) {
		if len(doc.issues) > 0 {
			p.issues = append(p.issues, doc.issues...)
			p.flagged = append(p.flagged, i)
		}
		p.defaulted = p.defaulted || doc.defaulted
		p.repeats = max(p.repeats, doc.repeats)
		p.reext += doc.reextracted
		for _, fc := range doc.counts {
			p.counts[fc.filter] = append(p.counts[fc.filter], indexedCount{i, fc.RepeatCount})
		}
		if d := done.Add(1); progress != nil && (d%step == 0 || int(d) == total) {
			progMu.Lock()
			progress(int(d), total)
			progMu.Unlock()
		}
	}
	// Records come from a counter (plain files: each worker reads its
	// rows) or, for a compressed file, from one goroutine streaming the
	// rows in order (see reextract_stream.go).
	var next atomic.Int64
	claim := func() (lo, hi int) {
		// Small chunks keep both cores busy when docs differ in size.
		lo = int(next.Add(16)) - 16
		return lo, min(lo+16, total)
	}
	var fetched <-chan fetchedRecord
	var streamErr error
	var streamDone chan struct{}
	stopStream := func() {}
	if x.s.comp != jsonl.Plain && !x.allPrepared(total) {
		ch := make(chan fetchedRecord, 2*workers)
		fetched, streamDone = ch, make(chan struct{})
		sctx, cancel := context.WithCancel(ctx)
		stopStream = cancel // a failed worker stops the stream
		go func() {
			defer close(streamDone)
			streamErr = x.streamRecords(sctx, total, ch)
		}()
	}
	defer stopStream()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func(p *part) {
			defer wg.Done()
			p.counts = map[string][]indexedCount{}
			rd := x.newDeepReader()
			defer rd.Close()
			one := func(i int, rows [][]byte) bool {
				// Pause: the browser holds the gate while the user waits
				// on a search or a record.
				if err := model.Pause(ctx); err != nil {
					p.err = err
					return false
				}
				doc, err := x.deepDoc(rd, i, rows)
				if err != nil {
					p.err = err
					return false
				}
				add(p, i, doc)
				return true
			}
			if fetched != nil {
				for f := range fetched {
					if !one(f.i, f.rows) {
						stopStream()
						for range fetched { // let the streamer finish
						}
						return
					}
				}
				return
			}
			for {
				lo, hi := claim()
				if lo >= total {
					return
				}
				for i := lo; i < hi; i++ {
					if !one(i, nil) {
						return
					}
				}
			}
		}(&parts[w])
	}
	wg.Wait()
	if streamDone != nil {
		<-streamDone
	}
	for _, p := range parts {
		if p.err != nil {
			return nil, p.err
		}
	}
	if streamErr != nil {
		return nil, streamErr
	}
	counts := map[string][]indexedCount{}
	defaulted := false
	for _, p := range parts {
		rep.Issues = append(rep.Issues, p.issues...)
		rep.Flagged = append(rep.Flagged, p.flagged...)
		rep.Repeats = max(rep.Repeats, p.repeats)
		rep.Reextracted += p.reext
		defaulted = defaulted || p.defaulted
		for f, c := range p.counts {
			counts[f] = append(counts[f], c...)
		}
	}
	sort.Ints(rep.Flagged)
	model.SortIssues(rep.Issues)
	rep.Issues = defaultMismatches(rep.Issues)
	x.budgetIssues(rep)
	if defaulted {
		rep.Issues = append([]model.Issue{model.Warnf("filter-config-default", x.s.path, 0, "",
			"no config for task %s in a results file: filters were re-applied with the harness defaults for their names (see each extraction's note); the run may have used others", x.task)}, rep.Issues...)
	}
	maxN := 0
	for _, cs := range counts {
		for _, c := range cs {
			maxN = max(maxN, c.N)
		}
	}
	if maxN > 1 {
		rep.PassAtK = map[string]map[int]float64{}
		for f, cs := range counts {
			// Record order, whatever the workers' order: the means are
			// then the same to the last bit from run to run.
			sort.SliceStable(cs, func(a, b int) bool { return cs[a].rec < cs[b].rec })
			plain := make([]compare.RepeatCount, len(cs))
			for k, c := range cs {
				plain[k] = c.RepeatCount
			}
			rep.PassAtK[f] = compare.MeanPassAtK(plain, compare.KValues(maxN))
		}
	}
	return rep, nil
}

// indexedCount is a record's repeats right under one filter.
type indexedCount struct {
	rec int
	compare.RepeatCount
}

// lastDefaulted reports whether rec was re-extracted with a default
// pipeline that extracts (its extractions' notes say so).
func (x *index) lastDefaulted(rec *model.Record) bool {
	for _, a := range rec.Attempts {
		for _, e := range a.Extractions {
			// "none" takes the first repeat: no default worth saying.
			if e.Filter != noFilter && strings.Contains(e.Note, "harness default for ") {
				return true
			}
		}
		return false
	}
	return false
}

// attachDeep sets ds.Deep and the config-level issues of a samples
// dataset.
func attachDeep(ds *model.Dataset) {
	x, ok := ds.Records.(*index)
	if !ok {
		return
	}
	ds.Issues = append(ds.Issues, x.reextractor().datasetIssues()...)
	ds.Deep = x.deep
}

// IndexIssues returns the issues indexing found in record i: those of
// Record(i) except the re-extraction's, which Deep reports. check reads
// them to validate every record without loading each one.
func (x *index) IndexIssues(i int) []model.Issue {
	x.s.mu.RLock()
	defer x.s.mu.RUnlock()
	return append([]model.Issue(nil), x.s.issues[i]...)
}

// defaultMismatches sums up the rows a default pipeline does not
// reproduce into one note per filter, listing the rows as its items, in
// place of one note per row: a folder without its results file gives
// thousands (issue 14).
func defaultMismatches(issues []model.Issue) []model.Issue {
	type sum struct {
		first model.Issue
		items []string
	}
	byFilter := map[string]*sum{}
	var order []string
	out := issues[:0]
	for _, is := range issues {
		if is.Code != defaultMismatch {
			out = append(out, is)
			continue
		}
		f := strings.TrimPrefix(is.Message, "filter ")
		if q, err := strconv.QuotedPrefix(f); err == nil {
			f = q
		}
		s := byFilter[f]
		if s == nil {
			s = &sum{first: is}
			byFilter[f] = s
			order = append(order, f)
		}
		s.items = append(s.items, fmt.Sprintf("line %d [%s]", is.Line, is.Record))
	}
	for _, f := range order {
		s := byFilter[f]
		is := s.first
		is.Message = fmt.Sprintf("filter %s: the harness default for its name does not reproduce %d of its logged answers (this row's first); without the task config they are no findings: the run may have used its own pipeline",
			f, len(s.items))
		is.Items = s.items
		out = append(out, is)
	}
	return out
}
