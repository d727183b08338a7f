package highlight

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"evalview/tui/styles"
)

func TestJSONKeepsTextAndColors(t *testing.T) {
	st := styles.New(true)
	if st.NoColor {
		t.Skip("NO_COLOR is set")
	}
	h := New(&st)
	tests := []struct {
		name, in string
	}{
		{"object", "{\n  \"doc_id\": 12,\n  \"ok\": true,\n  \"text\": \"hi\"\n}"},
		{"array", "[1, 2.5, null, \"x\"]"},
		{"not JSON", "not json at all {"},
		{"multi-line string token", "\"a\nb\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := h.JSON(tt.in)
			if ansi.Strip(got) != tt.in {
				t.Errorf("text changed:\n%q\nwant\n%q", ansi.Strip(got), tt.in)
			}
			if strings.Count(got, "\n") != strings.Count(tt.in, "\n") {
				t.Errorf("line count changed")
			}
		})
	}
	got := h.JSON(`{"doc_id": 12}`)
	if !strings.Contains(got, "\x1b[") {
		t.Errorf("no colors in %q", got)
	}
}

func TestJSONPlainAndCapped(t *testing.T) {
	plain := styles.Plain()
	h := New(&plain)
	in := `{"a": 1}`
	if got := h.JSON(in); got != in {
		t.Errorf("plain styles must not color: %q", got)
	}
	st := styles.New(true)
	if st.NoColor {
		t.Skip("NO_COLOR is set")
	}
	big := strings.Repeat("{\"k\": 1}\n", MaxBytes/4)
	got := New(&st).JSON(big)
	if ansi.Strip(got) != big {
		t.Fatal("text changed")
	}
	lastLine := got[strings.LastIndexByte(strings.TrimSuffix(got, "\n"), '\n')+1:]
	if strings.Contains(lastLine, "\x1b[") {
		t.Errorf("text past MaxBytes should be left uncolored, last line %q", lastLine)
	}
}

// TestJSONClasses: keys, strings, numbers, literals and punctuation each
// get their own style; a string is a key only before a colon.
func TestJSONClasses(t *testing.T) {
	st := styles.New(true)
	if st.NoColor {
		t.Skip("NO_COLOR is set")
	}
	h := New(&st)
	got := h.JSON(`{"a" : "b", "n": -1.5e3, "t": [true, null], "s": "x\"y:"}`)
	paint := func(c class, s string) string { return h.pre[c] + s + h.post[c] }
	for _, want := range []string{
		paint(classKey, `"a"`), paint(classString, `"b"`), paint(classNumber, "-1.5e3"),
		paint(classLiteral, "true"), paint(classLiteral, "null"), paint(classPunct, "{"),
		paint(classString, `"x\"y:"`), paint(classKey, `"s"`),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
}
