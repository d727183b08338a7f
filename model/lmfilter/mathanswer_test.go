package lmfilter

import "testing"

// TestMathAnswer: the extraction and normalisation leaderboard_math's own
// code applies, on answers whose expected values were computed by running
// the harness's own functions (lm_eval/tasks/leaderboard/math/utils.py at
// 0.4.13.dev0: get_unnormalized_answer, normalize_final_answer) in Python
// 3.11: a missing ". I hope it is correct", a newline before the answer,
// several "$", units, \text, \overline, shorthand \frac and \sqrt,
// Python's whitespace (U+3000, \x1c) and isdigit (superscripts).
func TestMathAnswer(t *testing.T) {
	for _, c := range []struct{ in, unnorm, norm string }{
		{"Final Answer: The final answer is $16$. I hope it is correct.", "$16$", "16"},
		{"So x=3.\nFinal Answer: The final answer is $\\frac{2}{3}$. I hope it is correct.", "$\\frac{2}{3}$", "\\frac{2}{3}"},
		{"The answer is \\boxed{5}.", "[invalidanswer]", "[invalidanswer]"},
		{"Final Answer: The final answer is $x = 10$ dollars. I hope it is correct.", "$x = 10$ dollars", "10"},
		{"Final Answer: The final answer is $1,000$. I hope it is correct.", "$1,000$", "1000"},
		{"Final Answer: The final answer is \\text{(B)}", "[invalidanswer]", "[invalidanswer]"},
		{"Final Answer: The final answer is $\\dfrac12$", "[invalidanswer]", "[invalidanswer]"},
		{"Final Answer: The final answer is $\\sqrt2$. I hope it is correct.", "$\\sqrt2$", "\\sqrt{2}"},
		{"Final Answer: The final answer is $90^\\circ$. I hope it is correct.", "$90^\\circ$", "90"},
		{"Final Answer: The final answer is ²,³", "[invalidanswer]", "[invalidanswer]"},
		{"Final Answer: The final answer is\n$5$. I hope it is correct.", "[invalidanswer]", "[invalidanswer]"},
		{"Final Answer: The final answer is $\\boxed{\\frac{\\sqrt{3}}{2}}$. I hope it is correct.", "$\\boxed{\\frac{\\sqrt{3}}{2}}$", "\\frac{\\sqrt{3}}{2}"},
		{"Final Answer: The final answer is $a$ and $b$ . I hope it is correct.", "$a$ and $b$", "a"},
		{"Final Answer: The final answer is 　 7 \u001c. I hope it is correct.", "7", "7"},
		{"Final Answer: The final answer is $\\text{an apple}$ (a guess). I hope it is correct.", "$\\text{an apple}$ (a guess)", "apple"},
		{"Final Answer: The final answer is ²,³. I hope it is correct.", "²,³", "²³"},
		{"Final Answer: The final answer is 1,2. I hope it is correct.", "1,2", "12"},
		{"Final Answer: The final answer is $\\overline{AB}$ units. I hope it is correct.", "$\\overline{AB}$ units", "AB"},
		{"Final Answer: The final answer is $\\textbf{(C)}\\ 12$. I hope it is correct.", "$\\textbf{(C)}\\ 12$", "(C)12"},
		{"Final Answer: The final answer is $\\frac ab$. I hope it is correct.", "$\\frac ab$", "\\frac{a}{b}"},
		{"Final Answer: The final answer is $3$. I hope it is correct. Final Answer: The final answer is $4$. I hope it is correct.", "$3$", "3"},
	} {
		u := MathUnnormalized(c.in)
		if u != c.unnorm {
			t.Errorf("MathUnnormalized(%q) = %q, the harness gives %q", c.in, u, c.unnorm)
		}
		if n := MathNormalize(u); n != c.norm {
			t.Errorf("MathNormalize(%q) = %q, the harness gives %q", u, n, c.norm)
		}
	}
}

// TestMathLastBoxed: remove_boxed(last_boxed_only_string(s)), as the
// harness computes it (expected values from its own functions); an \fbox,
// no box or an unclosed one is no answer.
func TestMathLastBoxed(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"x \\boxed{1} then \\boxed{\\frac{1}{2}} done", "\\frac{1}{2}", true},
		{"\\boxed 7$ and more", "7", true},
		{"no box", "", false},
		{"\\fbox{3}", "", false},
		{"\\boxed{unclosed", "", false},
		{"a \\boxed 1$ b \\boxed{2}", "1", true},
	} {
		got, ok := MathLastBoxed(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("MathLastBoxed(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
