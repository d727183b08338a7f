package inspect

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"evalview/loaders/internal/nonfinite"
	"evalview/loaders/jsonl"
)

// The shapes below follow inspect_ai/log/_log.py (EvalLog, EvalSpec,
// EvalResults, EvalScore, EvalMetric, EvalSampleSummary,
// EvalSampleReductions) and scorer/_metric.py (Score). Fields the view does
// not use are left out; unknown fields are ignored, as pydantic ignores
// them. Every file is decoded after nonfinite.Sanitize, so NaN and
// Infinity literals arrive as marker strings inside json.RawMessage.

// logHeader is header.json, or _journal/start.json of a running log
// (which has only version, eval and plan).
type logHeader struct {
	Version int          `json:"version"`
	Status  string       `json:"status"`
	Eval    evalSpec     `json:"eval"`
	Plan    evalPlan     `json:"plan"`
	Results *evalResults `json:"results"`
	Stats   evalStats    `json:"stats"`
	Error   *evalError   `json:"error"`
	// Invalidated is set when samples were invalidated after the run.
	Invalidated bool `json:"invalidated"`
}

type evalSpec struct {
	EvalID      string          `json:"eval_id"`
	RunID       string          `json:"run_id"`
	Created     string          `json:"created"`
	Task        string          `json:"task"`
	TaskVersion json.RawMessage `json:"task_version"`
	TaskFile    string          `json:"task_file"`
	DisplayName string          `json:"task_display_name"`
	Solver      string          `json:"solver"`
	Tags        []string        `json:"tags"`
	Dataset     struct {
		Name     string            `json:"name"`
		Location string            `json:"location"`
		Samples  *int              `json:"samples"`
		IDs      []json.RawMessage `json:"sample_ids"`
	} `json:"dataset"`
	Model string `json:"model"`
	// ModelArgs, ModelGenerateConfig, TaskArgs and SolverArgs are the
	// run's settings (originConfig), kept raw to keep their order.
	ModelArgs           json.RawMessage `json:"model_args"`
	ModelGenerateConfig json.RawMessage `json:"model_generate_config"`
	TaskArgs            json.RawMessage `json:"task_args"`
	SolverArgs          json.RawMessage `json:"solver_args"`
	Config              struct {
		Limit         json.RawMessage `json:"limit"`
		Epochs        *int            `json:"epochs"`
		EpochsReducer []string        `json:"epochs_reducer"`
		MessageLimit  json.RawMessage `json:"message_limit"`
		TokenLimit    json.RawMessage `json:"token_limit"`
	} `json:"config"`
	Packages map[string]string `json:"packages"`
}

type evalPlan struct {
	Steps []struct {
		Solver string `json:"solver"`
	} `json:"steps"`
}

type evalResults struct {
	TotalSamples     int         `json:"total_samples"`
	CompletedSamples int         `json:"completed_samples"`
	Scores           []evalScore `json:"scores"`
	// Scorer and Metrics are the pre-0.3 single-scorer shape that
	// EvalResults.convert_scorer_to_scorers migrates.
	Scorer  *evalScore      `json:"scorer"`
	Metrics json.RawMessage `json:"metrics"`
}

type evalScore struct {
	Name     string  `json:"name"`
	Scorer   string  `json:"scorer"`
	Reducer  *string `json:"reducer"`
	Scored   *int    `json:"scored_samples"`
	Unscored *int    `json:"unscored_samples"`
	// Metrics is an object of EvalMetric by key, kept raw to keep the
	// order the writer gave (accuracy before stderr).
	Metrics json.RawMessage `json:"metrics"`
}

type evalMetric struct {
	Name  string          `json:"name"`
	Group string          `json:"group"`
	Value json.RawMessage `json:"value"`
	// Params are the metric's arguments (stderr's cluster, a custom
	// to_float); a metric with any is not recomputed.
	Params map[string]json.RawMessage `json:"params"`
}

type evalStats struct {
	StartedAt   string                `json:"started_at"`
	CompletedAt string                `json:"completed_at"`
	ModelUsage  map[string]modelUsage `json:"model_usage"`
}

type modelUsage struct {
	Input  int64 `json:"input_tokens"`
	Output int64 `json:"output_tokens"`
	Total  int64 `json:"total_tokens"`
}

type evalError struct {
	Message   string `json:"message"`
	Traceback string `json:"traceback"`
}

// sampleSummary is one entry of summaries.json or of a journal file.
type sampleSummary struct {
	ID       json.RawMessage `json:"id"`
	Epoch    int             `json:"epoch"`
	Input    json.RawMessage `json:"input"`
	Choices  []string        `json:"choices"`
	Target   json.RawMessage `json:"target"`
	Metadata json.RawMessage `json:"metadata"`
	// Scores is an object of Score by scorer name, raw to keep its order.
	Scores       json.RawMessage `json:"scores"`
	Error        string          `json:"error"`
	Limit        string          `json:"limit"`
	Retries      *int            `json:"retries"`
	Completed    *bool           `json:"completed"`
	MessageCount *int            `json:"message_count"`
	TotalTime    *float64        `json:"total_time"`
	WorkingTime  *float64        `json:"working_time"`
	UUID         string          `json:"uuid"`
	// raw is the summary as written (parseSummary), for the Raw tab.
	raw json.RawMessage
	// scored caches scoresOf(Scores): a record's row reads the scores of
	// each epoch once per view and again for its reduction.
	scored []namedScore
	parsed bool
}

// scores returns the summary's scores in the writer's order.
func (s *sampleSummary) scores() []namedScore {
	if !s.parsed {
		s.scored, s.parsed = scoresOf(s.Scores), true
	}
	return s.scored
}

// score is inspect_ai.scorer.Score.
type score struct {
	Value       json.RawMessage `json:"value"`
	Answer      *string         `json:"answer"`
	Explanation *string         `json:"explanation"`
	Metadata    json.RawMessage `json:"metadata"`
}

// reduction is one entry of reductions.json (EvalSampleReductions).
type reduction struct {
	Scorer  string  `json:"scorer"`
	Reducer *string `json:"reducer"`
	Samples []struct {
		score
		SampleID json.RawMessage `json:"sample_id"`
	} `json:"samples"`
}

// namedScore is a score with its scorer's name, in the writer's order.
type namedScore struct {
	Name string
	score
}

// kv is one key of a JSON object with its raw value.
type kv = jsonl.Member

// objectKeys returns an object's keys and values in the order written
// (encoding/json maps lose it); a key given twice keeps its first place
// and its last value, as Python's json reads it. Not an object: nil.
func objectKeys(raw json.RawMessage) []kv {
	obj, _ := jsonl.ParseObject(raw)
	return obj.Members
}

// scoresOf decodes a scores object in order.
func scoresOf(raw json.RawMessage) []namedScore {
	var out []namedScore
	for _, e := range objectKeys(raw) {
		var s score
		if json.Unmarshal(e.Value, &s) == nil {
			out = append(out, namedScore{Name: e.Key, score: s})
		}
	}
	return out
}

// idText renders a sample id (an int or a string) as the list shows it.
func idText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(bytes.TrimSpace(raw))
}

// memberID renders a sample id as Inspect spells it in member names
// (f"{id}_epoch_{epoch}"): Python's str() of an int or a string.
func memberID(raw json.RawMessage) string { return idText(raw) }

// valueText renders a score value as the writer gave it: "C", 0.5, NaN,
// [1, 0], {"a": 1}.
func valueText(raw json.RawMessage) string {
	if f, ok := nonfinite.Float(raw); ok {
		return nonfinite.Literal(f)
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(nonfinite.Restore(compactJSON(raw)))
}

func compactJSON(raw []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// isUnscored reports the NaN-at-root sentinel (Score.unscored()).
func isUnscored(raw json.RawMessage) bool {
	f, ok := nonfinite.Float(raw)
	return ok && math.IsNaN(f)
}

// isScalar reports a str, int, float or bool value.
func isScalar(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	switch raw[0] {
	case '{', '[', 'n':
		return false
	}
	return true
}

// toFloat is value_to_float() with its defaults (scorer/_metric.py): numbers
// and booleans as floats, "C" 1, "P" 0.5, "I" and "N" 0, yes/true 1, no/false
// 0, a numeric string its number; anything else 0 with ok false, where
// Inspect logs "Unable to convert value to float" and uses 0.
func toFloat(raw json.RawMessage) (float64, bool) {
	if f, ok := nonfinite.Float(raw); ok {
		return f, true
	}
	raw = bytes.TrimSpace(raw)
	switch string(raw) {
	case "true":
		return 1, true
	case "false":
		return 0, true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return 0, false
	}
	switch s {
	case "C":
		return 1, true
	case "P":
		return 0.5, true
	case "I", "N":
		return 0, true
	}
	switch strings.ToLower(s) {
	case "yes", "true":
		return 1, true
	case "no", "false":
		return 0, true
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
		return f, true
	}
	return 0, false
}

// jsonSyntaxError is the error encoding/json gives for malformed data,
// with its byte offset.
type jsonSyntaxError = json.SyntaxError
