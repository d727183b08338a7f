package lmeval

import (
	"errors"
	"strings"

	"evalview/loaders/internal/jsonstr"
	"evalview/loaders/jsonl"
	"evalview/model"
	"evalview/model/compare"
)

// The deep check re-extracts every record, and building a full Record
// (prompt messages, doc fields, pretty JSON) costs more than re-extraction
// itself. leanRecord builds only what re-extraction reads: the rows'
// filter results, the target and the repeats' texts; deepDoc then counts
// each run's right repeats without building Extractions. Anything unusual
// in a row falls back to Record (deepDocFull), and both paths share
// eachRun, so they report the same.

// errLean stops the lean decoding of a row that Record must handle.
var errLean = errors.New("not a plain list of generated texts")

// docResult is what the deep check learns from one record.
type docResult struct {
	// issues are its reextract-mismatch warnings.
	issues []model.Issue
	// counts are, per filter run in row order, the repeats scored and
	// right (only runs that scored some).
	counts []filterCount
	// repeats is the record's number of repeats.
	repeats int
	// defaulted is set when a harness default pipeline ran.
	defaulted bool
	// reextracted counts the doc's filter rows whose pipeline ran.
	reextracted int
}

type filterCount struct {
	filter string
	compare.RepeatCount
}

// deepDoc re-extracts record i for the deep check, from a lean record
// when the rows allow it. rows, when not nil, are the record's rows
// already read (a compressed file's stream); nil rows read them with r.
func (x *index) deepDoc(r *deepReader, i int, rows [][]byte) (docResult, error) {
	if d, ok := x.preparedDoc(i); ok {
		return d, nil
	}
	rec, texts, ok := x.leanRecord(r, i, rows)
	if !ok {
		return x.deepDocFull(i)
	}
	if d, ok := x.quickDoc(rec, texts, &r.quick); ok {
		return d, nil
	}
	return x.deepDocRuns(rec, texts, r), nil
}

// deepDocRuns is deepDoc on a lean record through eachRun (the executor).
func (x *index) deepDocRuns(rec *model.Record, strs []string, r *deepReader) docResult {
	texts := r.scratch.texts[:0]
	for _, s := range strs {
		texts = append(texts, s)
	}
	r.scratch.texts = texts
	var d docResult
	before := len(rec.Issues)
	// Filters with the same per-repeat steps (score-first, maj@64, maj@8)
	// share each repeat's own answer (pipeRun.shared): count them once.
	counted := map[string]compare.RepeatCount{}
	x.eachRun(rec, texts, &r.scratch, nil, func(run *pipeRun) {
		d.defaulted = d.defaulted || run.p.defaulted
		if run.err == nil {
			d.reextracted++
		}
		rc, ok := counted[run.p.perRepeatKey]
		if !ok || !run.shared || run.err != nil {
			rc.N, rc.C = run.repeatsRight(len(texts))
			if run.shared && run.err == nil {
				counted[run.p.perRepeatKey] = rc
			}
		}
		if n, c := rc.N, rc.C; n > 0 {
			d.counts = append(d.counts, filterCount{run.fr.Filter, compare.RepeatCount{N: n, C: c}})
		}
	})
	if len(rec.Issues) > before {
		d.issues = rec.Issues[before:]
	}
	d.repeats = len(texts)
	return d
}

// deepDocFull is deepDoc on the full Record: the reference the lean path
// must agree with, and its fallback.
func (x *index) deepDocFull(i int) (docResult, error) {
	rec, err := x.record(i)
	if err != nil {
		return docResult{}, err
	}
	var d docResult
	for _, is := range rec.Issues {
		if is.Code == "reextract-mismatch" || is.Code == "rescore-mismatch" || is.Code == defaultMismatch {
			d.issues = append(d.issues, is)
		}
	}
	d.defaulted = x.lastDefaulted(rec)
	d.repeats = len(rec.Attempts)
	ran := map[string]bool{}
	for _, a := range rec.Attempts {
		for _, e := range a.Extractions {
			// A run that failed leaves no answer; one that matched
			// nothing leaves "[invalid]".
			ran[e.Filter] = ran[e.Filter] || e.Answer != ""
		}
	}
	for _, ok := range ran {
		if ok {
			d.reextracted++
		}
	}
	for _, fr := range rec.Filters {
		if n, c := compare.RepeatsRight(rec, fr.Filter); n > 0 {
			d.counts = append(d.counts, filterCount{fr.Filter, compare.RepeatCount{N: n, C: c}})
		}
	}
	return d, nil
}

// leanRecord reads record i with only what re-extraction reads (the
// first row's target, every row's filtered answers) and its repeats'
// texts, not yet re-extracted; ok is false when Record must build it (a
// read or parse error, which Record words, or resps that are not plain
// texts). The record's rows are r's buffers: use it before r's next read.
// rows, when not nil, are the record's rows already read, in order.
func (x *index) leanRecord(r *deepReader, i int, rows [][]byte) (*model.Record, []string, bool) {
	x.s.mu.RLock()
	locs := x.s.rowsOf(i)
	sum := x.s.summary(i)
	issues := append([]model.Issue(nil), x.s.issues[i]...)
	names := make([]string, len(locs))
	for j, loc := range locs {
		names[j] = x.s.filters[loc.filter]
	}
	x.s.mu.RUnlock()
	if len(locs) == 0 || rows != nil && len(rows) != len(locs) {
		return nil, nil, false
	}
	rec := &model.Record{Summary: sum, Issues: issues}
	var texts []string
	rec.Filters = make([]model.FilterResult, 0, len(locs))
	for j, loc := range locs {
		line := int(loc.line)
		if j > 0 && loc.one && int(loc.filter) < len(sum.Outcomes) {
			// The index holds the row's one logged answer: no read.
			a := sum.Outcomes[loc.filter].Answer
			rec.Filters = append(rec.Filters, model.FilterResult{Filter: names[j], Line: line, Answer: a, Answers: []string{a}})
			continue
		}
		if j > 0 {
			var fresps []byte
			ok := rows != nil && rows[j] != nil
			if ok {
				fresps, ok = lastField(rows[j], "filtered_resps")
			} else if rows == nil {
				fresps, ok = r.filteredResps(loc)
			}
			if !ok {
				return nil, nil, false
			}
			rec.Filters = append(rec.Filters, leanFilter(names[j], line, fresps))
			continue
		}
		var raw []byte
		ok := rows != nil && rows[j] != nil
		if ok {
			raw = rows[j]
		} else if rows == nil {
			raw, ok = r.row(loc)
		}
		if !ok {
			return nil, nil, false
		}
		h, err := parseRow(raw)
		if err != nil {
			return nil, nil, false
		}
		rec.Raw = []model.RawPart{{Label: "filter " + names[j], File: x.s.path, Line: line, JSON: raw}}
		rec.Filters = append(rec.Filters, leanFilter(names[j], line, h.FilteredResps))
		rec.Target = scalarText(h.Target)
		// The texts share memory with raw and r's arena: this doc's
		// re-extraction is done with them before r reads again.
		r.arena.reset(len(h.Resps))
		if texts, ok = r.arena.repeatStrings(r.strs[:0], h.Resps); !ok {
			r.arena.reset(len(h.Resps))
			boxed, ok := repeatTextsWith(r.scratch.texts[:0], h.Resps, r.arena.text)
			if !ok {
				return nil, nil, false
			}
			r.scratch.texts = boxed
			texts = texts[:0]
			for _, t := range boxed {
				texts = append(texts, t.(string)) // repeatTextsWith gives strings only
			}
		}
	}
	r.strs = texts
	for j := range rec.Filters {
		if f := int(locs[j].filter); f < len(sum.Outcomes) {
			rec.Filters[j].Metrics = sum.Outcomes[f].Metrics // the logged exact_match, re-scored
		}
	}
	return rec, texts, true
}

// leanFilter is filterResult for what re-extraction reads (the filter, its
// line and logged answers; Metrics and Status stay empty), decoding a
// filtered_resps that is a non-empty list of strings itself and leaving
// anything else to filterResult.
func leanFilter(name string, line int, fresps []byte) model.FilterResult {
	var answers []string
	err := jsonl.EachElement(fresps, func(_ int, v []byte) error {
		if v[0] != '"' {
			return errLean
		}
		s, ok := decodeString(v)
		if !ok {
			return errLean
		}
		answers = append(answers, s)
		return nil
	})
	if err != nil || len(answers) == 0 {
		return filterResult(name, line, &rowHead{FilteredResps: fresps}, "", false, nil)
	}
	return model.FilterResult{Filter: name, Line: line, Answer: strings.Join(answers, " | "), Answers: answers}
}

// repeatTexts returns the texts of resps in the order fillFromRow makes
// them attempts, appended to texts, for resps that are a list of
// requests, each a string or a list of strings. It returns false for
// anything else (invalid JSON, other values, resps that could be
// log-likelihood pairs), which fillFromRow must handle.
func repeatTexts(texts []any, resps []byte) ([]any, bool) {
	return repeatTextsWith(texts, resps, decodeString)
}

// repeatTextsWith is repeatTexts decoding each text with dec.
func repeatTextsWith(texts []any, resps []byte, dec func([]byte) (string, bool)) ([]any, bool) {
	allPairs := true
	err := jsonl.EachElement(resps, func(_ int, v []byte) error {
		switch v[0] {
		case '"':
			allPairs = false
			s, ok := dec(v)
			if !ok {
				return errLean
			}
			texts = append(texts, s)
			return nil
		case '[':
			k := 0
			err := jsonl.EachElement(v, func(_ int, t []byte) error {
				if t[0] != '"' {
					return errLean
				}
				s, ok := dec(t)
				if !ok {
					return errLean
				}
				texts = append(texts, s)
				k++
				return nil
			})
			allPairs = allPairs && k == 2
			return err
		}
		return errLean
	})
	// Requests of exactly two strings might be [logprob, is_greedy]
	// pairs spelled as strings; Record tells.
	return texts, err == nil && !(allPairs && len(texts) > 0)
}

// decodeString decodes a JSON string literal as encoding/json does. ok is
// false when the literal is not valid JSON (Record then handles the row).
func decodeString(v []byte) (string, bool) { return jsonstr.Unquote(v) }
