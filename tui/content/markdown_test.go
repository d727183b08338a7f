package content

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"evalview/model"
	"evalview/tui/styles"
)

// mdPlain renders s as markdown at width w and returns the lines without
// styles.
func mdPlain(t *testing.T, s string, w int, st styles.Styles) []string {
	t.Helper()
	lines, ok := Markdown(s, w, &st)
	if !ok {
		t.Fatalf("Markdown(%q) failed", s)
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("line %d is %d cells wide (> %d): %q", i, lw, w, l)
		}
		out[i] = ansi.Strip(l)
	}
	return out
}

func TestMarkdownKeepsLaTeX(t *testing.T) {
	cases := []struct{ in, want string }{
		{`So $\frac{a}{b} = x_1 * y_2 * z$ holds.`, `$\frac{a}{b} = x_1 * y_2 * z$`},
		{`Inline \(\sqrt{x_1}\) too.`, `\(\sqrt{x_1}\)`},
		{"Display:\n$$\n\\int_0^1 x\\,dx = \\tfrac{1}{2} \\\\\n$$\ndone", `\int_0^1 x\,dx = \tfrac{1}{2} \\`},
		{`Bracket \[a_{ij} * b_{jk}\] form`, `\[a_{ij} * b_{jk}\]`},
		{`The answer is $\boxed{18}$.`, `$\boxed{18}$`},
		{"So <<3*60=180>>180 meters, <<180*3=540>>540 in all, 2 * 3 and **6**.", "<<3*60=180>>180 meters, <<180*3=540>>540 in all, 2 * 3 and 6."},
	}
	for _, c := range cases {
		got := strings.Join(mdPlain(t, c.in, 80, styles.Plain()), "\n")
		if !strings.Contains(got, c.want) {
			t.Errorf("markdown of %q lost the math %q:\n%s", c.in, c.want, got)
		}
	}
}

func TestMarkdownRendersMarkdown(t *testing.T) {
	got := mdPlain(t, "# Plan\n\n- **one**\n- two\n\nThe price is $5 and $10, see <think>notes</think>.\n\n```python\nprint(1)\n```", 40, styles.Plain())
	joined := strings.Join(got, "\n")
	for _, want := range []string{"Plan", "• one", "• two", "$5 and $10", "<think>notes</think>", "print(1)"} {
		if !strings.Contains(joined, want) {
			t.Errorf("rendered markdown lacks %q:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "**") {
		t.Errorf("bold markers left in:\n%s", joined)
	}
	if got[0] == "" || got[len(got)-1] == "" {
		t.Errorf("blank lines at the ends: %q", got)
	}
}

func TestMarkdownIsSafe(t *testing.T) {
	st := styles.New(true)
	in := "see [the docs](http://evil.example/x) \x1b]52;c;cm0=\x07 and \x1b[2J done &#27;[2J &#x1b;]0;t&#7; [x](a&#27;b)"
	lines, ok := Markdown(in, 60, &st)
	if !ok {
		t.Fatal("render failed")
	}
	out := strings.Join(lines, "\n")
	if strings.Contains(out, "\x1b]") || strings.Contains(out, "\x07") {
		t.Errorf("OSC sequence reached the output: %q", out)
	}
	if strings.Contains(out, "\x1b[2J") || strings.Contains(out, "\x1b]0") || strings.Contains(out, "a\x1bb") {
		t.Errorf("file escape reached the output: %q", out)
	}
	if plain := ansi.Strip(out); !strings.Contains(plain, "␛]52;c;cm0=␇") || !strings.Contains(plain, "the docs") {
		t.Errorf("sanitized text not shown: %q", plain)
	}
}

// The toggle: the same record renders its text raw or as markdown.
func TestRenderMarkdownToggle(t *testing.T) {
	rec := &model.Record{Messages: []model.Message{{Role: model.RoleUser, Segments: []model.Segment{{Text: "Use **bold** and $x_1$."}}}}}
	ds := &model.Dataset{Kind: model.KindSample}
	raw := strings.Join(Render(ds, rec, Tab{Content: model.TabConversation, Name: "Prompt"}, Options{Width: 50}).Plain, "\n")
	md := strings.Join(Render(ds, rec, Tab{Content: model.TabConversation, Name: "Prompt"}, Options{Width: 50, Markdown: true}).Plain, "\n")
	if !strings.Contains(raw, "**bold**") {
		t.Errorf("raw lost the markers:\n%s", raw)
	}
	if strings.Contains(md, "**bold**") || !strings.Contains(md, "bold") || !strings.Contains(md, "$x_1$") {
		t.Errorf("markdown rendering:\n%s", md)
	}
}
