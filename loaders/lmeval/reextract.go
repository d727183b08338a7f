package lmeval

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"evalview/loaders/jsonl"
	"evalview/model"
	"evalview/model/compare"
	"evalview/model/lmfilter"
)

// Re-extraction: evalview re-applies each filter pipeline of the task
// (configs.<task>.filter_list of the results file) to every repeat of a
// generate_until doc, with model/lmfilter, and compares the outcome with
// the logged filtered_resps. Issue codes:
//
//	reextract-mismatch     the re-applied pipeline gives another answer
//	reextract-default-differs  a harness default pipeline (no config) gives
//	                       another answer: a note, summed up per filter
//	                       than the samples log for that filter (record)
//	filter-unsupported     the config names a filter function evalview
//	                       cannot re-run (custom code); that filter is
//	                       not re-applied (dataset; a note)
//	filter-config-default  no task config was found, so the harness
//	                       defaults for the filter names were used (dataset,
//	                       reported by the deep check)
//
// Scoring of each repeat's own answer follows the task's exact_match
// (regexes_to_ignore, ignore_case, ignore_punctuation, ignore_numbers, as
// the harness's exact_match_hf_evaluate applies them). Other metrics (f1,
// bleu, custom process_results) leave the status unscored. Log-likelihood
// tasks (multiple_choice) have nothing to extract and are skipped.

// reextractor holds what re-extraction needs for one dataset, built once
// from the results file's task config.
type reextractor struct {
	path, task string
	// skip is set when the task is known not to generate text.
	skip bool
	// hasConfig tells whether the results file has a config for the task;
	// hasList whether that config has a filter_list.
	hasConfig, hasList bool
	pipes              map[string]*pipe
	em                 *exactMatch
	emNote             string
	version            string
	// unsupported are the config's filters that cannot be re-run.
	unsupported []string
	// choices is a generate_until task's doc_to_choice list, against
	// whose element at the target's index the harness scores
	// (api/task.py process_results: gold = choices[gold], v0.4.0 to
	// v0.4.12); choicesUnknown is set when doc_to_choice is a template
	// evalview cannot evaluate, so answers are not re-scored.
	choices        []string
	choicesUnknown bool
	// ownScoring is set when the task scores with its own
	// process_results: its rows' exact_match is not the metric's, and is
	// not re-scored against the logged answers.
	ownScoring bool
	// overBudget holds the filters a run of failed on a pattern's time
	// budget (reextract_budget.go).
	overBudget sync.Map
}

// pipe is one filter's pipeline, ready to run.
type pipe struct {
	p    lmfilter.Pipeline
	note string
	// ownFromTrace is true when every per-repeat step comes before the
	// first selection step, so the full run's traces already hold each
	// repeat's own answer; otherwise perRepeat (the pipeline without its
	// selection steps) is run for them.
	ownFromTrace bool
	perRepeat    lmfilter.Pipeline
	// perRepeatKey is perRepeat.String(), the key of its traces in a
	// record's cache (computed once: rendering the steps is not cheap).
	perRepeatKey string
	// drop says why a repeat may not count ("take_first keeps ...").
	drop string
	// hasVote tells whether the pipeline has a majority_vote step.
	hasVote bool
	// defaulted marks a pipeline taken from the harness defaults.
	defaulted bool
	// quick, when not nil, runs the pipeline for the deep check without
	// the executor (reextract_quick.go).
	quick *lmfilter.Quick
	// patterns are the pipeline's regexes, shown beside "no match".
	patterns []string
}

// selection steps pick among repeats; every other step maps each one.
var selection = map[string]bool{"take_first": true, "take_first_k": true, "majority_vote": true}

func newPipe(p lmfilter.Pipeline, note string) *pipe {
	pp := &pipe{p: p, note: note, ownFromTrace: true, quick: lmfilter.QuickFor(p), patterns: p.Patterns()}
	seenSel := false
	pp.perRepeat = lmfilter.Pipeline{Name: p.Name, HarnessVersion: p.HarnessVersion}
	for _, s := range p.Steps {
		if selection[s.Function] {
			seenSel = true
			if s.Function == "take_first_k" {
				pp.ownFromTrace = false
				pp.drop = "take_first_k(k=" + fmt.Sprint(s.Params["k"]) + ") drops repeats past the first k before the filter picks its answer"
			} else if pp.drop == "" && s.Function == "take_first" {
				pp.drop = "take_first keeps only the first repeat"
			}
			continue
		}
		if seenSel {
			pp.ownFromTrace = false
		}
		pp.perRepeat.Steps = append(pp.perRepeat.Steps, s)
	}
	pp.perRepeatKey = pp.perRepeat.String()
	for _, s := range p.Steps {
		pp.hasVote = pp.hasVote || s.Function == "majority_vote"
	}
	return pp
}

// taskConfig is the part of configs.<task> re-extraction reads.
type taskConfig struct {
	OutputType string          `json:"output_type"`
	FilterList json.RawMessage `json:"filter_list"`
	// ProcessResults is the task's own scoring code, when it has some
	// (dumped as its source).
	ProcessResults json.RawMessage `json:"process_results"`
	// DocToChoice, set for a generate_until task, makes the harness score
	// against choices[target] (the logged target is the index).
	DocToChoice json.RawMessage `json:"doc_to_choice"`
	MetricList  []struct {
		Metric            string   `json:"metric"`
		IgnoreCase        bool     `json:"ignore_case"`
		IgnorePunctuation bool     `json:"ignore_punctuation"`
		IgnoreNumbers     bool     `json:"ignore_numbers"`
		RegexesToIgnore   []string `json:"regexes_to_ignore"`
	} `json:"metric_list"`
}

// taskConfigOf is task's config as the re-extractor reads it; ok is
// false without one, or when one of its fields is not what the harness
// writes (as when it was decoded whole).
func taskConfigOf(r *results, task string) (cfg taskConfig, ok bool) {
	parts, ok := r.config(task)
	if !ok {
		return cfg, false
	}
	cfg.FilterList, cfg.ProcessResults, cfg.DocToChoice = parts.FilterList, parts.ProcessResults, parts.DocToChoice
	for _, f := range []struct {
		raw json.RawMessage
		to  any
	}{{parts.OutputType, &cfg.OutputType}, {parts.MetricList, &cfg.MetricList}} {
		if len(f.raw) > 0 && json.Unmarshal(f.raw, f.to) != nil {
			return taskConfig{}, false
		}
	}
	return cfg, true
}

// newReextractor reads the task config of r (nil without a results file).
func newReextractor(path, task string, r *results) *reextractor {
	re := &reextractor{path: path, task: task, pipes: map[string]*pipe{}}
	var cfg taskConfig
	if r != nil {
		for _, f := range r.Facts {
			if f.Key == "harness" {
				re.version = f.Value
			}
		}
		cfg, re.hasConfig = taskConfigOf(r, task)
	}
	if re.hasConfig && cfg.OutputType != "" && cfg.OutputType != "generate_until" {
		re.skip = true
		return re
	}
	re.em, re.emNote = metricFrom(cfg, re.hasConfig, task)
	re.choices, re.choicesUnknown = docChoices(cfg.DocToChoice)
	re.ownScoring = len(cfg.ProcessResults) > 0 && string(cfg.ProcessResults) != "null"
	if !re.hasConfig {
		return re // pipelines come from defaultPipe, by filter name
	}
	ps, err := lmfilter.ParseFilterList(cfg.FilterList)
	if err != nil {
		re.unsupported = append(re.unsupported, fmt.Sprintf("filter_list cannot be read (%v)", err))
		return re
	}
	re.hasList = ps != nil
	if ps == nil {
		ps = lmfilter.DefaultPipelines(cfg.OutputType)
	}
	if len(cfg.ProcessResults) > 0 && string(cfg.ProcessResults) != "null" && allTrivial(ps) {
		// ifeval, leaderboard_math...: the task's own code reads the
		// whole response; a take_first filter hands it over unchanged,
		// so "re-extracting" would only show the response again.
		re.skip = true
		return re
	}
	for _, p := range ps {
		p.HarnessVersion = re.version
		if u := p.Unsupported(); len(u) > 0 {
			re.unsupported = append(re.unsupported, fmt.Sprintf("%q (step %s)", p.Name, strings.Join(u, ", ")))
			continue
		}
		note := ""
		if !re.hasList {
			note = "harness default: the task config has no filter_list"
		}
		re.pipes[p.Name] = newPipe(p, note)
	}
	return re
}

// datasetIssues are the issues known from the config alone.
func (re *reextractor) datasetIssues() []model.Issue {
	var out []model.Issue
	for _, u := range re.unsupported {
		// A note, not a warning: the file is fine, evalview only cannot
		// re-run the task's own code (humaneval's create_test).
		out = append(out, model.Notef("filter-unsupported", re.path, 0, "",
			"filter %s cannot be re-applied (custom or unknown function); its answers are shown as logged, without re-extraction", u))
	}
	return out
}

// pipeFor returns the pipeline of filter name, nil when it cannot be run.
func (re *reextractor) pipeFor(name string) *pipe {
	if p, ok := re.pipes[name]; ok || re.hasConfig {
		return p
	}
	p := defaultPipe(re.task, name, re.version)
	re.pipes[name] = p // under reextractOnce's caller lock
	return p
}

// reextractOnce builds an index's reextractor on first use; the zero value
// is ready. Its lock also guards the lazily filled default pipelines and
// counted.
type reextractOnce struct {
	once sync.Once
	mu   sync.Mutex
	re   *reextractor
	// counted marks docs whose mismatch warnings are already in their
	// summary's Warnings.
	counted map[string]bool
}

// countOnce adds a doc's n mismatch warnings to its summary the first time
// the doc is re-extracted, so that a summary's counts keep matching its
// record's issues (the list, queries and check count them) once known. It
// reports whether this call added them.
func (x *index) countOnce(id string, n int) (first bool) {
	if n == 0 {
		return false
	}
	x.re.mu.Lock()
	if x.re.counted == nil {
		x.re.counted = map[string]bool{}
	}
	first = !x.re.counted[id]
	x.re.counted[id] = true
	x.re.mu.Unlock()
	if !first {
		return false
	}
	x.s.mu.Lock()
	if i, ok := x.s.recordOf(id); ok {
		x.s.addWarnings(i, n)
	}
	x.s.mu.Unlock()
	return true
}

// get returns the index's reextractor.
func (x *index) reextractor() *reextractor {
	x.re.once.Do(func() { x.re.re = newReextractor(x.s.path, x.task, x.res) })
	return x.re.re
}

// reextract fills rec's attempts' Extractions and adds a
// reextract-mismatch warning per filter whose logged answer the pipeline
// does not reproduce.
//
// doc is the doc's JSON from its first row (multi_choice_regex reads it):
// Record passes it because rec.Raw may hold only the head of a long row.
func (x *index) reextract(rec *model.Record, doc json.RawMessage) {
	x.eachRun(rec, nil, nil, doc, func(run *pipeRun) { run.addExtractions(rec) })
}

// runScratch holds what one worker's runs reuse from record to record.
type runScratch struct {
	memo  lmfilter.Memo
	arena lmfilter.Arena
	texts []any
}

// pipeRun is one filter's pipeline run over a record's repeats.
type pipeRun struct {
	fr model.FilterResult
	p  *pipe
	sc *scorer
	// note is the pipeline's note for every extraction.
	note string
	res  lmfilter.Result
	err  error
	// traces hold each repeat's own answer (the pipeline without its
	// selection steps); shared tells they are the record's traces for
	// p.perRepeatKey, the same for every run with that key.
	traces []lmfilter.RepeatTrace
	shared bool
	// logged is the samples' answer when they log exactly one.
	logged string
	hasLog bool
}

// eachRun runs every filter's pipeline over rec's repeats, adds a
// reextract-mismatch warning to rec per filter whose logged answer it
// does not reproduce, and calls fn with each run. Record and the deep
// check share it, so both report the same. texts are the repeats' texts
// (strings), nil to take them from rec.Attempts; sc, when set, lends the
// runs buffers reused record after record (the runs' results are then
// valid only until the next call with sc); doc is the doc's JSON, nil to
// read it from rec.Raw[0] (which must then be the whole first row).
func (x *index) eachRun(rec *model.Record, texts []any, sc *runScratch, doc json.RawMessage, fn func(run *pipeRun)) {
	if texts == nil {
		texts = make([]any, len(rec.Attempts))
		for i, a := range rec.Attempts {
			texts[i] = a.Text
		}
	}
	re := x.reextractor()
	if re.skip || len(texts) == 0 {
		return
	}
	generate := false
	for _, fr := range rec.Filters {
		generate = generate || fr.Answers != nil // nil for log-likelihood rows
	}
	if !generate {
		return
	}
	in := lmfilter.Input{Resps: texts}
	if sc != nil {
		sc.memo.Reset()
		sc.arena.Reset()
		in.Memo, in.Arena = &sc.memo, &sc.arena
	} else {
		in.Memo = lmfilter.NewMemo()
	}
	score := re.newScorer(rec.Target)
	own := map[string][]lmfilter.RepeatTrace{} // per-repeat answers by step list
	before := len(rec.Issues)
	defer func() {
		// The summary copied into rec already counts them when the doc
		// was re-extracted before.
		n := countWarnings(rec.Issues[before:])
		if x.countOnce(rec.ID, n) {
			rec.Warnings += n
		}
	}()
	for _, fr := range rec.Filters {
		x.re.mu.Lock()
		p := re.pipeFor(fr.Filter)
		x.re.mu.Unlock()
		if p == nil {
			continue
		}
		if in.Doc == nil && needsDoc(p.p) {
			in.Doc = docOf(rec, doc)
		}
		run := &pipeRun{fr: fr, p: p, sc: score, note: p.note}
		if re.em == nil {
			run.note = joinNote(run.note, re.emNote)
		}
		run.res, run.err = p.p.Run(in)
		re.noteBudget(fr.Filter, run.err)
		if run.err == nil {
			run.ownTraces(in, own)
			if run.hasLog && run.res.Answer != run.logged {
				rec.Issues = append(rec.Issues, re.mismatch(rec.ID, fr, p, run.logged, run.res.Answer))
			} else if is, ok := re.rescore(rec.ID, fr, score); ok {
				rec.Issues = append(rec.Issues, is) // one warning a row: a disputed answer is not re-scored
			}
		}
		fn(run)
	}
}

// mismatch is the warning for a filter whose logged answer re-applying
// pipeline p does not reproduce.
//
// A pipeline guessed from the filter's name (no task config: p.defaulted)
// proves nothing about the row: many tasks name their own regexes
// strict-match or flexible-extract (masakhaner's format_span, the
// llama-style gsm8k variants). Its disagreement is a note, which the deep
// check sums up per filter (defaultMismatches).
func (re *reextractor) mismatch(id string, fr model.FilterResult, p *pipe, logged, answer string) model.Issue {
	if p.defaulted {
		return model.Notef(defaultMismatch, re.path, fr.Line, id,
			"filter %q: the samples log %q but the harness default for its name (%s) gives %q; no task config says which pipeline the run used",
			fr.Filter, clip(logged, 80), p.p.String(), clip(answer, 80))
	}
	return model.Warnf("reextract-mismatch", re.path, fr.Line, id,
		"filter %q: the samples log %q but re-applying its pipeline (%s) gives %q", fr.Filter, clip(logged, 80), p.p.String(), clip(answer, 80))
}

// countWarnings counts the warnings among a doc's re-extraction issues
// (a default pipeline's disagreements are notes, which no summary counts).
func countWarnings(issues []model.Issue) int {
	n := 0
	for _, is := range issues {
		if is.Severity == model.SeverityWarning {
			n++
		}
	}
	return n
}

// defaultMismatch is the code of a row's answer a default pipeline does
// not reproduce (a note, not a finding).
const defaultMismatch = "reextract-default-differs"

func needsDoc(p lmfilter.Pipeline) bool {
	for _, s := range p.Steps {
		if s.Function == "multi_choice_regex" {
			return true
		}
	}
	return false
}

// docOf decodes the doc of the record's first row, for
// multi_choice_regex: raw when given, else the row in rec.Raw[0].
func docOf(rec *model.Record, raw json.RawMessage) map[string]any {
	var doc map[string]any
	if raw != nil {
		_ = json.Unmarshal(raw, &doc)
		return doc
	}
	if len(rec.Raw) == 0 {
		return nil
	}
	_ = jsonl.Skim(rec.Raw[0].JSON, func(f jsonl.Field) error {
		if f.Key == "doc" {
			_ = json.Unmarshal(f.Value, &doc)
		}
		return nil
	})
	return doc
}

// ownTraces sets run.traces (each repeat's own answer, from the run's
// traces or the pipeline without selection steps, shared by pipelines
// with the same per-repeat steps through own) and the logged answer.
func (run *pipeRun) ownTraces(in lmfilter.Input, own map[string][]lmfilter.RepeatTrace) {
	p := run.p
	run.traces = run.res.PerRepeat
	if !p.ownFromTrace {
		if t, ok := own[p.perRepeatKey]; ok {
			run.traces, run.shared = t, true
		} else if r2, err := p.perRepeat.Run(in); err == nil {
			run.traces, run.shared = r2.PerRepeat, true
			own[p.perRepeatKey] = run.traces
		}
	} else {
		own[p.perRepeatKey] = run.traces
		run.shared = true
	}
	if len(run.fr.Answers) == 1 {
		run.logged, run.hasLog = run.fr.Answers[0], true
	}
}

// addExtractions appends the run's extraction to each of rec's attempts.
func (run *pipeRun) addExtractions(rec *model.Record) {
	fr, p, note := run.fr, run.p, run.note
	if run.err != nil {
		msg := "re-extraction failed: " + run.err.Error()
		if errors.Is(run.err, lmfilter.ErrUnsupported) || errors.Is(run.err, lmfilter.ErrBudget) {
			msg = "not re-applied: " + run.err.Error()
		}
		for i := range rec.Attempts {
			rec.Attempts[i].Extractions = append(rec.Attempts[i].Extractions,
				model.Extraction{Filter: fr.Filter, Start: -1, End: -1, Note: joinNote(note, msg)})
		}
		return
	}
	res, traces := run.res, run.traces
	dropNote := joinNote(compare.NotCounted+p.drop, note) // one string for every dropped repeat
	kept := 0
	for _, t := range res.PerRepeat {
		if t.Kept {
			kept++
		}
	}
	for i := range rec.Attempts {
		if i >= len(traces) {
			break
		}
		t := traces[i]
		e := model.Extraction{Filter: fr.Filter, Answer: t.Extracted, Start: -1, End: -1, Note: note, Patterns: p.patterns}
		if t.Matched && t.Span[0] >= 0 {
			e.Start, e.End = t.Span[0], t.Span[1]
		}
		e.Status = run.sc.status(t.Extracted)
		if i < len(res.PerRepeat) && !res.PerRepeat[i].Kept {
			e.Note = dropNote
		} else if run.hasLog && !p.hasVote && kept == 1 {
			// The filter's answer is this repeat's own: the log is its.
			e.Logged, e.Disagrees = run.logged, run.logged != t.Extracted
		}
		rec.Attempts[i].Extractions = append(rec.Attempts[i].Extractions, e)
	}
}

// repeatsRight counts the repeats whose own answer is scored (n) and
// right (c), as compare.RepeatsRight does on the run's extractions.
func (run *pipeRun) repeatsRight(attempts int) (n, c int) {
	if run.err != nil {
		return 0, 0 // failed runs leave every extraction unscored
	}
	for i := 0; i < attempts && i < len(run.traces); i++ {
		n, c = run.sc.tally(n, c, run.traces[i].Extracted)
	}
	return n, c
}

// tally adds answer to n (answers scored) and c (answers right).
func (sc *scorer) tally(n, c int, answer string) (int, int) {
	switch sc.status(answer) {
	case model.StatusPass:
		return n + 1, c + 1
	case model.StatusFail:
		return n + 1, c
	}
	return n, c
}

func joinNote(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
