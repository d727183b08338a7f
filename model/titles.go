package model

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A list shows each record's title; where every record of a dataset
// starts with the same text (lighteval's "Answer the following multiple
// choice question. …" before each question, "Question: " before each of
// ARC's), the list shows the part after it, which tells the rows apart.
// The record keeps its title whole (export, the detail).

// minLead is the shortest shared text worth skipping when it does not
// end a line or a sentence: a few shared words ("What is ") are part of
// the questions, not boilerplate.
const minLead = 20

// SharedLead is the text every one of titles starts with and that does
// not tell them apart, cut back to a boundary: whole lines, or text
// ending with a sentence's or a label's punctuation (". ", ": ", "? "),
// or at least minLead bytes cut at a space. It is "" for fewer than two
// titles, and when every title is the same text (nothing after it would
// be left to show).
func SharedLead(titles []string) string {
	return SharedLeadOf(len(titles), func(i int) string { return titles[i] })
}

// SharedLeadOf is SharedLead over n titles read one at a time (a big
// index's summaries, without a slice of them all).
func SharedLeadOf(n int, title func(int) string) string {
	if n < 2 {
		return ""
	}
	first := title(0)
	lead := first
	same := true
	for k := 1; k < n; k++ {
		t := title(k)
		if t != first {
			same = false
		}
		n := min(len(lead), len(t))
		i := 0
		for i < n && lead[i] == t[i] {
			i++
		}
		lead = lead[:i]
		if lead == "" {
			return ""
		}
	}
	if same {
		return ""
	}
	// Not inside a UTF-8 sequence.
	for len(lead) > 0 && !utf8.ValidString(lead) {
		lead = lead[:len(lead)-1]
	}
	// Whole lines first: the text up to the last line break.
	if i := strings.LastIndexByte(lead, '\n'); i >= 0 && strings.TrimSpace(lead[:i]) != "" {
		return lead[:i+1]
	}
	// A label or a sentence ending before a space: "Question: ",
	// "Read the passage. ".
	for i := len(lead) - 1; i > 0; i-- {
		if lead[i] == ' ' && strings.ContainsRune(".:?!)]>", rune(lead[i-1])) {
			return lead[:i+1]
		}
	}
	// Or a long run of shared words, cut after a space.
	if len(lead) >= minLead {
		if i := strings.LastIndexByte(lead, ' '); i >= minLead-1 {
			return lead[:i+1]
		}
	}
	return ""
}

// boilerplate are the starts of instruction lines that benchmarks put
// before the question (lm-eval's and lighteval's MMLU, GPQA and MMLU-Pro
// prompts): a title's first line that starts so is skipped when a line
// follows it, even where the line differs by subject ("… about anatomy.").
var boilerplate = []string{
	"The following are multiple choice questions",
	"The following is a multiple choice question",
	"Answer the following multiple choice question",
	"Answer the following question",
	"Given the following question and four candidate answers",
}

// TitleAfter is what a list shows of title: the text after lead (when
// title starts with it), less a leading line of known boilerplate
// (boilerplate), from its first non-blank line. It is title itself when
// nothing would be left.
func TitleAfter(title, lead string) string {
	rest := title
	if lead != "" && strings.HasPrefix(title, lead) {
		rest = title[len(lead):]
	}
	rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
	if line, after, ok := strings.Cut(rest, "\n"); ok && isBoilerplate(line) {
		if a := strings.TrimLeftFunc(after, unicode.IsSpace); a != "" {
			rest = a
		}
	}
	if strings.TrimSpace(rest) == "" {
		return title
	}
	return rest
}

// isBoilerplate reports whether line starts as a known instruction line.
func isBoilerplate(line string) bool {
	line = strings.TrimSpace(line)
	for _, b := range boilerplate {
		if strings.HasPrefix(line, b) {
			return true
		}
	}
	return false
}
