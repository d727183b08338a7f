package content

import (
	"evalview/model"
	"evalview/tui/text"
)

// sampleResponses renders a Sample's predict_result entries so that an
// agent's attempt reads like a chat transcript: a header with the
// outcome, score and latency; the attempt's own thread (tool calls with
// their arguments, tool results tied to their calls, the final answer) or
// its text; then the judge's metrics and verdict, token usage and the
// folded raw response. The references follow, to compare with.
func (b *builder) sampleResponses(rec *model.Record) {
	for i, a := range rec.Attempts {
		if i > 0 {
			b.blank()
		}
		b.sampleAttempt(a, len(rec.Attempts))
	}
	if len(rec.References) > 0 {
		b.blank()
		b.rule(render(b.st.Detail.Subheading, "expected"))
		for _, r := range rec.References {
			// A reference naming an option reads better with its text.
			for _, o := range rec.Options {
				if o.ID == r && o.Text != "" {
					r += ") " + o.Text
					break
				}
			}
			b.hang("  • ", text.Wrap(r, b.w-4))
		}
	}
}

// sampleAttempt renders one predict_result entry.
func (b *builder) sampleAttempt(a model.Attempt, n int) {
	// predict_result indexes are 0-based; people count from 1.
	b.rule(b.attemptHead(model.AttemptsTranscripts.Name(0, a), a, n, "score "))
	b.attemptError(a)
	switch {
	case len(a.Messages) > 0:
		b.thread(a.Messages)
	case a.Text != "":
		b.text(a.Text, b.st.Detail.Value, 0)
	case a.NoText != "":
		b.para("response "+a.NoText, b.st.Detail.Subtle, 0)
	case a.Error == "" && a.ErrorType == "":
		b.para("(empty response)", b.st.Detail.Subtle, 0)
	}
	if len(a.Scores) > 0 || a.Judge != "" {
		b.blank()
		b.add(render(b.st.Detail.Subheading, "judged"))
		if len(a.Scores) > 0 {
			b.scores(a.Scores)
		}
		if a.Judge != "" {
			b.kv("verdict", a.Judge, 2)
		}
	}
	if len(a.Facts) > 0 {
		b.blank()
		b.attemptFacts(a)
	}
	b.rawResponse(a)
}

// thread renders an attempt's own messages: each turn under a lighter
// rule than the attempt's, tool results tied to the calls of the thread.
func (b *builder) thread(msgs []model.Message) {
	calls := toolCallNames(msgs)
	for i, m := range msgs {
		if i > 0 {
			b.blank()
		}
		b.message(m, calls)
	}
}
