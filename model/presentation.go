package model

import (
	"encoding/json"
	"strconv"
)

// Presentation says how the browser shows a format's datasets: what it
// would otherwise have to decide by format. The loader fills it; the zero
// value shows a dataset plainly (id, title and score columns, the usual
// tabs, markdown text, the record itself as every copy path), so a new
// format browses before it describes anything.
type Presentation struct {
	// Columns are the list's default columns: query fields (model/query)
	// in order, the title taking the free width. A field the records do
	// not have is left out. Nil: id, title, score.
	Columns []string
	// ColumnHeads names columns by something other than their field
	// ("title": "question"); the score column is named after MainMetric.
	ColumnHeads map[string]string
	// ColumnRanks overrides how long a column stays in a narrow list:
	// higher stays longer (the id and the score always stay, other fields
	// rank 25 to 70).
	ColumnRanks map[string]int
	// Tabs are the detail's first tabs, in order, each shown when the
	// record has content for it; section tabs follow in the order the
	// record names them, then Raw and Issues. Nil: DefaultTabs.
	Tabs []DetailTab
	// Attempts is how the Responses tab lays attempts out and names them.
	Attempts AttemptsLayout
	// AttemptScore is what an attempt's score (Attempt.Weighted) is
	// called in its heading: "weighted" for a run's weighted score; ""
	// says "score".
	AttemptScore string
	// RawText shows message and response text raw until the user asks
	// for markdown (m): lm-eval output is math and chains of thought,
	// where `*`, `_` and `\` are arithmetic and LaTeX, not emphasis.
	RawText bool
	// CompareByFlips compares two runs (C) by the records whose
	// right/wrong changed, with a 2x2 table, rather than by score change.
	CompareByFlips bool
	// IDsPerTask says the records' ids are numbered per task (lm-eval
	// doc ids, lighteval rows, Inspect sample ids: gsm8k's doc 1 and
	// arc_easy's doc 1 are unrelated questions), so two datasets pair
	// record by record (C) only when they are of the same task.
	IDsPerTask bool
	// NoMetrics is what the header's metrics line says when nothing is
	// reported; "" says "no metrics reported".
	NoMetrics string
	// FieldLabels tells that a label whose value is "" on a record holds
	// no value of its own: the record's field of that name (Record.Fields)
	// is too long or not one line to be a label (plain JSON Lines), and
	// a query on it reads the record (model/query).
	FieldLabels bool
	// QueryHint names the query fields worth knowing for this format in
	// the help (`category=… errored=yes`); "" shows none.
	QueryHint string
	// Header, when set, replaces the header's fact lines and metrics with
	// a compact summary; the facts sheet (i) then lists every fact.
	Header *Header
	// Paths locate a record's parts in its source, for the copy-path key.
	Paths SourcePaths
}

// TabContent is what a detail tab shows of a record.
type TabContent int

// Tab contents, in the order DefaultTabs shows them.
const (
	// TabConversation shows the messages, options, references and the
	// target (when there are no filters to show it beside).
	TabConversation TabContent = iota
	// TabAttempts shows the attempts (responses, repeats, predictions).
	TabAttempts
	// TabFilterResults shows lm-eval's filters: each one's answer and
	// metrics.
	TabFilterResults
	// TabFields shows the record's source fields.
	TabFields
	// TabSections shows only the sections that name the tab.
	TabSections
	// TabRaw shows the source JSON; every record with a source has it,
	// after the others.
	TabRaw
	// TabIssues shows the validation issues, last.
	TabIssues
)

// DetailTab is a tab of the detail pane: what it shows and its name in
// the tab bar. Sections whose Tab is the name are shown in it too.
type DetailTab struct {
	Content TabContent
	Name    string
	// Dense packs the sections' facts on shared lines without blank
	// lines between sections, so that a whole case (a testset's inputs,
	// steps, batch and expectations) reads on one screen.
	Dense bool
}

// DefaultTabs are the detail's first tabs when a format names none.
var DefaultTabs = []DetailTab{
	{Content: TabConversation, Name: "Prompt"}, {Content: TabAttempts, Name: "Responses"},
	{Content: TabFilterResults, Name: "Filters"}, {Content: TabFields, Name: "Fields"},
}

// AttemptsLayout is how the Responses tab lays a record's attempts out.
type AttemptsLayout int

const (
	// AttemptsNumbered writes each attempt as a numbered block ("#2 of
	// 3"): its scores, error, text, judge note and facts.
	AttemptsNumbered AttemptsLayout = iota
	// AttemptsTranscripts writes each attempt as a chat transcript named
	// after its 0-based Index ("prediction #1"), with its own tool calls
	// and verdict, then the record's expected answers (Sample JSONL).
	AttemptsTranscripts
)

// Name is how the Responses tab and the copy keys name attempt a, at
// position pos of its record: "#2" (Index when the source numbers
// attempts from 1, else the position) or "prediction #1".
func (l AttemptsLayout) Name(pos int, a Attempt) string {
	switch {
	case l == AttemptsTranscripts:
		return "prediction #" + strconv.Itoa(a.Index+1)
	case a.Index > 0:
		return "#" + strconv.Itoa(a.Index)
	}
	return "#" + strconv.Itoa(pos+1)
}

// Header is a compact header (run zips): facts made into short items,
// and a line of figures where other formats show their metrics.
type Header struct {
	// Status is the first item (the run's state), and starts the figures
	// line when the header has room for no fact line.
	Status Item
	// Items are the facts as the header shows them, most useful first,
	// packed on the fact lines.
	Items []Item
	// Hidden counts the facts no item shows (the header says
	// "+N more (i)").
	Hidden int
	// Groups follow the scores on the figures line ("completed 20/40 ·
	// attempts 101/200", "creation 3/5 · career 4/7"): items joined by
	// " · ", groups by " │ ".
	Groups [][]Item
	// FactsTitle heads the facts sheet (i); MetricsTitle heads the
	// reported metrics there ("generation summary").
	FactsTitle, MetricsTitle string
}

// Item is one entry of a compact header: spans drawn side by side.
type Item []Span

// Span is a piece of header text and its tone. Text is raw artifact text:
// the browser sanitizes it.
type Span struct {
	Text string
	Tone Tone
}

// Tone says how the browser draws a span.
type Tone int

const (
	// ToneValue is a fact's value.
	ToneValue Tone = iota
	// ToneKey is a fact's name.
	ToneKey
	// ToneLabel is a figure's name ("mean", "completed").
	ToneLabel
	// ToneMuted is a separator or an aside.
	ToneMuted
	// ToneDone is a state that ended well ("completed").
	ToneDone
	// ToneFailed is a state that went wrong ("error", "partial").
	ToneFailed
	// TonePending is a state still moving ("running", "pending").
	TonePending
	// ToneUnknown is any other state.
	ToneUnknown
)

// SourcePaths locate a record's parts in its source JSON as jq-style
// paths, for the copy-path key (Y); a run's paths start with the file
// they are in ("samples/3.json: .attempts[0].response"). A nil function,
// or "", means the whole record (".").
type SourcePaths struct {
	// Message is the path of message i's text.
	Message func(rec *Record, i int) string
	// Attempt is the path of the text of the attempt at position i.
	Attempt func(rec *Record, i int) string
	// FilterAnswer is the path of a filter's extracted answer.
	FilterAnswer func(rec *Record, filter string) string
	// Field is the path of the source field called name.
	Field func(rec *Record, name string) string
}

// orWhole is p, or "." (the whole record) when p is empty.
func orWhole(p string) string {
	if p == "" {
		return "."
	}
	return p
}

// MessagePath is Message's path for rec, or ".".
func (p SourcePaths) MessagePath(rec *Record, i int) string {
	if p.Message == nil {
		return "."
	}
	return orWhole(p.Message(rec, i))
}

// AttemptPath is Attempt's path for rec, or ".".
func (p SourcePaths) AttemptPath(rec *Record, i int) string {
	if p.Attempt == nil {
		return "."
	}
	return orWhole(p.Attempt(rec, i))
}

// FilterAnswerPath is FilterAnswer's path for rec, or ".".
func (p SourcePaths) FilterAnswerPath(rec *Record, filter string) string {
	if p.FilterAnswer == nil {
		return "."
	}
	return orWhole(p.FilterAnswer(rec, filter))
}

// FieldPath is Field's path for rec, or ".".
func (p SourcePaths) FieldPath(rec *Record, name string) string {
	if p.Field == nil {
		return "."
	}
	return orWhole(p.Field(rec, name))
}

// PathKey writes an object key for a jq path: bare when it is an
// identifier, else quoted.
func PathKey(k string) string {
	for i, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			b, _ := json.Marshal(k)
			return string(b)
		}
	}
	if k == "" {
		return `""`
	}
	return k
}
