package inspect

import (
	"encoding/json"
	"fmt"
	"strings"

	"evalview/loaders/jsonl"
	"evalview/model"
)

// rawEvent holds the fields of Inspect's events (event/_*.py) the
// transcript shows; each kind uses a few of them.
type rawEvent struct {
	Event     string          `json:"event"`
	Timestamp string          `json:"timestamp"`
	SpanID    string          `json:"span_id"`
	ID        json.RawMessage `json:"id"`
	ParentID  string          `json:"parent_id"`
	Type      string          `json:"type"`
	Name      string          `json:"name"`
	Action    string          `json:"action"`
	Model     string          `json:"model"`
	Role      string          `json:"role"`
	Output    *struct {
		Completion string `json:"completion"`
		Choices    []struct {
			Message rawMessage `json:"message"`
		} `json:"choices"`
		Usage *modelUsage `json:"usage"`
	} `json:"output"`
	Function  string            `json:"function"`
	Arguments json.RawMessage   `json:"arguments"`
	Result    json.RawMessage   `json:"result"`
	Score     *score            `json:"score"`
	Target    json.RawMessage   `json:"target"`
	Changes   []json.RawMessage `json:"changes"`
	Cmd       string            `json:"cmd"`
	Data      json.RawMessage   `json:"data"`
	Message   json.RawMessage   `json:"message"`
	Error     json.RawMessage   `json:"error"`
	Input     json.RawMessage   `json:"input"`
	InputRefs []json.RawMessage `json:"input_refs"`
	Truncated bool              `json:"_truncated"`
}

// lineCap bounds one transcript line's text.
const lineCap = 240

// transcript renders events as indented lines, one section per top-level
// span (init, solvers, scorers), folded so a long run stays navigable.
// Older logs mark spans with "step" begin/end events; newer ones with
// span_begin/span_end.
func transcript(d *sampleDetail, epoch int) []model.Section {
	events, res := d.events, d.attach
	var secs []model.Section
	var cur *strings.Builder
	title := ""
	depth := 0
	flush := func() {
		if cur != nil && cur.Len() > 0 {
			secs = append(secs, model.Section{
				Title: fmt.Sprintf("transcript, epoch %d: %s", epoch, title), Type: model.SectionText,
				Tab: "Transcript", Text: strings.TrimRight(cur.String(), "\n"), Folded: title != "solvers",
			})
		}
		cur = &strings.Builder{}
	}
	flush()
	title = "events"
	for _, raw := range events {
		var e rawEvent
		if json.Unmarshal(raw, &e) != nil {
			continue
		}
		opens, closes := false, false
		switch {
		case e.Event == "span_begin", e.Event == "step" && e.Action == "begin":
			opens = true
		case e.Event == "span_end", e.Event == "step" && e.Action == "end":
			closes = true
		}
		if closes {
			if depth > 0 {
				depth--
			}
			continue
		}
		if opens && depth == 0 {
			flush()
			title = e.Name
			if title == "" {
				title = e.Type
			}
		}
		line := eventLine(e, res)
		indent := strings.Repeat("  ", depth)
		fmt.Fprintf(cur, "%s%s %s\n", indent, clock(e.Timestamp), line)
		if e.Event == "model" && !e.Truncated {
			for _, in := range modelInput(e, &d.pool, res) {
				fmt.Fprintf(cur, "%s%s %s\n", indent, strings.Repeat(" ", len(clock(e.Timestamp))), in)
			}
		}
		if opens {
			depth++
		}
	}
	flush()
	if d.eventsCut {
		secs = append(secs, model.Section{Title: fmt.Sprintf("transcript, epoch %d: not shown", epoch), Type: model.SectionText, Tab: "Transcript",
			Text: fmt.Sprintf("%d of %d events shown; the rest are not kept in memory (the sample's member is read as a stream). `o` on the Raw tab pages the member.", len(events), d.eventCount)})
	}
	return secs
}

// clock keeps a timestamp's time of day ("20:04:20.320").
func clock(ts string) string {
	if i := strings.IndexByte(ts, 'T'); i >= 0 && len(ts) >= i+13 {
		return ts[i+1 : i+13]
	}
	return ts
}

// eventLine is one event in a line.
func eventLine(e rawEvent, res resolver) string {
	clip := func(s string) string { return jsonl.Clip(strings.Join(strings.Fields(res.text(s)), " "), lineCap) }
	if e.Truncated {
		return e.Event + " (event too long: its body is not kept)"
	}
	switch e.Event {
	case "span_begin":
		return "▸ " + strings.TrimSpace(e.Type+" "+e.Name)
	case "step":
		return "▸ " + strings.TrimSpace(e.Type+" "+e.Name)
	case "sample_init":
		return "sample init"
	case "model":
		s := "model " + e.Model
		if e.Role != "" {
			s += " (" + e.Role + ")"
		}
		if e.Output != nil {
			text := e.Output.Completion
			if text == "" && len(e.Output.Choices) > 0 {
				m := e.Output.Choices[0].Message
				text = contentText(m.Content)
				for _, tc := range m.ToolCalls {
					text += " → " + tc.Function + "(" + string(compactJSON(tc.Arguments)) + ")"
				}
			}
			s += ": " + clip(text)
			if u := e.Output.Usage; u != nil {
				s += fmt.Sprintf(" [%d in, %d out]", u.Input, u.Output)
			}
		}
		if e.Error != nil && string(e.Error) != "null" {
			s += " error: " + clip(jsonl.ScalarText(e.Error))
		}
		return s
	case "tool":
		return "tool " + e.Function + "(" + clip(string(compactJSON(e.Arguments))) + ") → " + clip(resultText(e.Result))
	case "score":
		if e.Score == nil {
			return "score"
		}
		s := "score " + valueText(e.Score.Value)
		if e.Score.Answer != nil {
			s += " answer " + clip(*e.Score.Answer)
		}
		return s
	case "state", "store":
		return fmt.Sprintf("%s: %d change(s)", e.Event, len(e.Changes))
	case "sandbox":
		return "sandbox " + e.Action + " " + clip(e.Cmd)
	case "info":
		return "info " + clip(jsonl.ScalarText(e.Data))
	case "logger":
		var m struct {
			Level   string `json:"level"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(e.Message, &m)
		return "log " + m.Level + " " + clip(m.Message)
	case "error":
		var m struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(e.Error, &m)
		return "error " + clip(m.Message)
	case "sample_limit":
		var msg string
		_ = json.Unmarshal(e.Message, &msg)
		return "limit " + e.Type + " " + clip(msg)
	case "input":
		return "input " + clip(jsonl.ScalarText(e.Input))
	}
	return e.Event
}

// resultText renders a tool result: a string, or content parts.
func resultText(raw json.RawMessage) string {
	if t := contentText(raw); t != "" {
		return t
	}
	return jsonl.ScalarText(raw)
}
