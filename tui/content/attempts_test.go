package content

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"evalview/model"
)

func TestPairPositions(t *testing.T) {
	tests := []struct {
		pair   [2]int
		n      int
		l, r   int
		wantOK bool
	}{
		{[2]int{0, 1}, 3, 0, 1, true},
		{[2]int{2, 0}, 3, 2, 0, true},
		{[2]int{5, 9}, 3, 2, 0, true}, // clamped to the last, then made distinct
		{[2]int{1, 1}, 2, 1, 0, true},
		{[2]int{-4, 1}, 2, 0, 1, true},
		{[2]int{0, 1}, 1, 0, 0, false},
		{[2]int{0, 1}, 0, 0, 0, false},
	}
	for _, tc := range tests {
		l, r, ok := PairPositions(tc.pair, tc.n)
		if l != tc.l || r != tc.r || ok != tc.wantOK {
			t.Errorf("PairPositions(%v, %d) = %d %d %v, want %d %d %v", tc.pair, tc.n, l, r, ok, tc.l, tc.r, tc.wantOK)
		}
	}
}

func TestRenderAttemptPair(t *testing.T) {
	sc := []model.Score{{Name: "relevance", Value: 9, Max: 10}, {Name: "satisfaction", Value: 4, Max: 10}}
	rec := &model.Record{Attempts: []model.Attempt{
		{Index: 1, Text: "Left answer \x1b]2;pwned\x07 here.", Status: model.StatusPass, Scores: sc, Weighted: 9.1, HasWeighted: true, Judge: "good"},
		{Index: 2, Status: model.StatusError, StatusText: "error", ErrorType: "http_error", Error: "HTTP Error 504", ErrorBody: "upstream timed out"},
		{Index: 3, Text: "Third.", Status: model.StatusFail, Weighted: 3, HasWeighted: true},
	}}
	for _, w := range []int{43, 59, 120} {
		doc := RenderAttemptPair(nil, rec, [2]int{0, 2}, Options{Width: w})
		all := strings.Join(doc.Plain, "\n")
		for _, want := range []string{"side by side: #1 and #3 of 3", "#1 of 3", "#3 of 3", "9.10", "relevance", "judge:", "good", "Third."} {
			if !strings.Contains(all, want) {
				t.Errorf("width %d lacks %q:\n%s", w, want, all)
			}
		}
		for i, l := range doc.Lines {
			if lw := ansi.StringWidth(l); lw > w {
				t.Errorf("width %d: line %d is %d wide: %q", w, i, lw, l)
			}
			if strings.Contains(l, "\x1b]") || strings.Contains(l, "\x07") {
				t.Errorf("width %d: a control sequence reaches the screen: %q", w, l)
			}
		}
	}
	doc := RenderAttemptPair(nil, rec, [2]int{1, 0}, Options{Width: 80})
	all := strings.Join(doc.Plain, "\n")
	if !strings.Contains(all, "error: http_error: HTTP Error 504") || !strings.Contains(all, "upstream timed out") {
		t.Errorf("the errored attempt's column lacks its error:\n%s", all)
	}
	// Too narrow, or a single attempt: the plain Responses tab.
	for _, tc := range []struct {
		rec *model.Record
		w   int
	}{{rec, 30}, {&model.Record{Attempts: rec.Attempts[:1]}, 80}} {
		doc := RenderAttemptPair(nil, tc.rec, [2]int{0, 1}, Options{Width: tc.w})
		if strings.Contains(strings.Join(doc.Plain, "\n"), "side by side") {
			t.Errorf("width %d, %d attempts: should fall back to one column", tc.w, len(tc.rec.Attempts))
		}
	}
}
