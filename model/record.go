package model

// Status is the outcome of a record or an attempt. One byte: an index
// holds one in every outcome (430,000 at 600 files).
type Status uint8

// Statuses, from "nothing known" to "broke". The zero value is Unscored.
const (
	StatusUnscored Status = iota
	StatusPass
	StatusFail
	StatusError
)

// String returns the status as the CLI prints it ("pass", "fail", "error",
// "unscored"); these strings are part of the export contract.
func (s Status) String() string {
	switch s {
	case StatusPass:
		return "pass"
	case StatusFail:
		return "fail"
	case StatusError:
		return "error"
	default:
		return "unscored"
	}
}

// ParseStatus is the inverse of Status.String; ok is false for unknown text.
func ParseStatus(s string) (Status, bool) {
	switch s {
	case "pass":
		return StatusPass, true
	case "fail":
		return StatusFail, true
	case "error":
		return StatusError, true
	case "unscored":
		return StatusUnscored, true
	}
	return StatusUnscored, false
}

// Outcome is a record's result under one lm-eval filter, kept in the
// summary so the list can switch filters and compare them without loading
// records.
type Outcome struct {
	// Answer is the filtered response as text ("18", "[invalid]", or a
	// rendering of log-likelihood pairs).
	Answer string
	// Score is the main metric's value for the row.
	Score float64
	// Metrics are all metric values of the row, main metric included.
	// Indexes share one list between the rows with the same values:
	// change none in place.
	Metrics []MetricValue
	// values are the row's metric values that are not one number (see
	// Values); a pointer, as most rows have none.
	values *[]RowValue
	// Status is pass or fail against the main metric, unscored without one.
	Status Status
	// Present is false when the samples hold no row of this doc for the
	// filter (a trimmed file).
	Present  bool
	HasScore bool
	// (The struct takes 64 bytes: an index holds one per record and
	// filter, 430,000 of them at 600 files. With the values as a slice
	// and an int status it took 88.)
}

// Values are the row's metric values that are not one number (lm-eval
// f1's [gold, pred], a perplexity's [loglikelihood, words], ifeval's
// per-instruction list): the writer aggregates them over the corpus.
func (o Outcome) Values() []RowValue {
	if o.values == nil {
		return nil
	}
	return *o.values
}

// SetValues sets the row's values (Values); none leaves no pointer.
func (o *Outcome) SetValues(vs []RowValue) {
	if len(vs) == 0 {
		o.values = nil
		return
	}
	o.values = &vs
}

// RowValue is a metric value of one row that is not one number, kept so
// that the aggregation over the rows can be recomputed as the writer did.
type RowValue struct {
	Name string
	// Nums are the value's numbers when it is a list of numbers or
	// booleans (true is 1): [loglikelihood, weight], [true, false, ...].
	Nums []float64
	// Labels are the two labels of a [gold, pred] pair as text (ints as
	// written, strings unquoted), for classification metrics.
	Labels []string
	// Text is the value's JSON, clipped, for display.
	Text string
}

// Summary is one row of the record list: cheap to hold for every record.
type Summary struct {
	// ID identifies the record in its dataset (doc_id, sample_index, id).
	ID string
	// Title is the first line of the question or prompt.
	Title string
	// Status and Score are the record's overall outcome. For lm-eval they
	// are those of the dataset's first filter; panes use Outcomes to show
	// another filter.
	Status   Status
	Score    float64
	HasScore bool
	// Labels are facet values by field name ("category": "math",
	// "task_type": "qa"), used for grouping, queries and facets.
	Labels Labels
	// Tags are free tags (testset tags, data tags).
	Tags []string
	// Outcomes is aligned with Dataset.Filters (lm-eval only).
	Outcomes []Outcome
	// Attempts counts the record's attempts (repeats, predictions);
	// AttemptsWanted is how many were planned (0 when unknown);
	// ScoredAttempts counts attempts that carry a score.
	Attempts       int
	AttemptsWanted int
	ScoredAttempts int
	// Errors and Warnings count the record's validation issues.
	Errors   int
	Warnings int
	// Line is the 1-based line in Dataset.Path where the record starts, when
	// the format is line-based; 0 otherwise.
	Line int
}

// Outcome returns the record's outcome under filter index fi, falling back
// to the record's own status when fi is out of range.
func (s Summary) Outcome(fi int) Outcome {
	if fi >= 0 && fi < len(s.Outcomes) {
		return s.Outcomes[fi]
	}
	return Outcome{Present: true, Status: s.Status, Score: s.Score, HasScore: s.HasScore}
}

// Record is the full detail of one record.
type Record struct {
	Summary
	// Messages is the conversation: the prompt as chat turns, few-shot
	// examples first (marked FewShot).
	Messages []Message
	// Options are multiple-choice options, when the format has them.
	Options []Option
	// References are the expected answers; Target is the single target
	// text where the format has one (lm-eval `target`, Sample `label`).
	References []string
	Target     string
	// Attempts are the model's answers: lm-eval repeats, run attempts,
	// Sample predict_result entries.
	Attempts []Attempt
	// Filters are lm-eval filter rows, in Dataset.Filters order.
	Filters []FilterResult
	// Fields are the record's source fields worth listing (lm-eval `doc`,
	// testset inputs), values rendered as text (JSON for non-strings).
	Fields []Field
	// Sections hold what has no better home: testset steps and batch
	// items, Sample tools and sandbox, eval results, generation params.
	Sections []Section
	// Raw holds the record's source JSON, one part per source object (an
	// lm-eval doc has one row per filter).
	Raw []RawPart
	// Issues are this record's validation issues.
	Issues []Issue
	// FullTitle is the title whole where the loader cut Title for the list
	// (a testset's title from a 47 KB input); "" when Title is whole.
	// Export writes it.
	FullTitle string
}

// Field is one named value of the record's source data.
type Field struct {
	Name string
	// Value is the text of a string, or compact JSON of anything else.
	Value string
	// IsJSON is true when Value is JSON rather than a plain string.
	IsJSON bool
}

// RawPart is one source JSON object of a record, with where it came from.
type RawPart struct {
	Label string // "filter strict-match", "samples/3.json"
	File  string
	Line  int
	JSON  []byte
	// Omitted counts the bytes at the end of the part that JSON leaves
	// out (a loader reads only the head of a very long part that the
	// record's content does not need); Full, set then, reads the whole
	// part on request.
	Omitted int
	Full    func() ([]byte, error)
}

// Whole returns the part's whole JSON: JSON itself, or what Full reads
// when the part is only a head.
func (p RawPart) Whole() ([]byte, error) {
	if p.Omitted == 0 || p.Full == nil {
		return p.JSON, nil
	}
	return p.Full()
}

// Option is a multiple-choice option.
type Option struct {
	ID   string
	Text string
	// Correct marks the option the references point to.
	Correct bool
}

// Role is the speaker of a message. Known roles are constants; formats may
// carry others, which panes show as-is.
type Role string

// Known message roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one turn of a conversation.
type Message struct {
	Role Role
	Name string
	// Segments hold the content in order; a plain string content is one
	// text segment.
	Segments []Segment
	// FewShot marks messages that are few-shot examples, not the question.
	FewShot bool
	// ToolCallID is set on tool messages: the call they answer.
	ToolCallID string
	// Label is an optional note shown beside the role ("context",
	// "continuation", "golden trajectory 1").
	Label string
}

// Text returns the concatenated text segments of the message.
func (m Message) Text() string {
	var out string
	for _, s := range m.Segments {
		if s.Type == SegText {
			if out != "" {
				out += "\n"
			}
			out += s.Text
		}
	}
	return out
}

// SegmentType is the type of a message segment.
type SegmentType int

// Segment types.
const (
	SegText SegmentType = iota
	SegImage
	SegAudio
	SegVideo
	SegFile
	SegToolCall
	SegToolResult
)

// String returns the segment type as a short label.
func (k SegmentType) String() string {
	switch k {
	case SegImage:
		return "image"
	case SegAudio:
		return "audio"
	case SegVideo:
		return "video"
	case SegFile:
		return "file"
	case SegToolCall:
		return "tool call"
	case SegToolResult:
		return "tool result"
	default:
		return "text"
	}
}

// Segment is one typed piece of message content.
type Segment struct {
	Type SegmentType
	// Text is the text of a text segment or a tool result.
	Text string
	// URL is the reference of a media segment as written; Resolved is the
	// local path it resolves to ("" for remote URLs); Exists tells whether
	// that path exists (nil when not checked).
	URL      string
	Resolved string
	Exists   *bool
	// ToolName, ToolCallID and Arguments describe a tool call; Arguments is
	// the JSON text as given.
	ToolName   string
	ToolCallID string
	Arguments  string
	// Meta holds a segment's further attributes as written (an image's
	// detail, an audio's format, a file's name), shown beside its label.
	Meta []Fact
}

// Score is one named score dimension of an attempt ("relevance": 8 of 10).
type Score struct {
	Name  string
	Value float64
	// Max is the top of the scale, 0 when unknown.
	Max float64
}

// Attempt is one answer of the model to the record's prompt.
type Attempt struct {
	// Index is the attempt number as the artifact numbers it (1-based for
	// run attempts, 0-based repeat index for lm-eval shown as #1...).
	Index int
	Text  string
	// NoText says why Text is absent when the artifact does not hold the
	// response at all ("not in this run: no sample file has sample_index
	// 3", for a run's score without its sample), as opposed to a response
	// that is empty; "" when Text is the artifact's own.
	NoText string
	// Status is the attempt's own outcome (run: ok/error; Sample: judged).
	Status Status
	// StatusText is the artifact's own status word, when it has one.
	StatusText string
	// DurationMS is the generation time in milliseconds, 0 when unknown.
	DurationMS float64
	// Error fields describe a failed attempt.
	ErrorType string
	Error     string
	ErrorBody string
	// Scores are per-dimension scores; Weighted is the combined score.
	Scores      []Score
	Weighted    float64
	HasWeighted bool
	// Judge is the judge's note or reason.
	Judge string
	// Facts are further labelled values (token usage, latency, model).
	Facts []Fact
	// Raw is extra source JSON shown folded (Sample raw_response).
	Raw string
	// Extractions are evalview's own re-application of the task's filter
	// pipelines to this attempt (lm-eval), one per filter.
	Extractions []Extraction
	// Messages is the attempt's own thread when it is more than one text
	// (an agent's predict_result with tool calls and results); Text then
	// holds the final answer, as in a plain attempt.
	Messages []Message
}

// Extraction is what one filter pipeline extracts from one attempt when
// evalview re-applies it.
type Extraction struct {
	Filter string
	// Answer is the extracted answer ("[invalid]" when nothing matched,
	// as the harness writes it).
	Answer string
	// Start and End are the byte range of the regex match in Attempt.Text
	// that gave the answer; both -1 when nothing matched or the pipeline
	// has no regex.
	Start, End int
	// Status is pass or fail against the target, unscored when unknown.
	Status Status
	// Logged is the answer the artifact logged for this filter and
	// attempt, when it logs one; Disagrees reports Logged != Answer.
	Logged    string
	Disagrees bool
	// Note says how the pipeline was chosen or why it could not run
	// ("harness default for gsm8k: no filter_list in the results file").
	Note string
	// Patterns are the regexes the pipeline matched with, in step order
	// (none for a pipeline without a regex step).
	Patterns []string
}

// MetricValue is one metric's value on one filter row.
type MetricValue struct {
	Name  string
	Value float64
}

// FilterResult is one lm-eval filter row of a doc.
type FilterResult struct {
	Filter string
	// Answer is the filtered response as text; Answers keeps every element
	// of filtered_resps (normally one).
	Answer  string
	Answers []string
	Metrics []MetricValue
	// Values are the row's metric values that are not one number (see
	// Outcome.Values).
	Values []RowValue
	// Status is pass/fail against the main metric.
	Status Status
	// Compared, set by a loader for a task scored by its own code
	// (leaderboard_math, ifeval), is what that code compared, shown in
	// the Filters tab in place of the filtered response, which such a
	// task reads whole: leaderboard_math's extracted and normalised
	// answer, or a statement that it is not reproduced. The record's
	// sections in that tab say how. "" shows the answer.
	Compared string
	// Line is the 1-based line of the row in the samples file.
	Line int
}

// Metric returns the value of metric name on the row.
func (f FilterResult) Metric(name string) (float64, bool) {
	for _, m := range f.Metrics {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}

// SectionType tells panes how to render a Section.
type SectionType int

// Section types.
const (
	SectionText SectionType = iota
	SectionJSON
	SectionTable
	SectionFacts
	SectionMessages
)

// Section is a titled block of record detail with no better home: testset
// steps, Sample tools or eval_result, run judge notes.
type Section struct {
	Title string
	Type  SectionType
	// Tab groups sections into a detail tab ("Steps", "Tools"); empty puts
	// it in the generic "Details" tab.
	Tab      string
	Text     string
	JSON     string
	Table    *Table
	Facts    []Fact
	Messages []Message
	// Folded sections render collapsed until opened.
	Folded bool
}

// Table is a simple text table.
type Table struct {
	Columns []string
	Rows    [][]string
}
