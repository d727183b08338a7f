package loaders

import (
	"strings"
	"testing"
)

// KindList names the registry's formats in detection order, with its
// separators (the list is not written out here, so that a new format's
// registry line is all it takes).
func TestKindList(t *testing.T) {
	ks := Kinds()
	if len(ks) < 3 || ks[0] != "lm-eval" || ks[len(ks)-1] != "jsonl" {
		t.Fatalf("Kinds() = %v: lm-eval first, the plain JSON Lines fallback last", ks)
	}
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = string(k)
	}
	if got, want := KindList(", ", " or "), strings.Join(names[:len(names)-1], ", ")+" or jsonl"; got != want {
		t.Errorf("KindList = %q, want %q", got, want)
	}
	if got, want := KindList("|", "|"), strings.Join(names, "|"); got != want {
		t.Errorf("KindList = %q, want %q", got, want)
	}
	for _, k := range Kinds() {
		if got, err := ParseKind(string(k)); err != nil || got != k {
			t.Errorf("ParseKind(%q) = %q, %v", k, got, err)
		}
	}
}

// Every format says what it is, for --help and the messages that list
// the formats.
func TestEveryKindIsDescribed(t *testing.T) {
	for _, k := range Kinds() {
		if _, ok := kindWhat[k]; !ok {
			t.Errorf("kind %s has no entry in kindWhat", k)
		}
	}
	if h := KindHelp("  "); strings.Count(h, "\n") != len(Kinds()) || !strings.Contains(h, "  lm-eval ") {
		t.Errorf("KindHelp:\n%s", h)
	}
}
