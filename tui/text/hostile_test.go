package text

import (
	"strings"
	"testing"
)

// TestWrapDeepIndentation wraps the pretty form of JSON nested thousands
// deep (lines of up to 20,000 spaces): every line fits, and the text is
// kept. Before spaces were counted instead of concatenated this took
// seconds (quadratic in the indentation); BenchmarkWrapIndented measures it.
func TestWrapDeepIndentation(t *testing.T) {
	in := strings.Repeat(" ", 20_000) + "[x]"
	lines := Wrap(in, 40)
	if got := strings.TrimSpace(strings.Join(lines, "")); got != "[x]" {
		t.Errorf("text lost: %q", got)
	}
	for _, l := range lines {
		if Width(l) > 40 {
			t.Fatalf("line %d cells wide", Width(l))
		}
	}
}

func BenchmarkWrapIndented(b *testing.B) {
	var sb strings.Builder
	for i := range 2000 {
		sb.WriteString(strings.Repeat("  ", i) + "[\n")
	}
	s := sb.String()
	for b.Loop() {
		Wrap(s, 80)
	}
}
