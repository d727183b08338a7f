package content

import (
	"strings"
	"testing"

	"evalview/model"
)

// TestNoMatchShowsThePattern: beside "no match for F" the Responses tab
// shows the regexes F looked for; the Filters tab explains its marks.
func TestNoMatchShowsThePattern(t *testing.T) {
	ds, rec := lmDataset(), lmRecord()
	rec.Attempts[0].Extractions = []model.Extraction{
		{Filter: "strict-match", Answer: "[invalid]", Start: -1, End: -1, Patterns: []string{`#### (\-?[0-9\.\,]+)`}},
	}
	doc := Render(ds, rec, model.DetailTab{Content: model.TabAttempts, Name: "Responses"}, Options{Width: 100, Filter: 0})
	all := strings.Join(doc.Plain, "\n")
	if !strings.Contains(all, `no match for strict-match · pattern #### (\-?[0-9\.\,]+)`) {
		t.Errorf("no pattern beside no match:\n%s", all)
	}
	doc = Render(ds, rec, model.DetailTab{Content: model.TabFilterResults, Name: "Filters"}, Options{Width: 100, Filter: 0})
	all = strings.Join(doc.Plain, "\n")
	for _, want := range []string{"▸ the list's filter (f)", "✓ ✗ against the target", "≠ differs from the other filters"} {
		if !strings.Contains(all, want) {
			t.Errorf("the Filters tab's legend lacks %q:\n%s", want, all)
		}
	}
}

// TestLegendOwnScoring: for a task scored by its own process_results the
// legend says whose verdict ✓ and ✗ are, not "against the target"
// (issue 14: leaderboard_math, ifeval).
func TestLegendOwnScoring(t *testing.T) {
	ds, rec := lmDataset(), lmRecord()
	ds.StatusBasis = "the task's own process_results, as logged"
	doc := Render(ds, rec, model.DetailTab{Content: model.TabFilterResults, Name: "Filters"}, Options{Width: 120, Filter: 0})
	all := strings.Join(doc.Plain, "\n")
	if !strings.Contains(all, "✓ ✗ by the task's own process_results, as logged") || strings.Contains(all, "against the target") {
		t.Errorf("legend:\n%s", all)
	}
}

// TestComparedNotTheResponse: where the loader says what a task's own
// code compared, the Filters tab shows that under "compared", never the
// whole response as the answer, and its legend says so (issue 14).
func TestComparedNotTheResponse(t *testing.T) {
	ds, rec := lmDataset(), lmRecord()
	for i := range rec.Filters {
		rec.Filters[i].Answer = "a whole response\nover lines, ending in Final Answer: 18"
		rec.Filters[i].Answers = []string{rec.Filters[i].Answer}
		rec.Filters[i].Compared = "18"
	}
	doc := Render(ds, rec, model.DetailTab{Content: model.TabFilterResults, Name: "Filters"}, Options{Width: 120, Filter: 0})
	all := strings.Join(doc.Plain, "\n")
	if strings.Contains(all, "a whole response") || strings.Contains(all, "re-extracted") {
		t.Errorf("the response is shown as the answer:\n%s", all)
	}
	for _, want := range []string{"filter           compared", "▸ strict-match     18", "compared: what the task's own code took from the response (below)"} {
		if !strings.Contains(all, want) {
			t.Errorf("lacks %q:\n%s", want, all)
		}
	}
}

// TestComparedSanitized: what a task compared comes from the response;
// an escape byte in it, or in the section that details it, never
// reaches the screen raw.
func TestComparedSanitized(t *testing.T) {
	ds, rec := lmDataset(), lmRecord()
	for i := range rec.Filters {
		rec.Filters[i].Compared = "5\x1b[2J"
	}
	rec.Sections = append(rec.Sections, model.Section{Title: "What t compared", Tab: "Filters", Type: model.SectionFacts,
		Facts: []model.Fact{{Key: "exact_match", Value: "compared 5\x1b]52;c;x\x07 with 5"}}})
	doc := Render(ds, rec, model.DetailTab{Content: model.TabFilterResults, Name: "Filters"}, Options{Width: 120, Filter: 0})
	all := strings.Join(doc.Plain, "\n")
	if strings.ContainsAny(all, "\x1b\x07") || !strings.Contains(all, "5␛[2J") || !strings.Contains(all, "compared 5␛]52;c;x") {
		t.Errorf("not sanitized:\n%q", all)
	}
}
