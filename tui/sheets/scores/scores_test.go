package scores

import (
	"math"
	"strings"
	"testing"

	"evalview/model"
	"evalview/model/runstats"
	"evalview/tui/styles"
	"evalview/tui/ui"
)

// TestCategoryMeanNonFinite: a category whose mean is infinite or NaN
// (a judge wrote Infinity) says inf or nan as the list does, never Go's
// +Inf or NaN.
func TestCategoryMeanNonFinite(t *testing.T) {
	s := New(ui.NewCommon(styles.Plain()), &model.Dataset{Title: "run"}, nil)
	f := runstats.Figures{Max: 10, Threshold: 8, Categories: []runstats.Category{
		{Name: "up", Mean: math.Inf(1), Scored: 1, All: 1},
		{Name: "odd", Mean: math.NaN(), Scored: 1, All: 1},
		{Name: "fine", Mean: 7.5, Scored: 2, All: 2},
	}}
	got := strings.Join(s.categoryLines(f), "\n")
	for _, w := range []string{"up         inf", "odd        nan", "fine      7.50"} {
		if !strings.Contains(got, w) {
			t.Errorf("category lines lack %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "Inf") || strings.Contains(got, "NaN") {
		t.Errorf("Go's spelling of a non-finite mean:\n%s", got)
	}
}
