package content

import (
	"strings"
	"testing"

	"evalview/tui/styles"
)

// TestMarkdownWrapLosesNothing: glamour's word wrap can leave a "-" one
// cell past the width; the line used to be cut there, dropping the minus
// of "16 - 3 - 4". Every width must keep every character.
func TestMarkdownWrapLosesNothing(t *testing.T) {
	const s = "Janet's ducks lay 16 eggs. She eats 3 and uses 4 for muffins, so 16 - 3 - 4 = 9 eggs are left.\nShe sells them for $2 each: 9 * 2 = $18."
	want := strings.Join(strings.Fields(s), "")
	for _, st := range []styles.Styles{styles.New(true), styles.New(false)} {
		for w := 20; w <= 90; w++ {
			got := strings.Join(strings.Fields(strings.Join(mdPlain(t, s, w, st), " ")), "")
			if got != want {
				t.Errorf("width %d: characters lost:\n got %q\nwant %q", w, got, want)
			}
		}
	}
}

// TestMarkdownOverlongWordIsWrapped: a word longer than the width (a
// URL) is broken onto the next line, not cut.
func TestMarkdownOverlongWordIsWrapped(t *testing.T) {
	s := "see " + strings.Repeat("abcdefghij", 5) + " end"
	got := strings.Join(mdPlain(t, s, 20, styles.New(true)), "")
	if !strings.Contains(strings.ReplaceAll(got, " ", ""), strings.Repeat("abcdefghij", 5)) {
		t.Errorf("the long word was cut: %q", got)
	}
}
