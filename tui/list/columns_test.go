package list

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"evalview/loaders/runzip"
	"evalview/loaders/testset"
	"evalview/model"
	"evalview/model/query"
)

// layoutFields returns the fields layoutColumns keeps, in order.
func layoutFields(cols []colLayout) string {
	var out []string
	for _, c := range cols {
		out = append(out, c.field)
	}
	return strings.Join(out, " ")
}

// runRows are the rows of a run as loaders/runzip lists them: title,
// category, sample status, attempts done of 3 and the average weighted
// score (< 0: none, the sample errored).
var runRows = []struct {
	title, category, status string
	attempts                int
	score                   float64
}{
	{"How do I stay motivated when progress feels slow?", "life", "completed", 3, 8.85},
	{"Plan a weekly grocery budget", "life", "partial", 3, 7.7},
	{"Prove that the square root of 2 is irrational", "mathematics", "error", 3, -1},
	{"Explain compound interest to a teenager", "mathematics", "completed", 3, 8.5},
	{"Write a haiku about the sea", "life", "completed", 3, 9.6},
	{"Reverse a linked list in Go", "code", "completed", 3, 10},
	{"Suggest a name for a cat", "life", "completed", 3, 6.25},
	{"Fix this off-by-one error", "code", "completed", 3, 8.49},
}

// runPage is a page of run rows for the layout tests, and their dataset
// with a run's presentation.
func runPage() (*model.Dataset, []model.Summary) {
	var recs []*model.Record
	for i, r := range runRows {
		rec := &model.Record{}
		rec.ID, rec.Title = fmt.Sprint(i+1), r.title
		rec.Summary.Attempts, rec.AttemptsWanted = r.attempts, 3
		rec.Labels = model.LabelsOf(map[string]string{"category": r.category, "sample_status": r.status, "errored": "no"})
		rec.Status = model.StatusError
		if r.score >= 0 {
			rec.Score, rec.HasScore, rec.Status = r.score, true, model.StatusFail
			if r.score >= 8.5 {
				rec.Status = model.StatusPass
			}
		}
		recs = append(recs, rec)
	}
	ds := &model.Dataset{Kind: model.KindRun, MainMetric: "weighted_score", Records: model.NewMemIndex(recs),
		Scoring: runzip.Scoring(runzip.DefaultThreshold, nil, nil)}
	runzip.Present(ds)
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
			cols := layoutColumns(ds, env, tc.fields, page, tc.w, tc.picked, 0)
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

// TestTestsetColumns: a testset's list shows kind, steps and batch items
// before its title (often derived from the inputs), tags when room is
// left, the title only in a wide list.
func TestTestsetColumns(t *testing.T) {
	dss, err := testset.Open(filepath.Join("..", "..", "testdata", "testset", "spec", "ex4_full.jsonl"))
	if err != nil || len(dss) != 1 {
		t.Fatalf("open: %d datasets, %v", len(dss), err)
	}
	ds := dss[0]
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
		cols := layoutColumns(ds, env, defaultColumns(ds), page, c.w, false, 0)
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

// The title gets the rest of a wide pane but no more than its widest
// title: the spare cells go first to a column its cap cut, and what is
// left stays blank after the last column instead of between the title
// and the score.
func TestLayoutColumnsTitleNotAll(t *testing.T) {
	recs := []*model.Record{{}, {}}
	recs[0].ID, recs[0].Title = "1", "Short title"
	recs[0].Labels = model.NewLabels("category", strings.Repeat("long category ", 3))
	recs[1].ID, recs[1].Title = "2", "Another"
	ds := &model.Dataset{Kind: model.KindSample, Records: model.NewMemIndex(recs)}
	env := query.Env{Dataset: ds, Filter: -1}
	page := []model.Summary{ds.Records.Summary(0), ds.Records.Summary(1)}
	fields := []string{"id", "category", "title", "score"}
	all := layoutColumns(ds, env, fields, page, 150, false, 0)
	fit := layoutColumns(ds, env, fields, page, 150, false, len("Short title"))
	at := flexIndex(fit)
	if all[flexIndex(all)].w <= 100 {
		t.Fatalf("without a need the title takes the rest: %d cells", all[flexIndex(all)].w)
	}
	if fit[at].w != 12 { // titleMin: a little more than the title
		t.Errorf("title %d cells, want 12", fit[at].w)
	}
	if got, want := fit[1].w, len(strings.Repeat("long category ", 3)); got != want {
		t.Errorf("the category cut at its cap got %d cells back, want %d", got, want)
	}
	if rowWidth(fit) >= 150 {
		t.Errorf("row of %d cells: nothing left blank", rowWidth(fit))
	}
}
