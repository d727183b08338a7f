package content

import (
	"github.com/charmbracelet/x/ansi"

	"strings"
	"testing"

	"evalview/tui/styles"
)

// TestMarkdownBlocks: the blocks a response uses render readably, within
// the width: headings, emphasis without markers, nested and numbered
// lists, task boxes, quotes, code blocks indented, tables aligned and cut
// to fit, rules, entities resolved.
func TestMarkdownBlocks(t *testing.T) {
	src := "# Plan\n\nSome *italic*, **bold**, ~~gone~~, `code` and a [link](http://x.example).\nSoft break here  \nhard break.\n\n" +
		"1. First item that is quite long and needs to wrap around the width of the pane\n2. Second\n   - nested a\n   - nested b\n\n" +
		"- [x] done\n- [ ] todo\n\n> quoted text that is also long enough to wrap around the given width\n\n" +
		"```python\ndef f(x):\n    return x * 2\n```\n\n| name | score |\n|---|---:|\n| alpha | 0.5 |\n| beta-with-a-very-long-name-that-cannot-fit | 12 |\n\n---\n\nFish &amp; chips &copy;"
	got := mdPlain(t, src, 40, styles.Plain())
	joined := strings.Join(got, "\n")
	for _, want := range []string{
		"# Plan", "Some italic, bold, gone, code and a link", "(http://x.example)",
		"Soft break here\nhard break.",
		"1. First item that is quite long and", "   needs to wrap around the width of",
		"2. Second\n   • nested a\n   • nested b",
		"• [✓] done\n• [ ] todo",
		"│ quoted text that is also long enough\n│ to wrap around the given width",
		"  def f(x):\n      return x * 2",
		"│ score", "│   0.5", "beta-with-a-very-long-name-that… │    12",
		"────", "Fish & chips ©",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("rendered markdown lacks %q:\n%s", want, joined)
		}
	}
	for _, lack := range []string{"**", "~~", "`", "&amp;", "[x]"} {
		if strings.Contains(joined, lack) {
			t.Errorf("rendered markdown shows %q:\n%s", lack, joined)
		}
	}
}

// TestMarkdownCodeByLanguage: a fenced block whose language Chroma knows
// is colored by it, with its text as written; one without a language is
// in the plain code style.
func TestMarkdownCodeByLanguage(t *testing.T) {
	st := styles.New(true)
	if st.NoColor {
		t.Skip("NO_COLOR is set")
	}
	src := "```python\ndef f(x):\n    return 'a'\n```\n\n```\ndef g(): pass\n```"
	lines, ok := Markdown(src, 60, &st)
	if !ok {
		t.Fatal("Markdown failed")
	}
	var py, plain string
	for _, l := range lines {
		switch s := ansi.Strip(l); {
		case strings.Contains(s, "def f"):
			py = l
		case strings.Contains(s, "def g"):
			plain = l
		}
	}
	if py == "" || plain == "" {
		t.Fatalf("code lines missing: %q", lines)
	}
	if ansi.Strip(py) != "  def f(x):" {
		t.Errorf("python line reads %q", ansi.Strip(py))
	}
	// The keyword "def" is colored apart from the rest of the line in
	// the python block, while the unlabelled block is one style.
	if strings.Count(py, "\x1b[") < 2 {
		t.Errorf("python block not colored by token: %q", py)
	}
	if strings.Count(plain, "\x1b[") > 2 {
		t.Errorf("unlabelled block colored by token: %q", plain)
	}
}

// A question's options written one per line ("A. …\nB. …") stay one per
// line in markdown, where a letter is no list marker and the lines were
// joined into one paragraph; other lines still join.
func TestMarkdownOptionsOnePerLine(t *testing.T) {
	src := "Which is reasonable?\n\nA. Use paper strips.\nB. Use jeans.\n(C) Use sand.\nd) Use nothing.\n\nDecide which option\nis more reasonable."
	st := styles.New(false)
	got := strings.Join(renderMarkdown(src, 80, &st), "\n")
	got = ansi.Strip(got)
	for _, want := range []string{"\nA. Use paper strips.\nB. Use jeans.\n(C) Use sand.\nd) Use nothing.\n", "Decide which option is more reasonable."} {
		if !strings.Contains(got, want) {
			t.Errorf("rendered lacks %q:\n%s", want, got)
		}
	}
}
