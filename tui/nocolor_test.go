package tui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"evalview/model"
)

// sgr matches a Select Graphic Rendition sequence and its parameters.
var sgr = regexp.MustCompile("\x1b\\[([0-9;:]*)m")

// colorSGR returns the first SGR sequence of s that sets a color
// (foreground or background: 30–37, 38, 40–47, 48, 90–97, 100–107), "" if
// none does.
func colorSGR(s string) string {
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		params := strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == ':' })
		for i := 0; i < len(params); i++ {
			n, _ := strconv.Atoi(params[i])
			switch {
			case n == 38 || n == 48, n >= 30 && n <= 37, n >= 40 && n <= 47, n >= 90 && n <= 97, n >= 100 && n <= 107:
				return m[0]
			}
		}
	}
	return ""
}

func TestColorSGR(t *testing.T) {
	for s, want := range map[string]bool{
		"\x1b[1mbold\x1b[0m": false, "\x1b[7m": false, "\x1b[38;2;1;2;3mx": true,
		"\x1b[1;31mx": true, "\x1b[48;5;200m": true, "\x1b[4;1m": false, "plain": false,
	} {
		if got := colorSGR(s) != ""; got != want {
			t.Errorf("colorSGR(%q) = %v, want %v", s, got, want)
		}
	}
}

// With NO_COLOR set the browser draws with emphasis only: no color in
// any view, syntax-highlighted JSON, markdown and sheets included.
func TestNoColorBrowser(t *testing.T) {
	views := []struct {
		name string
		ds   func() []*model.Dataset
		keys []string
	}{
		{"list and prompt", allFixtures, nil},
		{"responses", allFixtures, []string{"2"}},
		{"filters", allFixtures, []string{"3"}},
		{"raw JSON", allFixtures, []string{"5"}},
		{"issues", allFixtures, []string{"j", "6"}},
		{"search", allFixtures, []string{"/", "d", "u", "c", "k", "enter", "enter"}},
		{"help", allFixtures, []string{"?"}},
		{"facets", allFixtures, []string{"F"}},
		{"sample markdown", func() []*model.Dataset { return []*model.Dataset{openTestdata(t, "sample/agent.jsonl")} }, []string{"2"}},
		{"run attempts", func() []*model.Dataset { return []*model.Dataset{runValidFixture()} }, []string{"2"}},
		{"run histogram", func() []*model.Dataset { return []*model.Dataset{runValidFixture()} }, []string{"v"}},
		{"testset", func() []*model.Dataset { return []*model.Dataset{openTestdata(t, "testset/spec/ex4_full.jsonl")} }, []string{"1"}},
	}
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			m := newTestModel(t, v.ds(), 100, 30) // sets NO_COLOR=1
			press(m, v.keys...)
			out := m.View().Content
			if c := colorSGR(out); c != "" {
				t.Errorf("a color sequence %q in the view:\n%s", c, out)
			}
			if !strings.Contains(out, "\x1b[") {
				t.Error("no emphasis at all: the cursor and the bar should still stand out")
			}
		})
	}
}
