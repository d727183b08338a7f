package model

import (
	"strconv"
	"strings"
)

// MarkFewShot marks the few-shot examples of a prompt, which the browser
// folds so that the question shows first, and labels them "example K"
// (its answer turn "example K answer"):
//
//   - a chat prompt of several user turns (few-shot examples as turns,
//     lm-eval's --fewshot_as_multiturn, lighteval's chat prompts): every
//     turn before the last user turn, after the leading system turns;
//   - a prompt of one user turn (the examples joined by the task's
//     few-shot delimiter, "\n\n" by default, then the doc's text): the
//     part before the blank line that precedes the question, cut into
//     examples that each hold a line starting as the question part's
//     last line does ("Answer:"). A description before the first example
//     goes with it. Where no such cue cuts it (an instruct prompt whose
//     answers end "Answer: B"), examples are cut where they start as the
//     question does (its first line, or its label "Question: "). A prompt
//     with nothing of the kind before the question (0-shot, a description
//     alone) is left whole.
//
// question is the question's text, or its first line, as it appears in
// the prompt; the turns always hold the whole prompt. Messages already
// marked are returned as they are.
func MarkFewShot(msgs []Message, question string) []Message {
	last := -1
	users := 0
	for i, m := range msgs {
		if m.FewShot {
			return msgs
		}
		if m.Role == RoleUser {
			last, users = i, users+1
		}
	}
	if users >= 2 {
		out := make([]Message, len(msgs))
		copy(out, msgs)
		k := 0
		for i := range out[:last] {
			switch out[i].Role {
			case RoleSystem:
				if k == 0 {
					continue
				}
			case RoleUser:
				k++
			}
			out[i].FewShot = true
			if out[i].Label == "" {
				out[i].Label = "example " + strconv.Itoa(max(k, 1))
				if out[i].Role != RoleUser {
					out[i].Label += " answer"
				}
			}
		}
		return out
	}
	question = strings.TrimSpace(question)
	if users != 1 || question == "" {
		return msgs
	}
	text := msgs[last].Text()
	p := strings.LastIndex(text, question)
	if p <= 0 {
		return msgs
	}
	q := strings.LastIndex(text[:p], "\n\n")
	if q <= 0 {
		return msgs
	}
	rest := text[q+2:]
	out := examplesByCue(text[:q], lastLine(rest))
	if out == nil {
		out = examplesByStart(text[:q], question)
	}
	if out == nil {
		return msgs
	}
	out = append(out, TextMessage(RoleUser, rest, msgs[last].Label))
	return append(append(append([]Message(nil), msgs[:last]...), out...), msgs[last+1:]...)
}

// examplesByCue cuts the text before the question into examples that
// each end with a line starting with cue (the question part's last line,
// "Answer:"); nil when that does not cut it whole.
func examplesByCue(before, cue string) []Message {
	if cue == "" {
		return nil
	}
	var out []Message
	var cur []string
	for _, chunk := range strings.Split(before, "\n\n") {
		cur = append(cur, chunk)
		if hasLineStarting(chunk, cue) {
			out = append(out, example(strings.Join(cur, "\n\n"), len(out)+1))
			cur = nil
		}
	}
	if len(out) == 0 || len(cur) > 0 {
		return nil
	}
	return out
}

// examplesByStart cuts the text before the question into examples that
// each start as the question does: with its first line (an instruction
// every example repeats), else with its label ("Question: "). Text before
// the first example (a description) goes with it. nil when no example
// starts so (a question part that ends with the answer's own cue is
// cut by examplesByCue).
func examplesByStart(before, question string) []Message {
	first, _, _ := strings.Cut(question, "\n")
	first = strings.TrimSpace(first)
	starts := []string{first}
	if i := strings.Index(first, ": "); i > 0 && i < 20 {
		starts = append(starts, first[:i+2])
	}
	for _, start := range starts {
		if start == "" {
			continue
		}
		var at []int
		for i := 0; i < len(before); {
			j := strings.Index(before[i:], start)
			if j < 0 {
				break
			}
			if p := i + j; p == 0 || before[p-1] == '\n' {
				at = append(at, p)
			}
			i += j + len(start)
		}
		if len(at) == 0 {
			continue
		}
		at[0] = 0 // a description goes with the first example
		var out []Message
		for k, p := range at {
			end := len(before)
			if k+1 < len(at) {
				end = at[k+1]
			}
			out = append(out, example(strings.TrimRight(before[p:end], "\n"), k+1))
		}
		return out
	}
	return nil
}

// example is few-shot example k as a user turn.
func example(text string, k int) Message {
	m := TextMessage(RoleUser, text, "example "+strconv.Itoa(k))
	m.FewShot = true
	return m
}

// TextMessage is a message of one text segment.
func TextMessage(role Role, text, label string) Message {
	return Message{Role: role, Label: label, Segments: []Segment{{Type: SegText, Text: text}}}
}

// HasFewShot reports whether any of msgs is a few-shot example.
func HasFewShot(msgs []Message) bool {
	for _, m := range msgs {
		if m.FewShot {
			return true
		}
	}
	return false
}

// lastLine is s's last non-blank line, trimmed.
func lastLine(s string) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(ls) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(ls[i]); l != "" {
			return l
		}
	}
	return ""
}

// hasLineStarting reports whether a line of s starts with prefix, spaces
// aside.
func hasLineStarting(s, prefix string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), prefix) {
			return true
		}
	}
	return false
}

// Shots is the number of few-shot examples the writer says each prompt
// of ds holds (lm-eval's n-shot, num_fewshot for the task or the run), 0
// when it says none or nothing.
func Shots(ds *Dataset) int {
	if ds == nil {
		return 0
	}
	o := OriginOf(ds)
	for _, facts := range [][]Fact{o.TaskConfig, o.Config, ds.Facts} {
		for _, f := range facts {
			if f.Key == "num_fewshot" || f.Key == "n-shot" {
				if n, err := strconv.Atoi(strings.TrimSpace(f.Value)); err == nil && n > 0 {
					return n
				}
			}
		}
	}
	return 0
}
