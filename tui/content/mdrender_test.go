package content

import (
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
