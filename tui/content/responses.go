package content

import (
	"math"
	"strings"

	"evalview/model"
	"evalview/tui/text"
)

// Glyph returns the one-cell glyph of a status: ✓ pass, ✗ fail, ! error,
// · unscored.
func Glyph(s model.Status) string {
	switch s {
	case model.StatusPass:
		return "✓"
	case model.StatusFail:
		return "✗"
	case model.StatusError:
		return "!"
	default:
		return "·"
	}
}

// responses renders the attempts: just the text for a single plain
// response, numbered blocks otherwise.
func (b *builder) responses(ds *model.Dataset, rec *model.Record) {
	label := "score "
	if ds != nil && ds.Presentation.AttemptScore != "" {
		label = ds.Presentation.AttemptScore + " "
	}
	if len(rec.Attempts) == 1 && plainAttempt(rec.Attempts[0]) {
		a := rec.Attempts[0]
		b.rule(render(b.st.Detail.Subheading, "response"))
		b.attemptText(a)
		b.extractions(a)
		b.attemptFacts(a)
		return
	}
	for i, a := range rec.Attempts {
		if i > 0 {
			b.blank()
		}
		b.attempt(i, a, len(rec.Attempts), label)
	}
}

// plainAttempt reports an attempt with nothing but text (and facts).
func plainAttempt(a model.Attempt) bool {
	return a.Status == model.StatusUnscored && a.StatusText == "" && len(a.Scores) == 0 &&
		!a.HasWeighted && a.ErrorType == "" && a.Error == "" && a.ErrorBody == "" &&
		a.Judge == "" && a.DurationMS == 0 && a.Raw == ""
}

// attempt renders one numbered attempt, its score after label.
func (b *builder) attempt(i int, a model.Attempt, n int, label string) {
	b.rule(b.attemptHead(attemptName(i, a), a, n, label))
	if len(a.Scores) > 0 {
		b.scores(a.Scores)
	}
	b.attemptError(a)
	b.attemptText(a)
	b.extractions(a)
	if a.Judge != "" {
		b.blank()
		b.kv("judge", a.Judge, 0)
	}
	b.attemptFacts(a)
	b.rawResponse(a)
}

// rawResponse writes an attempt's raw response JSON, folded unless the
// options unfold.
func (b *builder) rawResponse(a model.Attempt) {
	if a.Raw == "" {
		return
	}
	b.blank()
	if b.o.Unfold {
		b.para("raw response", b.st.Detail.Subheading, 0)
		b.json(a.Raw, 2)
	} else {
		b.fold("raw response, " + byteSize(len(a.Raw)))
	}
}

// attemptHead is the heading of attempt a, one of n: its name ("#3",
// "prediction #1") and "of n" when there are several, the outcome, the
// status word where it says more, the weighted score after scoreLabel and
// the duration.
func (b *builder) attemptHead(name string, a model.Attempt, n int, scoreLabel string) string {
	head := render(b.st.Detail.Subheading, name)
	if n > 1 {
		head += render(b.st.Detail.Subtle, " of "+itoa(n))
	}
	if a.Status != model.StatusUnscored {
		head += "  " + render(b.st.Outcome(a.Status), Glyph(a.Status)+" "+a.Status.String())
	}
	if a.StatusText != "" && a.StatusText != a.Status.String() {
		head += "  " + render(b.st.Detail.Label, text.OneLine(a.StatusText))
	}
	if a.HasWeighted {
		head += "  " + render(b.st.Detail.Key, scoreLabel) + render(b.st.Detail.Subheading, text.FormatScore(a.Weighted))
	}
	if a.DurationMS > 0 {
		head += render(b.st.Detail.Subtle, "  "+text.FormatDuration(a.DurationMS))
	}
	return head
}

// attemptError writes an attempt's error, if any: "error: type: message",
// then the error body (an HTTP response, a traceback) raw and indented.
func (b *builder) attemptError(a model.Attempt) {
	if a.ErrorType == "" && a.Error == "" && a.ErrorBody == "" {
		return
	}
	msg := strings.Join(nonEmpty(a.ErrorType, a.Error), ": ")
	if msg == "" {
		msg = "error"
	}
	b.para("error: "+msg, b.st.Status.Error, 0)
	if a.ErrorBody != "" {
		t, more := capText(a.ErrorBody, maxTextBytes)
		b.para(t, b.st.Detail.Subtle, 2)
		b.more(more)
	}
}

// attemptText writes an attempt's response: as markdown when the options
// ask for it, raw otherwise, the text its filters' regexes matched
// highlighted either way (see markdownSpans).
func (b *builder) attemptText(a model.Attempt) {
	if a.Text == "" {
		switch {
		case a.NoText != "": // not in the artifact: not an empty answer
			b.para("response "+a.NoText, b.st.Detail.Subtle, 0)
		case a.Error == "" && a.ErrorType == "":
			b.para("(empty response)", b.st.Detail.Subtle, 0)
		}
		return
	}
	t, more := capText(a.Text, maxTextBytes)
	spans := matchSpans(a.Extractions, len(t))
	switch {
	case b.markdownSpans(t, spans, 0):
	case len(spans) > 0:
		b.styled(b.highlightSpans(t, spans), 0)
	default:
		b.para(t, b.st.Detail.Value, 0)
	}
	b.more(more)
}

// attemptFacts writes the attempt's facts on one wrapped line.
func (b *builder) attemptFacts(a model.Attempt) {
	if len(a.Facts) == 0 {
		return
	}
	var parts []string
	for _, f := range a.Facts {
		parts = append(parts, render(b.st.Detail.Key, text.OneLine(f.Key)+":")+" "+text.OneLine(f.Value))
	}
	b.styled(strings.Join(parts, render(b.st.Detail.Subtle, " · ")), 0)
}

// barWidth is the number of cells of a score bar.
const barWidth = 10

// scores renders one bar per score dimension: "relevance  ████████░░ 8".
func (b *builder) scores(scores []model.Score) {
	nameW := 0
	for _, s := range scores {
		nameW = max(nameW, text.Width(text.OneLine(s.Name)))
	}
	nameW = min(nameW, max(4, b.w-barWidth-10))
	for _, s := range scores {
		line := "  " + render(b.st.Detail.Key, text.Pad(text.OneLine(s.Name), nameW)) + " "
		top := s.Max
		if top <= 0 {
			top = inferMax(s.Value)
		}
		if top > 0 {
			full := int(math.Round(math.Max(0, math.Min(1, s.Value/top)) * barWidth))
			line += render(b.st.Detail.BarFull, strings.Repeat("█", full)) +
				render(b.st.Detail.BarEmpty, strings.Repeat("░", barWidth-full)) + " "
		}
		line += render(b.st.Detail.Subheading, scoreText(s.Value))
		if s.Max > 0 {
			line += render(b.st.Detail.Subtle, "/"+scoreText(s.Max))
		}
		b.add(line)
	}
}

// inferMax guesses the top of an unlabelled scale from the value: 1, 10 or
// 100; 0 (no bar) for anything else.
func inferMax(v float64) float64 {
	switch {
	case v < 0:
		return 0
	case v <= 1:
		return 1
	case v <= 10:
		return 10
	case v <= 100:
		return 100
	}
	return 0
}

// scoreText prints integral scores without decimals ("8"), others as
// FormatScore does.
func scoreText(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e6 {
		return itoa(int(v))
	}
	return text.FormatScore(v)
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
