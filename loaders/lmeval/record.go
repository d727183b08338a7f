package lmeval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"evalview/loaders/internal/jsonstr"
	"evalview/loaders/jsonl"
	"evalview/loaders/source"
	"evalview/model"
)

// index is the lm-eval model.Index: summaries in memory, rows read from
// the samples file on demand. It may be read while its background scan
// still runs: every method is safe for concurrent use.
type index struct {
	s *scanned
	// task and res finish the dataset once the scan is done (SyncDataset).
	task   string
	res    *results
	synced bool
	re     reextractOnce // re-extraction of filter pipelines (reextract.go)
	// own is how the task's own process_results compared (ownscore.go),
	// told at the first record.
	ownOnce sync.Once
	own     *ownScorer
}

// Len returns the number of records indexed so far.
func (x *index) Len() int {
	x.s.mu.RLock()
	defer x.s.mu.RUnlock()
	return x.s.count()
}

// Summary returns record i's list row. Its Outcomes slice is never
// changed once published, so the copy stays valid while the scan goes on.
func (x *index) Summary(i int) model.Summary {
	x.s.mu.RLock()
	defer x.s.mu.RUnlock()
	return x.s.summary(i)
}

// Stop ends the background scan at its next read (model.Stopper): the
// index keeps the records it has, and Done turns true once the scan ends.
func (x *index) Stop() { x.s.stopped.Store(true) }

// Done reports whether the scan and its final pass are over.
func (x *index) Done() bool { return x.s.complete.Load() }

// Wait blocks until the index is complete and returns the scan's read
// error, if any (it is also reported as a dataset issue).
func (x *index) Wait() error { return x.s.wait() }

// Progress returns the bytes indexed so far (uncompressed).
func (x *index) Progress() int64 { return x.s.indexed.Load() }

// Record reads the doc's rows and builds its detail.
func (x *index) Record(i int) (*model.Record, error) {
	rec, doc, err := x.recordDoc(i)
	if rec != nil {
		x.ownOnce.Do(func() { x.own = ownScorerOf(x.res, x.task, rowMetricNames(rec)) })
		if x.own != nil {
			x.own.describe(x.task, rec, doc)
		}
		// A default pipeline's disagreements are summed up by the deep
		// check, one note per filter; the Filters tab marks each one.
		rec.Issues = slices.DeleteFunc(rec.Issues, func(is model.Issue) bool { return is.Code == defaultMismatch })
	}
	return rec, err
}

// record is Record with every re-extraction issue, as the deep check's
// reference path (deepDocFull) reads them.
func (x *index) record(i int) (*model.Record, error) {
	rec, _, err := x.recordDoc(i)
	return rec, err
}

// recordDoc is record, with the doc of the record's first row.
func (x *index) recordDoc(i int) (*model.Record, json.RawMessage, error) {
	x.s.mu.RLock()
	locs := x.s.rowsOf(i)
	sum := x.s.summary(i)
	issues := append([]model.Issue(nil), x.s.issues[i]...)
	filters := append([]string(nil), x.s.filters...)
	main, lower := x.s.main, x.s.mainScoreOnly
	x.s.mu.RUnlock()
	if x.s.comp == jsonl.Plain {
		// A remote file's rows are asked for together: one round trip.
		var ranges [][2]int64
		for _, loc := range locs {
			if loc.size <= 4<<20 {
				ranges = append(ranges, [2]int64{loc.off, int64(loc.size)})
			}
		}
		source.Prefetch(x.s.path, ranges)
	}
	// Each row is read and split on its own goroutine when the doc is big
	// (a doc of 200 MB lines has one per filter): both cores work.
	rows := make([]loadedRow, len(locs))
	big := 0
	for _, loc := range locs {
		big += int(loc.size)
	}
	var wg sync.WaitGroup
	for j := 1; j < len(locs); j++ {
		if r, ok := x.loadRowEnds(locs[j], sum); ok {
			rows[j] = r
			continue
		}
		if big > 4<<20 {
			wg.Add(1)
			go func() { defer wg.Done(); rows[j] = x.loadRow(locs[j]) }()
			continue
		}
		rows[j] = x.loadRow(locs[j])
	}
	rec := &model.Record{Summary: sum}
	rec.Issues = issues
	if len(locs) > 0 {
		// The first row gives the conversation and attempts, built while
		// the other rows load.
		if rows[0] = x.loadRow(locs[0]); rows[0].err == nil {
			inPlace := x.ownsLongRow(locs[0])
			if inPlace {
				// The repeats are decoded over the row's own bytes
				// (fillFromRow): the Raw tab keeps a copy of its head,
				// and Full reads it back whole.
				raw := rows[0].raw
				rows[0].raw = bytes.Clone(raw[:rawHead])
				rows[0].omitted = len(raw) - rawHead
			}
			fillFromRow(rec, &rows[0].h, inPlace)
		}
	}
	wg.Wait()
	for j, r := range rows {
		if r.err != nil {
			return nil, nil, r.err
		}
		line := int(locs[j].line)
		filter := filters[locs[j].filter]
		part := model.RawPart{Label: "filter " + filter, File: x.s.path, Line: line, JSON: r.raw, Omitted: r.omitted}
		if r.omitted > 0 {
			loc := locs[j]
			part.Full = func() ([]byte, error) {
				r := x.loadRow(loc)
				return r.raw, r.err
			}
		}
		rec.Raw = append(rec.Raw, part)
		rec.Filters = append(rec.Filters, filterResult(filter, line, &r.h, main, lower, x.s.known))
	}
	var doc json.RawMessage
	if len(rows) > 0 && rows[0].err == nil {
		doc = rows[0].h.Doc // outside the repeats: intact after decoding in place
	}
	x.reextract(rec, doc)
	return rec, doc, nil
}

// loadedRow is one row read back and split.
type loadedRow struct {
	raw []byte
	h   rowHead
	err error
	// omitted counts the bytes past raw, a head, that were not read.
	omitted int
}

// A doc's rows repeat its doc, prompt and repeats; only the first one's
// are used. For a later row longer than bigRow (a doc of 200 MB lines
// has one per filter), Record reads just its head, for the Raw tab, and
// its tail, which holds filtered_resps, the filter and the metrics:
// reading and keeping the whole row would triple the memory the record
// takes. The Raw part's Full reads the rest on request.
const (
	bigRow  = 8 << 20
	rawHead = 1 << 20
	rowTail = 64 << 10
)

// loadRowEnds reads the head and tail of a long row at loc, of the doc
// whose summary is sum; ok is false when the row is not long, the file is
// compressed (the tail is no cheaper to reach than the row), or the tail
// does not hold what filterResult reads (filtered_resps, and metrics the
// same as the index found in the whole row).
func (x *index) loadRowEnds(loc rowLoc, sum model.Summary) (loadedRow, bool) {
	if x.s.whole != nil || x.s.comp != jsonl.Plain || int(loc.size) <= bigRow {
		return loadedRow{}, false
	}
	head, err := x.s.rd.read(loc.off, rawHead)
	if err != nil {
		return loadedRow{}, false
	}
	tail, err := x.s.rd.read(loc.off+int64(loc.size)-rowTail, rowTail)
	if err != nil {
		return loadedRow{}, false
	}
	_, k, ok := lastFieldAt(tail, "filtered_resps")
	if !ok {
		return loadedRow{}, false
	}
	h, err := parseRow(append([]byte{'{'}, tail[k:]...))
	if err != nil || int(loc.filter) >= len(sum.Outcomes) {
		return loadedRow{}, false
	}
	metrics, values := rowMetrics(&h, x.s.known)
	if !slices.Equal(metrics, sum.Outcomes[loc.filter].Metrics) || len(values) != len(sum.Outcomes[loc.filter].Values()) {
		return loadedRow{}, false // a metric before filtered_resps
	}
	head = bytes.TrimPrefix(head, bom)
	return loadedRow{raw: head, h: h, omitted: int(loc.size) - rawHead}, true
}

// loadRow reads a row back from the file (or memory) and splits it.
func (x *index) loadRow(loc rowLoc) loadedRow {
	raw := x.s.inMemory(loc)
	if raw == nil {
		buf, err := x.s.rd.read(loc.off, int(loc.size))
		if err != nil {
			return loadedRow{err: fmt.Errorf("%s:%d: reading row: %w (was the file changed since it was opened?)", x.s.path, loc.line, err)}
		}
		raw = bytes.TrimPrefix(buf, []byte("\xef\xbb\xbf"))
	}
	h, err := parseRow(raw)
	if err != nil {
		return loadedRow{err: fmt.Errorf("%s:%d: row changed since the file was indexed: %v", x.s.path, loc.line, err)}
	}
	return loadedRow{raw: raw, h: h}
}

func filterResult(filter string, line int, h *rowHead, main string, lower bool, known map[string]bool) model.FilterResult {
	fr := model.FilterResult{Filter: filter, Line: line, Answer: answerText(h.FilteredResps)}
	var list []json.RawMessage
	if json.Unmarshal(h.FilteredResps, &list) == nil {
		if _, ok := logLikelihoods(list); !ok {
			for _, item := range list {
				fr.Answers = append(fr.Answers, scalarText(item))
			}
		}
	}
	fr.Metrics, fr.Values = rowMetrics(h, known)
	for _, m := range fr.Metrics {
		if m.Name == main && !lower {
			fr.Status = statusOf(m.Value)
		}
	}
	return fr
}

// ownsLongRow reports whether Record may decode the row at loc in place:
// a row longer than bigRow that it reads from a plain file into a buffer
// of its own (an array file's rows stay in the index, and a compressed
// file's reader caches the rows it hands out).
func (x *index) ownsLongRow(loc rowLoc) bool {
	return x.s.whole == nil && x.s.comp == jsonl.Plain && int(loc.size) > bigRow
}

// fillFromRow sets what every row of a doc shares: the conversation, the
// repeats, the doc fields and the target. With inPlace, the repeats'
// texts are decoded over their own bytes in the row (textInPlace), which
// is then no longer JSON: for a row of hundreds of MB, which would
// otherwise be held twice.
func fillFromRow(rec *model.Record, h *rowHead, inPlace bool) {
	rec.Target = scalarText(h.Target)
	if strings.HasSuffix(rec.Title, "…") {
		// The list's title is cut; the record's is whole (export).
		fields, err := docEntries(h.Doc)
		if t := titleCut(fields, err, h.Doc, h.Arguments, 0); t != "" {
			rec.Title = t
		}
	}
	if fields, err := objectEntries(h.Doc); err == nil {
		for _, f := range fields {
			v := scalarText(f.Val)
			isJSON := len(f.Val) > 0 && f.Val[0] != '"'
			if isJSON {
				v = prettyJSON(f.Val)
			}
			rec.Fields = append(rec.Fields, model.Field{Name: f.Key, Value: v, IsJSON: isJSON})
		}
	} else if len(h.Doc) > 0 {
		rec.Fields = append(rec.Fields, model.Field{Name: "doc", Value: scalarText(h.Doc), IsJSON: h.Doc[0] != '"'})
	}
	args := parseArgs(h.Arguments)
	resps := elements(h.Resps)
	// Long generated text is not log-likelihoods, and too big to decode
	// twice: only short first values are checked.
	if mayBeLogLikelihoods(h.Resps) && len(args) > 0 {
		if lls, ok := logLikelihoods(resps); ok {
			fillLogLikelihood(rec, args, lls)
			return
		}
	}
	if len(args) > 0 {
		rec.Messages = markFewShot(promptMessages(args[0].arg0), rec.Title)
		if len(args[0].arg1) > 0 && args[0].arg1[0] == '{' {
			rec.Sections = append(rec.Sections, model.Section{Title: "Generation kwargs", Type: model.SectionJSON, JSON: prettyJSON(args[0].arg1), Tab: "Details"})
		}
	}
	rec.Options = docOptions(rec.Fields, rec.Target)
	var raws []json.RawMessage
	for ri, r := range resps {
		texts := elements(r)
		if texts == nil {
			texts = []json.RawMessage{r}
		}
		for k := range texts {
			a := model.Attempt{Index: len(rec.Attempts) + 1}
			if len(resps) > 1 {
				a.Facts = append(a.Facts, model.Fact{Key: "request", Value: strconv.Itoa(ri)}, model.Fact{Key: "repeat", Value: strconv.Itoa(k + 1)})
			}
			rec.Attempts = append(rec.Attempts, a)
		}
		raws = append(raws, texts...)
	}
	decodeTexts(rec.Attempts, raws, inPlace)
}

// decodeTexts sets each attempt's text from its raw JSON, on both cores
// when they add up to many MB (a doc with 200 MB of responses), over the
// raw bytes themselves with inPlace.
func decodeTexts(atts []model.Attempt, raws []json.RawMessage, inPlace bool) {
	fastText := fastText
	if inPlace {
		fastText = textInPlace
	}
	size := 0
	for _, r := range raws {
		size += len(r)
	}
	if size < 8<<20 {
		for i, r := range raws {
			atts[i].Text = fastText(r)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				atts[i].Text = fastText(raws[i])
			}
		}()
	}
	for i := range raws {
		next <- i
	}
	close(next)
	wg.Wait()
}

// textInPlace is fastText decoding a string literal over its own bytes
// (jsonstr.InPlace), and copying anything else.
func textInPlace(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if s, ok := jsonstr.InPlace(raw); ok {
		return s
	}
	return fastText(raw)
}

// fillLogLikelihood shows a multiple-choice doc: the shared context as the
// prompt, each continuation as an option, and each choice's log-likelihood
// as an attempt, the highest marked as the model's pick.
func fillLogLikelihood(rec *model.Record, args []argPair, lls []loglik) {
	rec.Messages = markFewShot(promptMessages(args[0].arg0), rec.Title)
	best := argmax(lls)
	target := strings.TrimSpace(rec.Target)
	for i, a := range args {
		cont := scalarText(a.arg1)
		opt := model.Option{ID: optionID(i), Text: cont}
		opt.Correct = target == strconv.Itoa(i) || target == opt.ID || (target != "" && strings.TrimSpace(cont) == target)
		rec.Options = append(rec.Options, opt)
		if i >= len(lls) {
			continue
		}
		at := model.Attempt{Index: i + 1, Text: cont, StatusText: "choice " + opt.ID}
		at.Facts = []model.Fact{{Key: "logprob", Value: strconv.FormatFloat(lls[i].logprob, 'g', -1, 64)}, {Key: "is_greedy", Value: strconv.FormatBool(lls[i].isGreedy)}}
		if i == best {
			at.StatusText += " (highest log-likelihood: the model's pick)"
			if opt.Correct {
				at.Status = model.StatusPass
			} else {
				at.Status = model.StatusFail
			}
		}
		rec.Attempts = append(rec.Attempts, at)
	}
}

// docOptions lists multiple-choice options found in the doc ("options",
// "choices"), marking the one the target names (a letter or an index).
func docOptions(fields []model.Field, target string) []model.Option {
	for _, f := range fields {
		if f.Name != "options" && f.Name != "choices" || !f.IsJSON {
			continue
		}
		var texts []string
		if json.Unmarshal([]byte(f.Value), &texts) != nil {
			var labelled struct {
				Text  []string `json:"text"`
				Label []string `json:"label"`
			}
			if json.Unmarshal([]byte(f.Value), &labelled) != nil || len(labelled.Text) == 0 {
				continue
			}
			texts = labelled.Text
		}
		target = strings.TrimSpace(target)
		var out []model.Option
		for i, t := range texts {
			id := optionID(i)
			out = append(out, model.Option{ID: id, Text: t, Correct: target == id || target == strconv.Itoa(i)})
		}
		return out
	}
	return nil
}

func optionID(i int) string {
	if i < 26 {
		return string(rune('A' + i))
	}
	return strconv.Itoa(i)
}

func prettyJSON(raw []byte) string {
	var buf bytes.Buffer
	if json.Indent(&buf, raw, "", "  ") != nil {
		return string(raw)
	}
	return buf.String()
}
