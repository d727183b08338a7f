package promptfoo

import (
	"encoding/json"
	"strings"
)

// outputFile is what `promptfoo eval -o out.json` writes (OutputFile in
// src/types), in every shape it has had: the summary wrapped as
// {evalId, results, config, shareableUrl, metadata} since June 2023
// (evalId since June 2024, metadata since 2025), and before that, and
// from the node package's evaluate() written as is, the summary itself
// ({version, results, stats, table}).
type outputFile struct {
	EvalID   string          `json:"evalId"`
	Results  json.RawMessage `json:"results"`
	Config   json.RawMessage `json:"config"`
	Metadata *struct {
		PromptfooVersion    string `json:"promptfooVersion"`
		ExportedAt          string `json:"exportedAt"`
		EvaluationCreatedAt string `json:"evaluationCreatedAt"`
		Author              string `json:"author"`
	} `json:"metadata"`
	ShareableURL string `json:"shareableUrl"`
	// Data wraps the whole of a shared eval ({data: {version, createdAt,
	// author, results, config}}, what `promptfoo share` sends).
	Data   json.RawMessage `json:"data"`
	Author string          `json:"author"`

	// The summary's own keys, when the file is the summary itself.
	Version   *int            `json:"version"`
	Timestamp string          `json:"timestamp"`
	Prompts   json.RawMessage `json:"prompts"`
	Stats     json.RawMessage `json:"stats"`
	Table     json.RawMessage `json:"table"`
	// An Eval object written as is (the node package's evaluate() result
	// since October 2024): its id and creation time.
	ID        string          `json:"id"`
	CreatedAt json.RawMessage `json:"createdAt"`
}

// summary is EvaluateSummary: version 3 (October 2024 on: results with
// their indexes, prompts with their metrics), 2 (June 2023 on: a table of
// tests by prompts, whose cells are objects), 1 and none (the table's
// cells are text).
type summary struct {
	Version   int               `json:"version"`
	Timestamp string            `json:"timestamp"`
	Results   []json.RawMessage `json:"results"`
	Prompts   []prompt          `json:"prompts"`
	Table     *table            `json:"table"`
	Stats     *stats            `json:"stats"`
}

// UnmarshalJSON reads a table of either shape: EvaluateTable, or the
// rows of text of spring 2023 (a header of the prompts, then of the var
// names, each row the outputs then the vars' values; with a first
// "RESULT" column when the tests had expectations).
func (t *table) UnmarshalJSON(b []byte) error {
	var rows [][]string
	if json.Unmarshal(b, &rows) != nil {
		type plain table
		return json.Unmarshal(b, (*plain)(t))
	}
	*t = table{}
	if len(rows) == 0 {
		return nil
	}
	head := rows[0]
	first := 0
	if len(head) > 0 && head[0] == "RESULT" {
		first = 1
	}
	// The var columns close the header: their names hold no "{{".
	nv := 0
	for i := len(head) - 1; i >= first && !strings.Contains(head[i], "{{"); i-- {
		nv++
	}
	if nv == len(head)-first {
		nv = 0 // no prompt would be left: take them all for prompts
	}
	np := len(head) - first - nv
	for _, h := range head[first : first+np] {
		t.Head.Prompts = append(t.Head.Prompts, prompt{Raw: h, Display: h, text: true})
	}
	t.Head.Vars = append(t.Head.Vars, head[first+np:]...)
	for _, row := range rows[1:] {
		var r tableRow
		for i := first; i < first+np && i < len(row); i++ {
			txt := row[i]
			if first == 1 && len(row) > 0 {
				txt = "[" + row[0] + "] " + txt
			}
			b, _ := json.Marshal(row[i])
			r.Outputs = append(r.Outputs, tableCell{Text: txt, text: true, raw: b})
		}
		for i := first + np; i < len(row); i++ {
			b, _ := json.Marshal(row[i])
			r.Vars = append(r.Vars, b)
		}
		t.Body = append(t.Body, r)
	}
	return nil
}

// stats is EvaluateStats.
type stats struct {
	Successes  *float64    `json:"successes"`
	Failures   *float64    `json:"failures"`
	Errors     *float64    `json:"errors"`
	TokenUsage *tokenUsage `json:"tokenUsage"`
}

// tokenUsage is TokenUsage, the counts compared.
type tokenUsage struct {
	Total      *float64 `json:"total"`
	Prompt     *float64 `json:"prompt"`
	Completion *float64 `json:"completion"`
	Cached     *float64 `json:"cached"`
}

// prompt is a CompletedPrompt (a column: one prompt on one provider) or a
// Prompt; older tables name a prompt by its text alone.
type prompt struct {
	ID       string         `json:"id"`
	Raw      string         `json:"raw"`
	Label    string         `json:"label"`
	Display  string         `json:"display"`
	Provider string         `json:"provider"`
	Metrics  *promptMetrics `json:"metrics"`
	// text is a table head's prompt when it is a string.
	text bool
}

func (p *prompt) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*p = prompt{Raw: s, Display: s, text: true}
		return nil
	}
	type plain prompt
	return json.Unmarshal(b, (*plain)(p))
}

// name is the prompt's label (display before 2024).
func (p prompt) name() string {
	if p.Label != "" {
		return p.Label
	}
	if p.Display != "" {
		return p.Display
	}
	return p.Raw
}

// promptMetrics is PromptMetrics: sums over the column's results.
type promptMetrics struct {
	Score           *float64           `json:"score"`
	TestPassCount   *float64           `json:"testPassCount"`
	TestFailCount   *float64           `json:"testFailCount"`
	TestErrorCount  *float64           `json:"testErrorCount"`
	AssertPassCount *float64           `json:"assertPassCount"`
	AssertFailCount *float64           `json:"assertFailCount"`
	TotalLatencyMs  *float64           `json:"totalLatencyMs"`
	TokenUsage      *tokenUsage        `json:"tokenUsage"`
	NamedScores     map[string]float64 `json:"namedScores"`
	Cost            *float64           `json:"cost"`
}

// table is EvaluateTable: one row a test, one output a column.
type table struct {
	Head struct {
		Prompts []prompt `json:"prompts"`
		Vars    []string `json:"vars"`
	} `json:"head"`
	Body []tableRow `json:"body"`
}

// tableRow is EvaluateTableRow.
type tableRow struct {
	Description string            `json:"description"`
	Outputs     []tableCell       `json:"outputs"`
	Vars        []json.RawMessage `json:"vars"`
	Test        *testCase         `json:"test"`
	TestIdx     *int              `json:"testIdx"`
}

// tableCell is EvaluateTableOutput, or before version 2 its text alone
// ("[PASS] output").
type tableCell struct {
	Pass          *bool              `json:"pass"`
	Score         *float64           `json:"score"`
	NamedScores   map[string]float64 `json:"namedScores"`
	Text          string             `json:"text"`
	Prompt        string             `json:"prompt"`
	Provider      string             `json:"provider"`
	LatencyMs     *float64           `json:"latencyMs"`
	TokenUsage    *tokenUsage        `json:"tokenUsage"`
	GradingResult *gradingResult     `json:"gradingResult"`
	Cost          *float64           `json:"cost"`
	FailureReason *int               `json:"failureReason"`
	Error         *string            `json:"error"`
	// text is set when the cell is a string.
	text bool
	raw  json.RawMessage
}

func (c *tableCell) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*c = tableCell{Text: s, text: true, raw: append(json.RawMessage(nil), b...)}
		return nil
	}
	type plain tableCell
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	c.raw = append(json.RawMessage(nil), b...)
	return nil
}

// result is EvaluateResult: one test on one prompt and provider.
type result struct {
	ID          string    `json:"id"`
	Description string    `json:"description"`
	PromptIdx   *int      `json:"promptIdx"`
	TestIdx     *int      `json:"testIdx"`
	TestCase    *testCase `json:"testCase"`
	Provider    provider  `json:"provider"`
	Prompt      struct {
		Raw     string `json:"raw"`
		Label   string `json:"label"`
		Display string `json:"display"`
	} `json:"prompt"`
	Vars     map[string]json.RawMessage `json:"vars"`
	Response *response                  `json:"response"`
	// ProviderResponse is the response as the eval database names it
	// (an eval saved from there).
	ProviderResponse *response `json:"providerResponse"`
	Error            *string   `json:"error"`
	FailureReason    *int      `json:"failureReason"`
	// Success is absent from the results of April 2023, which counted
	// a result without an error as a success.
	Success       *bool              `json:"success"`
	Score         *float64           `json:"score"`
	LatencyMs     *float64           `json:"latencyMs"`
	GradingResult *gradingResult     `json:"gradingResult"`
	NamedScores   map[string]float64 `json:"namedScores"`
	Cost          *float64           `json:"cost"`
}

// provider is a result's provider: {id, label}, or an id alone.
type provider struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

func (p *provider) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		p.ID = s
		return nil
	}
	type plain provider
	return json.Unmarshal(b, (*plain)(p))
}

func (p provider) name() string {
	if p.Label != "" {
		return p.Label
	}
	return p.ID
}

// response is ProviderResponse, the fields shown.
type response struct {
	Output       json.RawMessage `json:"output"`
	Error        string          `json:"error"`
	TokenUsage   *tokenUsage     `json:"tokenUsage"`
	Cached       bool            `json:"cached"`
	FinishReason string          `json:"finishReason"`
	Cost         *float64        `json:"cost"`
}

// gradingResult is GradingResult: the verdict of the test's assertions,
// each one's in componentResults.
type gradingResult struct {
	Pass             bool               `json:"pass"`
	Score            *float64           `json:"score"`
	Reason           string             `json:"reason"`
	NamedScores      map[string]float64 `json:"namedScores"`
	TokensUsed       *tokenUsage        `json:"tokensUsed"`
	ComponentResults []gradingResult    `json:"componentResults"`
	Assertion        *assertion         `json:"assertion"`
	Comment          string             `json:"comment"`
}

// assertion is an Assertion, as shown.
type assertion struct {
	Type      string          `json:"type"`
	Value     json.RawMessage `json:"value"`
	Metric    string          `json:"metric"`
	Threshold *float64        `json:"threshold"`
	Weight    *float64        `json:"weight"`
}

// testCase is a (atomic) TestCase, as shown.
type testCase struct {
	Description string                     `json:"description"`
	Vars        map[string]json.RawMessage `json:"vars"`
}

// textOf is a JSON value as text: a string as it is, else compact JSON.
func textOf(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var v any
	if json.Unmarshal(raw, &v) == nil {
		if b, err := json.Marshal(v); err == nil {
			return string(b)
		}
	}
	return strings.TrimSpace(string(raw))
}
