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
