// Package model is evalview's shared view model: one vocabulary for the four
// artifact formats (lm-eval samples, eval run zips, standardized Sample JSONL
// and Prompt Lab testsets), so that every pane and every non-interactive
// command works on every format.
//
// The package holds plain types and pure functions. It does no I/O and
// imports nothing from Charm: loaders fill it, the TUI and commands read it.
package model

import "context"

// Kind names an artifact format. The strings are part of the CLI contract
// (`--as KIND`, the "kind" field of `summary --json`).
type Kind string

// The artifact formats. KindJSONL is no format of its own: JSON Lines
// that no other format claims, opened as plain records.
const (
	KindLMEval  Kind = "lm-eval"
	KindRun     Kind = "run"
	KindSample  Kind = "sample"
	KindTestset Kind = "testset"
	// KindInspect is an Inspect AI log: a .eval zip or a .json log.
	KindInspect Kind = "inspect"
	// KindLighteval is lighteval's per-task details (parquet), with the
	// run's results_<ts>.json when it is found.
	KindLighteval Kind = "lighteval"
	// KindHELM is a HELM run folder (run_spec.json, scenario_state.json,
	// stats.json, per_instance_stats.json), one dataset a run.
	KindHELM Kind = "helm"
	// KindPromptfoo is a promptfoo eval export (-o out.json, out.jsonl),
	// one dataset a prompt and provider.
	KindPromptfoo Kind = "promptfoo"
	// KindOpenCompass is an OpenCompass work folder's dataset of one model:
	// its predictions, results and summary values.
	KindOpenCompass Kind = "opencompass"
	// KindEvalScope is an EvalScope output folder's dataset of one model:
	// its predictions, reviews and report.
	KindEvalScope Kind = "evalscope"
	KindJSONL     Kind = "jsonl"
)

// Fact is one labelled header value ("model", "run id", "date"...). Facts
// are ordered: loaders put the most useful first.
type Fact struct {
	Key   string
	Value string
}

// Metric is a task-level metric as an artifact reports it (an lm-eval
// results file, a run's generation summary). Filter is empty when the
// format has no filters.
type Metric struct {
	Filter    string
	Name      string
	Value     float64
	Stderr    float64
	HasStderr bool
	// HigherIsBetter is nil when the artifact does not say.
	HigherIsBetter *bool
}

// Dataset is one opened artifact: an lm-eval task of one run, a run zip, a
// Sample JSONL file or a testset. Its records are reached through Records so
// that a multi-GB file never has to be parsed whole.
type Dataset struct {
	Kind Kind
	// Path is the file or folder the user opened (for a task of a model
	// folder, the samples file).
	Path string
	// Companions are the other files the dataset was read from (lm-eval:
	// the results file beside the samples), so that nothing writes over
	// them.
	Companions []string
	// Title is a short name for the dataset switcher ("gsm8k 2025-09-09T13:31").
	Title string
	// Task is the lm-eval task name, the run id, or the file's base name.
	Task string
	// Facts are header facts, in display order.
	Facts []Fact
	// Metrics are the values the artifact itself reports.
	Metrics []Metric
	// Filters lists the lm-eval filter names in the order the samples file
	// first shows them; Summary.Outcomes is aligned with it. Other formats
	// leave it empty.
	Filters []string
	// MainMetric names the metric the list shows (lm-eval: "exact_match",
	// "acc"...; run: "weighted_score").
	MainMetric string
	// StatusBasis says what a record's ✓ and ✗ are against when it is not
	// the target: an lm-eval task scored by its own process_results
	// ("the task's own process_results"); "" for the target.
	StatusBasis string
	// Issues are validation issues of the dataset as a whole (a missing
	// results file, a count that disagrees). Per-record issues live on
	// records and are counted in their summaries.
	Issues []Issue
	// Records is the index of records.
	Records Index
	// MetricRules say how the writer aggregates each metric over the
	// rows (lm-eval: the task config's metric_list), for RecomputeMetrics;
	// a metric without a rule is a mean, or the harness's default for its
	// name (DefaultAggregation).
	MetricRules []MetricRule
	// Recomputed are reported metrics (Metrics) that the loader
	// recomputed itself, the writer's way, where the records' rows give
	// nothing to aggregate (a run's scores_map.json global_mean, from its
	// score files); RecomputeMetrics puts them beside the reported ones.
	Recomputed []MetricComparison
	// Groups are the writer's group aggregates recomputed from their
	// subtasks' reported values (lm-eval groups such as mmlu), for the
	// groups this dataset's task belongs to.
	Groups []GroupComparison
	// Scoring, when set, says the records are scored on a judge's scale
	// with a pass threshold (run zips); see Scoring.
	Scoring *Scoring
	// Presentation says how the browser shows the dataset; the loader
	// fills it (see Presentation).
	Presentation Presentation
	// Deep, when set, runs the dataset's full check: a pass over every
	// record for what indexing does not learn (lm-eval: the filter
	// pipelines re-applied to every repeat). It may take as long as reading
	// every record; it honours ctx and reports progress (records done of
	// total). `check` and `summary` run it; the browser runs it in the
	// background.
	Deep func(ctx context.Context, progress func(done, total int)) (*DeepReport, error)
	// Origin says which task, model and run the dataset is (OriginOf
	// fills what the loader left empty), for the views that line
	// datasets up: the overview, `summary --format`, the header.
	Origin Origin
	// Tasks are the tasks a dataset reports without samples (an lm-eval
	// results file alone), one per record; nil for the others.
	Tasks []TaskReport
}

// DeepReport is what a dataset's full check found.
type DeepReport struct {
	// Issues are per-record issues the index did not report (Issue.Record
	// names the record; Line the line when known).
	Issues []Issue
	// Flagged lists the record indexes the issues are about, ascending,
	// each once.
	Flagged []int
	// PassAtK is, per filter, the unbiased pass@k estimate for each k the
	// repeats allow (k=1 always), when records have more than one repeat.
	PassAtK map[string]map[int]float64
	// Repeats is the number of repeats per record (the most seen).
	Repeats int
	// Reextracted counts the filter rows (a record under one filter)
	// whose pipeline the pass re-applied; 0 when it re-extracted nothing
	// (a multiple-choice task, one scored by its own code, filters it
	// cannot run), so that no view says the logged answers agree with a
	// re-extraction that did not happen.
	Reextracted int
}

// RawSearcher is implemented by indexes that can look for text in their
// source bytes much faster than loading every record (a 1 GB lm-eval file
// at disk speed). SearchRaw calls hit once with each record index whose
// source holds needle, as soon as it finds it (callers sort the hits);
// matching is on the text as the source spells it, case-insensitive when
// fold is set. On an index still growing it follows the index rather than
// wait for it. It stops early when ctx is cancelled, returning ctx.Err().
type RawSearcher interface {
	SearchRaw(ctx context.Context, needle string, fold bool, hit func(record int)) error
}

// Index gives access to a dataset's records without holding them all. Len
// and Summary are cheap; Record may read and parse from disk.
//
// An index may still be growing while a background scan runs: Len then
// reports the records known so far, and Done reports false.
type Index interface {
	Len() int
	Summary(i int) Summary
	Record(i int) (*Record, error)
	// Done reports whether the index is complete (all records known).
	Done() bool
}

// Stopper is implemented by indexes with background work (a scan still
// reading a big file). Stop ends that work early; what the index holds
// stays readable. A caller that drops an index for a new one (a reload)
// stops it, so the old scan does not compete with the new for the cores.
type Stopper interface {
	Stop()
}

// MemIndex is an Index over records held in memory, for small artifacts
// and tests.
type MemIndex struct {
	Recs []*Record
}

// NewMemIndex returns an index over recs, whose summaries must already be
// filled in.
func NewMemIndex(recs []*Record) *MemIndex { return &MemIndex{Recs: recs} }

// Len returns the number of records.
func (m *MemIndex) Len() int { return len(m.Recs) }

// Summary returns the list row of record i.
func (m *MemIndex) Summary(i int) Summary { return m.Recs[i].Summary }

// Record returns record i.
func (m *MemIndex) Record(i int) (*Record, error) { return m.Recs[i], nil }

// Done is always true: a MemIndex is complete when built.
func (m *MemIndex) Done() bool { return true }

// AllIssues returns the dataset's own issues followed by every record's
// issues, in record order. It loads every record, so it is meant for
// non-interactive commands and tests.
func (d *Dataset) AllIssues() ([]Issue, error) {
	out := append([]Issue(nil), d.Issues...)
	for i := 0; i < d.Records.Len(); i++ {
		r, err := d.Records.Record(i)
		if err != nil {
			return out, err
		}
		out = append(out, r.Issues...)
	}
	return out, nil
}

// FilterIndex returns the position of filter name in d.Filters, or -1.
func (d *Dataset) FilterIndex(name string) int {
	for i, f := range d.Filters {
		if f == name {
			return i
		}
	}
	return -1
}

// Fact returns the value of the first fact with the given key, or "".
func (d *Dataset) Fact(key string) string {
	for _, f := range d.Facts {
		if f.Key == key {
			return f.Value
		}
	}
	return ""
}
