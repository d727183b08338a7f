package tui

import (
	"slices"
	"strings"
	"testing"

	"evalview/model"
	"evalview/model/query"
	"evalview/tui/sheets/columns"
)

// layoutFields returns the fields layoutColumns keeps, in order.
func layoutFields(cols []colLayout) string {
	var out []string
	for _, c := range cols {
		out = append(out, c.field)
	}
	return strings.Join(out, " ")
}

// runPage is a page of run rows for the layout tests.
func runPage() (*model.Dataset, []model.Summary) {
	ds := runValidFixture()
	var page []model.Summary
	for i := 0; i < ds.Records.Len(); i++ {
		page = append(page, ds.Records.Summary(i))
	}
	return ds, page
}

func TestLayoutColumnsPriorities(t *testing.T) {
	ds, page := runPage()
	env := query.Env{Dataset: ds, Filter: -1}
	runCols := []string{"id", "category", "title", "sample_status", "attempts", "score"}
	tests := []struct {
		name   string
		fields []string
		w      int
		picked bool
		want   string
	}{
		// The 100x30 list: 40 cells less the row prefix.
		{"narrow drops status then attempts", runCols, 34, false, "id category title score"},
		{"wide shows all", runCols, 74, false, "id category title sample_status attempts score"},
		{"a little more room brings attempts back", runCols, 42, false, "id category title attempts score"},
		{"tiny keeps id and score", runCols, 12, false, "id title score"},
		{"tinier drops the title", runCols, 8, false, "id score"},
		{"picked columns squeeze instead of dropping", runCols, 40, true, "id category title sample_status attempts score"},
		{"picked columns still drop when nothing fits", runCols, 20, true, "id category title score"},
		{"no title", []string{"id", "attempts", "sample_status", "score"}, 16, false, "id attempts score"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cols := layoutColumns(ds, env, tc.fields, page, tc.w, tc.picked)
			if got := layoutFields(cols); got != tc.want {
				t.Errorf("columns %q, want %q", got, tc.want)
			}
			used := len(cols) - 1
			for _, c := range cols {
				used += c.w
			}
			if used > tc.w {
				t.Errorf("columns take %d cells of %d: %+v", used, tc.w, cols)
			}
		})
	}
}

// At 100x30 the run list keeps the score on screen (it used to be pushed
// off by the status and attempts columns).
func TestRunListKeepsScoreWhenNarrow(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{runValidFixture()}, 100, 30)
	lines := strings.Split(screen(m), "\n")
	head := lines[m.layout.List.Y]
	row := lines[m.layout.List.Y+1]
	for _, want := range []string{"id", "category", "title", "score"} {
		if !strings.Contains(head, want) {
			t.Errorf("heading %q lacks %q", head, want)
		}
	}
	if !strings.Contains(row, "8.85") || !strings.Contains(row, "life") {
		t.Errorf("first row %q lacks its category or score", row)
	}
	if strings.Contains(head, "status") {
		t.Errorf("heading %q: status should give way first", head)
	}
}

// The chooser says which shown columns a narrow pane drops; choosing
// columns keeps them all, and d goes back to the priorities.
func TestColumnsSheetPicksDroppedColumn(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{runValidFixture()}, 100, 30)
	press(m, "c")
	s := screen(m)
	if !strings.Contains(s, "sample_status · no room now (space keeps it)") {
		t.Fatalf("chooser does not say status has no room:\n%s", s)
	}
	cs := m.topSheet().(*columns.Sheet)
	for cs.Current() != "sample_status" {
		press(m, "j")
	}
	if m.list.st.columns != nil {
		t.Fatal("moving the cursor should not pick columns")
	}
	press(m, "space", "esc")
	head := strings.Split(screen(m), "\n")[m.layout.List.Y]
	if !strings.Contains(head, "sam") || !strings.Contains(head, "score") {
		t.Errorf("picked status column not shown: %q", head)
	}
	press(m, "c", "d", "esc")
	if m.list.st.columns != nil {
		t.Error("d should go back to the default columns")
	}
	head = strings.Split(screen(m), "\n")[m.layout.List.Y]
	if strings.Contains(head, "sta") {
		t.Errorf("defaults at 100x30 should drop status again: %q", head)
	}
}

// While a sheet is open the status bar names it, not the scroll position
// of the detail it covers.
func TestStatusNamesOpenSheet(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{runValidFixture()}, 100, 30)
	press(m, "2") // Responses: long enough to scroll
	status := func() string { return strings.Split(screen(m), "\n")[m.layout.Status.Y] }
	if !strings.Contains(status(), "Responses") {
		t.Fatalf("status bar before: %q", status())
	}
	for _, k := range []string{"c", "v", "F"} {
		press(m, k)
		s := m.topSheet()
		if s == nil {
			t.Fatalf("%s opened no sheet", k)
		}
		if st := status(); !strings.Contains(st, s.Title()) || strings.Contains(st, "Responses") {
			t.Errorf("%s: status bar %q, want the sheet title %q", k, st, s.Title())
		}
		press(m, "esc")
	}
}

// TestTestsetColumns: a testset's list shows kind, steps and batch items
// before its title (often derived from the inputs), tags when room is
// left, the title only in a wide list.
func TestTestsetColumns(t *testing.T) {
	ds := openTestdata(t, "testset/spec/ex4_full.jsonl")
	env := query.Env{Dataset: ds}
	page := []model.Summary{ds.Records.Summary(0)}
	for _, c := range []struct {
		w    int
		want []string
	}{
		{34, []string{"id", "kind", "steps", "batch_items"}},        // 100x30: the list beside the detail
		{42, []string{"id", "tag", "kind", "steps", "batch_items"}}, // 120x40
		{80, []string{"id", "tag", "kind", "steps", "batch_items", "title"}},
	} {
		cols := layoutColumns(ds, env, defaultColumns(ds), page, c.w, false)
		var got []string
		used := 0
		for _, col := range cols {
			got = append(got, col.field)
			used += col.w
			if col.field == "steps" && col.w < len("steps") {
				t.Errorf("width %d: steps column %d cells cuts its heading", c.w, col.w)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("width %d: columns %v, want %v", c.w, got, c.want)
		}
		if used+len(cols)-1 != c.w {
			t.Errorf("width %d: columns take %d cells", c.w, used+len(cols)-1)
		}
	}
}
