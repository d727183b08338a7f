package lmfilter

import (
	"regexp"
	"strings"
	"unicode"
)

// The MATH answer extraction of lm-evaluation-harness's own scoring code,
// reproduced as strings, for showing what leaderboard_math (and
// minerva_math) compared. It follows lm_eval/tasks/leaderboard/math/utils.py
// (get_unnormalized_answer, normalize_final_answer, last_boxed_only_string,
// remove_boxed), whose string functions are the same from the task's first
// version (3c8db1bb7, 2024-07-03, harness 0.4.3) to 0.4.13.dev0, and the
// same as minerva_math's since 2023-09; the one change, in 0.4.9's
// process_result_v1 (61ee86781, 2025-04-01), is that last_boxed_only_string
// returns "[invalidanswer]" instead of None, which MathLastBoxed's ok
// reports. sympy's is_equiv and math_verify are not reproduced.

// MathInvalid is the answer the task's code gives when no answer is found.
const MathInvalid = "[invalidanswer]"

// mathFinal is get_unnormalized_answer's pattern: Python's re.search, "."
// not matching a newline, as Go's; the first match is the leftmost-first
// match a backtracking engine finds, which Go's regexp promises too.
var mathFinal = regexp.MustCompile(`Final Answer: The final answer is(.*?). I hope it is correct.`)

// MathUnnormalized is get_unnormalized_answer(text): what follows "Final
// Answer: The final answer is", up to ". I hope it is correct." (the text
// gets that sentence appended first), stripped; MathInvalid without it.
func MathUnnormalized(text string) string {
	m := mathFinal.FindStringSubmatch(text + "I hope it is correct.")
	if m == nil {
		return MathInvalid
	}
	return pyStrip(m[1])
}

// mathSubstitutions and mathRemoved are SUBSTITUTIONS and
// REMOVED_EXPRESSIONS, in their order (appendix D of Lewkowycz et al.,
// 2022, as the harness copies it).
var mathSubstitutions = [][2]string{
	{"an ", ""}, {"a ", ""}, {".$", "$"}, {`\$`, ""}, {`\ `, ""}, {" ", ""},
	{"mbox", "text"}, {`,\text{and}`, ","}, {`\text{and}`, ","}, {`\text{m}`, `\text{}`},
}

var mathRemoved = []string{
	"square", "ways", "integers", "dollars", "mph", "inches", "ft", "hours", "km",
	"units", `\ldots`, "sue", "points", "feet", "minutes", "digits", "cents",
	"degrees", "cm", "gm", "pounds", "meters", "meals", "edges", "students",
	"childrentickets", "multiples", `\text{s}`, `\text{.}`, "\\text{\ns}",
	`\text{}^2`, `\text{}^3`, "\\text{\n}", `\text{}`, `\mathrm{th}`, `^\circ`,
	`^{\circ}`, `\;`, `,\!`, "{,}", `"`, `\dots`,
}

// normalize_final_answer's re.sub calls, with their replacements
// (Python's \N written as a function of the groups).
var mathSubs = []struct {
	re  *regexp.Regexp
	rep func(g []string) string
}{
	{regexp.MustCompile(`(.*?)(\$)(.*?)(\$)(.*)`), func(g []string) string { return "$" + g[3] + "$" }},
	{regexp.MustCompile(`(\\text\{)(.*?)(\})`), func(g []string) string { return g[2] }},
	{regexp.MustCompile(`(\\textbf\{)(.*?)(\})`), func(g []string) string { return g[2] }},
	{regexp.MustCompile(`(\\overline\{)(.*?)(\})`), func(g []string) string { return g[2] }},
	{regexp.MustCompile(`(\\boxed\{)(.*)(\})`), func(g []string) string { return g[2] }},
	{regexp.MustCompile(`(frac)([^{])(.)`), func(g []string) string { return "frac{" + g[2] + "}{" + g[3] + "}" }},
	{regexp.MustCompile(`(sqrt)([^{])`), func(g []string) string { return "sqrt{" + g[2] + "}" }},
}

// MathNormalize is normalize_final_answer(s).
func MathNormalize(s string) string {
	if i := strings.LastIndex(s, "="); i >= 0 {
		s = s[i+1:]
	}
	for _, r := range mathSubstitutions {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	for _, e := range mathRemoved {
		s = strings.ReplaceAll(s, e, "")
	}
	for _, sub := range mathSubs {
		s = subAll(sub.re, s, sub.rep)
	}
	s = strings.ReplaceAll(s, "$", "")
	if pyIsDigitString(strings.ReplaceAll(s, ",", "")) {
		s = strings.ReplaceAll(s, ",", "")
	}
	return s
}

// subAll is Python's re.sub(pattern, repl, s) with repl a function of
// the groups (none of these patterns matches the empty string).
func subAll(re *regexp.Regexp, s string, rep func([]string) string) string {
	ms := re.FindAllStringSubmatchIndex(s, -1)
	if ms == nil {
		return s
	}
	var out strings.Builder
	last := 0
	for _, m := range ms {
		g := make([]string, len(m)/2)
		for i := range g {
			if m[2*i] >= 0 {
				g[i] = s[m[2*i]:m[2*i+1]]
			}
		}
		out.WriteString(s[last:m[0]])
		out.WriteString(rep(g))
		last = m[1]
	}
	out.WriteString(s[last:])
	return out.String()
}

// pyIsDigitString is Python's str.isdigit(): not empty, and every
// character a digit, which counts Numeric_Type=Digit characters
// (superscripts, circled digits) beside Go's decimal digits (Nd).
func pyIsDigitString(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsDigit(r) && !unicode.Is(pyDigitExtra, r) {
			return false
		}
	}
	return true
}

// pyDigitExtra are the characters str.isdigit() accepts that are not Nd
// (Python 3.11's Unicode 14 tables).
var pyDigitExtra = &unicode.RangeTable{
	R16: []unicode.Range16{
		{0xB2, 0xB3, 1}, {0xB9, 0xB9, 1}, {0x1369, 0x1371, 1}, {0x19DA, 0x19DA, 1},
		{0x2070, 0x2070, 1}, {0x2074, 0x2079, 1}, {0x2080, 0x2089, 1}, {0x2460, 0x2468, 1},
		{0x2474, 0x247C, 1}, {0x2488, 0x2490, 1}, {0x24EA, 0x24EA, 1}, {0x24F5, 0x24FD, 1},
		{0x24FF, 0x24FF, 1}, {0x2776, 0x277E, 1}, {0x2780, 0x2788, 1}, {0x278A, 0x2792, 1},
	},
	R32: []unicode.Range32{
		{0x10A40, 0x10A43, 1}, {0x10E60, 0x10E68, 1}, {0x11052, 0x1105A, 1}, {0x1F100, 0x1F10A, 1},
	},
}

// MathEqualStrings is the task's answer.strip() == gold.strip().
func MathEqualStrings(a, b string) bool { return pyStrip(a) == pyStrip(b) }

// MathLastBoxed is remove_boxed(last_boxed_only_string(s)): the content of
// the last \boxed{...} (or "\boxed x" up to the next "$") of s; ok is
// false when there is none, or when it is an \fbox, which remove_boxed
// rejects (the harness then fails or, since 0.4.6, answers MathInvalid).
func MathLastBoxed(s string) (string, bool) {
	const sp = `\boxed `
	if i := strings.LastIndex(s, sp); i >= 0 {
		rest := s[i+len(sp):]
		if j := strings.Index(rest, "$"); j >= 0 {
			rest = rest[:j]
		}
		return rest, true
	}
	idx := strings.LastIndex(s, `\boxed`)
	if idx < 0 {
		return "", false // an \fbox is no \boxed{ for remove_boxed
	}
	depth := 0
	for i := idx; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				box := s[idx : i+1]
				const left = `\boxed{`
				if !strings.HasPrefix(box, left) {
					return "", false // "\boxed}" or "\boxedx{...}"
				}
				return box[len(left) : len(box)-1], true
			}
		}
	}
	return "", false
}
