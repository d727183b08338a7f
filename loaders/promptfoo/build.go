package promptfoo

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"evalview/loaders/internal/chat"
	"evalview/loaders/jsonl"
	"evalview/model"
)

// failureError is ResultFailureReason.ERROR: the test failed by an
// error, not an assertion.
const failureError = 2

// datasets makes a dataset of each column.
func (e *eval) datasets() []*model.Dataset {
	names := e.testNames()
	byCol := map[int][]*cell{}
	for _, c := range e.cells {
		byCol[c.col] = append(byCol[c.col], c)
	}
	fileStats := e.statsMetrics()
	var out []*model.Dataset
	for ci, col := range e.columns {
		cells := byCol[col.idx]
		sort.SliceStable(cells, func(i, j int) bool { return cells[i].test < cells[j].test })
		ds := e.dataset(col, cells, names)
		// The file's own issues and its stats' differences are said
		// once, on its first column; every column shows the stats.
		if ci == 0 {
			ds.Issues = append(e.issues, ds.Issues...)
			if len(e.cells) == 0 {
				ds.Issues = append(ds.Issues, model.Warnf("no-results", e.path, 0, "",
					"the file holds no result (%s): the prompts' metrics are shown as reported, with nothing to recompute them from", e.shape))
			}
		}
		for _, m := range fileStats {
			ds.Metrics = append(ds.Metrics, m.metric)
			if len(e.cells) == 0 {
				continue
			}
			ds.Recomputed = append(ds.Recomputed, m.recomputed)
			if m.differs && ci == 0 {
				ds.Issues = append(ds.Issues, model.Warnf("metric-differs", e.path, 0, "", "%s", m.note))
			}
		}
		out = append(out, ds)
	}
	if len(out) == 0 {
		// No column at all: the file's stats alone, said so.
		ds := &model.Dataset{Kind: model.KindPromptfoo, Path: e.path, Task: e.task(), Title: e.task(), Records: model.NewMemIndex(nil)}
		ds.Facts = e.facts()
		ds.Issues = append(ds.Issues, e.issues...)
		ds.Issues = append(ds.Issues, model.Warnf("no-results", e.path, 0, "", "the export holds no result and no prompt: nothing to show"))
		ds.Presentation = Presentation()
		out = append(out, ds)
	}
	return out
}

// task is what the eval is called: its description, else the file.
func (e *eval) task() string {
	if e.description != "" {
		return e.description
	}
	return base(e.path)
}

// facts are the eval's header facts.
func (e *eval) facts() []model.Fact {
	var out []model.Fact
	add := func(k, v string) {
		if v != "" {
			out = append(out, model.Fact{Key: k, Value: v})
		}
	}
	add("eval", e.evalID)
	add("description", e.description)
	add("created", e.timestamp)
	add("promptfoo", e.promptfooVersion)
	add("exported", e.exportedAt)
	add("format", e.shape)
	add("shared at", e.shareURL)
	return out
}

// testNames names each test as the overview's rows name it: its
// description, else its vars; a name two tests share gets the test's
// index.
func (e *eval) testNames() map[int]string {
	first := map[int]*cell{}
	var tests []int
	for _, c := range e.cells {
		if _, ok := first[c.test]; !ok {
			first[c.test] = c
			tests = append(tests, c.test)
		}
	}
	sort.Ints(tests)
	names := map[int]string{}
	count := map[string]int{}
	for _, t := range tests {
		n := testName(first[t])
		names[t] = n
		count[n]++
	}
	for _, t := range tests {
		if count[names[t]] > 1 || names[t] == "" {
			names[t] = strings.TrimSpace(names[t] + " (test " + strconv.Itoa(t) + ")")
		}
	}
	return names
}

// testName is a test's description, else its vars "k=v, k=v" (those
// promptfoo adds, starting with "_", left out).
func testName(c *cell) string {
	if d := oneLine(c.description); d != "" {
		return jsonl.Clip(d, 80)
	}
	var parts []string
	for _, k := range c.varOrder {
		if strings.HasPrefix(k, "_") {
			continue
		}
		parts = append(parts, k+"="+jsonl.Clip(oneLine(textOf(c.vars[k])), 40))
	}
	return jsonl.Clip(strings.Join(parts, ", "), 100)
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i]) + " …"
	}
	return s
}

// dataset is one column's dataset.
func (e *eval) dataset(col *column, cells []*cell, names map[int]string) *model.Dataset {
	prov := col.provider
	if prov == "" {
		prov = "unknown provider"
	}
	label := col.label
	if label == "" {
		label = jsonl.Clip(oneLine(col.raw), 60)
	}
	ds := &model.Dataset{Kind: model.KindPromptfoo, Path: e.path, Task: e.task(),
		Title: jsonl.Clip(prov+" · "+oneLine(label), 80), MainMetric: "score"}
	ds.Origin = model.Origin{Model: col.provider, Run: e.timestamp, Config: []model.Fact{{Key: "prompt", Value: oneLine(label)}}}
	ds.Facts = e.facts()
	if col.provider != "" {
		ds.Facts = append(ds.Facts, model.Fact{Key: "provider", Value: col.provider})
	}
	if col.providerID != "" && col.providerID != col.provider {
		ds.Facts = append(ds.Facts, model.Fact{Key: "provider id", Value: col.providerID})
	}
	ds.Facts = append(ds.Facts, model.Fact{Key: "prompt", Value: label})
	if col.raw != "" && col.raw != label {
		ds.Facts = append(ds.Facts, model.Fact{Key: "prompt text", Value: col.raw})
	}
	ds.Presentation = Presentation()

	var recs []*model.Record
	seen := map[int]int{}
	for _, c := range cells {
		r := e.record(col, c)
		if n := seen[c.test]; n > 0 {
			r.ID += "#" + strconv.Itoa(n+1)
			is := model.Warnf("duplicate-result", e.path, c.line, r.ID, "a second result for test %d in this column (%s · %s)", c.test, prov, label)
			r.Issues = append(r.Issues, is)
			r.Errors, r.Warnings = model.CountIssues(r.Issues)
		}
		seen[c.test]++
		t := model.TaskReport{Task: names[c.test], Record: len(recs)}
		if r.HasScore {
			t.Metrics = append(t.Metrics, model.Metric{Name: "score", Value: r.Score})
		}
		switch r.Status {
		case model.StatusPass:
			t.Metrics = append(t.Metrics, model.Metric{Name: "pass", Value: 1})
		case model.StatusFail, model.StatusError:
			t.Metrics = append(t.Metrics, model.Metric{Name: "pass", Value: 0})
		}
		if seen[c.test] == 1 {
			ds.Tasks = append(ds.Tasks, t)
		}
		recs = append(recs, r)
	}
	ds.Records = model.NewMemIndex(recs)
	for _, m := range e.columnMetrics(col, cells) {
		ds.Metrics = append(ds.Metrics, m.metric)
		if len(e.cells) == 0 {
			continue // an Eval object without its results
		}
		ds.Recomputed = append(ds.Recomputed, m.recomputed)
		if m.differs {
			ds.Issues = append(ds.Issues, model.Warnf("metric-differs", e.path, 0, "", "%s", m.note))
		}
	}
	return ds
}

// record is one test in one column.
func (e *eval) record(col *column, c *cell) *model.Record {
	r := &model.Record{}
	r.ID = strconv.Itoa(c.test)
	r.Line = c.line
	res, tc := c.res, c.tc
	rendered := ""
	if res != nil {
		rendered = res.Prompt.Raw
	}
	if rendered == "" && tc != nil {
		rendered = tc.Prompt
	}
	if rendered == "" {
		rendered = col.raw
	}
	title := oneLine(c.description)
	if title == "" {
		title = testName(c)
	}
	if title == "" {
		title = oneLine(rendered)
	}
	r.Title = jsonl.Own(jsonl.Clip(title, 200), title)
	r.Messages = promptMessages(rendered)
	for _, k := range c.varOrder {
		v := c.vars[k]
		var s string
		if json.Unmarshal(v, &s) == nil {
			r.Fields = append(r.Fields, model.Field{Name: k, Value: s})
		} else {
			r.Fields = append(r.Fields, model.Field{Name: k, Value: textOf(v), IsJSON: true})
		}
	}

	// The outcome, as the writer declared it.
	pass, hasPass := false, false
	var score *float64
	var failure *int
	var grading *gradingResult
	var named map[string]float64
	var latency, cost *float64
	var tokens *tokenUsage
	errText := ""
	text, hasText := "", false
	if res != nil {
		if res.Success != nil {
			pass, hasPass = *res.Success, true
		} else {
			pass, hasPass = res.Error == nil && (res.Response == nil || res.Response.Error == ""), true
		}
		score, failure, grading, named, latency, cost = res.Score, res.FailureReason, res.GradingResult, res.NamedScores, res.LatencyMs, res.Cost
		if res.Error != nil {
			errText = *res.Error
		}
		if res.Response != nil {
			tokens = res.Response.TokenUsage
			if len(res.Response.Output) > 0 && string(res.Response.Output) != "null" {
				text, hasText = textOf(res.Response.Output), true
			}
			if errText == "" && res.Response.Error != "" {
				errText = res.Response.Error
			}
		}
	}
	if tc != nil {
		if tc.text {
			// Before version 2: "[PASS] output", "[FAIL] reason\n---\noutput".
			if !hasPass {
				switch {
				case strings.HasPrefix(tc.Text, "[PASS]"):
					pass, hasPass = true, true
				case strings.HasPrefix(tc.Text, "[FAIL]"):
					hasPass = true
				}
			}
			if !hasText {
				text, hasText = tc.Text, true
			}
		} else {
			if !hasPass && tc.Pass != nil {
				pass, hasPass = *tc.Pass, true
			}
			if score == nil {
				score = tc.Score
			}
			if failure == nil {
				failure = tc.FailureReason
			}
			if grading == nil {
				grading = tc.GradingResult
			}
			if named == nil {
				named = tc.NamedScores
			}
			if latency == nil {
				latency = tc.LatencyMs
			}
			if cost == nil {
				cost = tc.Cost
			}
			if tokens == nil {
				tokens = tc.TokenUsage
			}
			if !hasText {
				text, hasText = tc.Text, true
			}
			if errText == "" && tc.Error != nil {
				errText = *tc.Error
			}
		}
	}
	a := model.Attempt{Index: 1, Text: text}
	if !hasText {
		a.NoText = "the result holds no output"
	}
	switch {
	case !hasPass:
	case pass:
		r.Status, a.Status, a.StatusText = model.StatusPass, model.StatusPass, "PASS"
	case failure != nil && *failure == failureError:
		r.Status, a.Status, a.StatusText = model.StatusError, model.StatusError, "ERROR"
		a.Error = errText
	default:
		r.Status, a.Status, a.StatusText = model.StatusFail, model.StatusFail, "FAIL"
	}
	if score != nil && !math.IsNaN(*score) {
		r.Score, r.HasScore = *score, true
		a.Weighted, a.HasWeighted = *score, true
		r.ScoredAttempts = 1
	}
	if grading != nil {
		a.Judge = grading.Reason
		if grading.Comment != "" {
			a.Judge += "\ncomment: " + grading.Comment
		}
	} else if errText != "" && a.Error == "" {
		a.Judge = errText
	}
	for _, k := range slices.Sorted(maps.Keys(named)) {
		a.Scores = append(a.Scores, model.Score{Name: k, Value: named[k]})
	}
	if latency != nil {
		a.DurationMS = *latency
	}
	var facts []model.Fact
	add := func(k, v string) {
		if v != "" {
			facts = append(facts, model.Fact{Key: k, Value: v})
		}
	}
	add("provider", col.provider)
	if cost != nil && *cost != 0 {
		add("cost", strconv.FormatFloat(*cost, 'g', 6, 64))
	}
	if tokens != nil {
		add("tokens", tokenText(tokens))
	}
	if res != nil && res.Response != nil {
		add("finish reason", res.Response.FinishReason)
		if res.Response.Cached {
			add("cached", "true")
		}
	}
	a.Facts = facts
	r.Attempts = []model.Attempt{a}
	r.Summary.Attempts = 1

	// Each assertion's verdict.
	if grading != nil && len(grading.ComponentResults) > 0 {
		tab := &model.Table{Columns: []string{"assertion", "pass", "score", "reason"}}
		var walk func(gs []gradingResult, depth int)
		walk = func(gs []gradingResult, depth int) {
			for _, g := range gs {
				s := ""
				if g.Score != nil {
					s = strconv.FormatFloat(*g.Score, 'g', 4, 64)
				}
				p := "✗"
				if g.Pass {
					p = "✓"
				}
				tab.Rows = append(tab.Rows, []string{strings.Repeat("  ", depth) + assertionText(g.Assertion), p, s, oneLine(g.Reason)})
				walk(g.ComponentResults, depth+1)
			}
		}
		walk(grading.ComponentResults, 0)
		r.Sections = append(r.Sections, model.Section{Title: "assertions", Type: model.SectionTable, Tab: "Assertions", Table: tab})
		for i, g := range grading.ComponentResults {
			if strings.Contains(g.Reason, "\n") || len(g.Reason) > 120 {
				r.Sections = append(r.Sections, model.Section{Title: fmt.Sprintf("reason %d: %s", i+1, assertionText(g.Assertion)), Type: model.SectionText, Tab: "Assertions", Text: g.Reason, Folded: true})
			}
		}
	}
	if c.rawResult != nil {
		r.Raw = append(r.Raw, model.RawPart{Label: "result", File: e.path, Line: c.line, JSON: c.rawResult})
	}
	if tc != nil && len(tc.raw) > 0 {
		r.Raw = append(r.Raw, model.RawPart{Label: "table cell", File: e.path, JSON: tc.raw})
	}
	labels := []string{"prompt", jsonl.Clip(oneLine(col.label), 64)}
	if col.provider != "" {
		labels = append(labels, "provider", jsonl.Clip(col.provider, 64))
	}
	for _, k := range c.varOrder {
		v := textOf(c.vars[k])
		if k == "provider" || k == "prompt" || strings.HasPrefix(k, "_") || strings.Contains(v, "\n") || len(v) > 64 {
			continue
		}
		labels = append(labels, k, v)
	}
	r.Labels = model.NewLabels(labels...)
	r.Errors, r.Warnings = model.CountIssues(r.Issues)
	return r
}

// promptMessages is a rendered prompt as messages: a JSON list of chat
// messages as they are, else one user message.
func promptMessages(rendered string) []model.Message {
	if rendered == "" {
		return nil
	}
	t := strings.TrimSpace(rendered)
	if strings.HasPrefix(t, "[") {
		var msgs []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal([]byte(t), &msgs) == nil && len(msgs) > 0 {
			var out []model.Message
			ok := true
			for _, m := range msgs {
				if m.Role == "" {
					ok = false
					break
				}
				out = append(out, model.Message{Role: model.Role(m.Role), Segments: []model.Segment{{Type: model.SegText, Text: contentText(m.Content)}}})
			}
			if ok {
				return out
			}
		}
	}
	return []model.Message{{Role: model.RoleUser, Label: "prompt", Segments: []model.Segment{{Type: model.SegText, Text: rendered}}}}
}

// contentText is a chat message's content: a string, or its text parts
// (chat.Text); anything else as textOf writes a value.
func contentText(raw json.RawMessage) string {
	if s, ok := chat.Text(raw); ok {
		return s
	}
	return textOf(raw)
}

// assertionText names an assertion: "contains: Bonjour [Correctness]".
func assertionText(a *assertion) string {
	if a == nil {
		return "(assertion)"
	}
	s := a.Type
	if v := oneLine(textOf(a.Value)); v != "" {
		s += ": " + jsonl.Clip(v, 60)
	}
	if a.Threshold != nil {
		s += " (threshold " + strconv.FormatFloat(*a.Threshold, 'g', -1, 64) + ")"
	}
	if a.Metric != "" {
		s += " [" + a.Metric + "]"
	}
	return s
}

// tokenText writes a token usage: "24 (14 prompt, 10 completion)".
func tokenText(t *tokenUsage) string {
	if t.Total == nil {
		return ""
	}
	s := strconv.FormatFloat(*t.Total, 'f', -1, 64)
	var parts []string
	if t.Prompt != nil {
		parts = append(parts, strconv.FormatFloat(*t.Prompt, 'f', -1, 64)+" prompt")
	}
	if t.Completion != nil {
		parts = append(parts, strconv.FormatFloat(*t.Completion, 'f', -1, 64)+" completion")
	}
	if t.Cached != nil && *t.Cached != 0 {
		parts = append(parts, strconv.FormatFloat(*t.Cached, 'f', -1, 64)+" cached")
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}
