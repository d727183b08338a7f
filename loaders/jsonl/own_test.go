package jsonl

import (
	"strings"
	"testing"
	"unsafe"
)

// Own copies a piece much shorter than its whole, and only then.
func TestOwn(t *testing.T) {
	whole := "first line\n" + strings.Repeat("x", 100)
	part := whole[:10]
	got := Own(part, whole)
	if got != part || unsafe.StringData(got) == unsafe.StringData(whole) {
		t.Errorf("short piece: %q, still in the whole's memory: %v", got, unsafe.StringData(got) == unsafe.StringData(whole))
	}
	long := whole[:80]
	if got := Own(long, whole); unsafe.StringData(got) != unsafe.StringData(whole) {
		t.Error("a piece of most of the whole was copied")
	}
}

// TestFirstLine: the first line that is not blank, trimmed and clipped,
// as the loaders' list titles take it (the Sample loader's way of
// splitting every line, which it replaced, gives the same).
func TestFirstLine(t *testing.T) {
	ref := func(s string, max int) string {
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				return Clip(l, max)
			}
		}
		return ""
	}
	for _, s := range []string{"", " \n\t\r\n ", "one", "  one  \r\ntwo", "\n\n  first line \u00a0\n second", "é" + strings.Repeat("x", 300) + "\ny",
		"\u2028 a\u0085\nb", "a\rb\nc"} {
		for _, max := range []int{200, 5} {
			if got, want := FirstLine(s, max), ref(s, max); got != want {
				t.Errorf("FirstLine(%q, %d) = %q, want %q", s, max, got, want)
			}
		}
	}
}
