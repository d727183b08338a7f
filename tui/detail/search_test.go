package detail

import (
	"strings"
	"testing"

	"evalview/model"
	"evalview/model/query"
	"evalview/tui/styles"
	"evalview/tui/ui"
)

// TestFollowListHighlightsMatches: the list's search (plain, a regex,
// smart case) is highlighted in the record shown, each highlight over
// the text it matched; opening the record makes the first one current.
func TestFollowListHighlightsMatches(t *testing.T) {
	rec := &model.Record{Messages: []model.Message{{Role: model.RoleUser, Segments: []model.Segment{
		{Text: "Janet's ducks lay 16 eggs per day. She sells every duck egg at the market."}}}}}
	rec.ID = "0"
	ds := &model.Dataset{Records: model.NewMemIndex([]*model.Record{rec})}
	for _, tc := range []struct {
		query string
		re    func() (*query.Matcher, error)
		min   int
	}{
		{"duck", func() (*query.Matcher, error) { return query.NewMatcher("duck", false) }, 2},
		{"~d[u]ck", func() (*query.Matcher, error) { return query.NewMatcher("d[u]ck", true) }, 2},
		{"Janet", func() (*query.Matcher, error) { return query.NewMatcher("Janet", false) }, 1},
	} {
		d := New(ui.NewCommon(styles.New(true)), Sources{})
		d.SetSize(60, 20)
		d.SetRecord(ds, 0, rec)
		re, err := tc.re()
		if err != nil {
			t.Fatal(err)
		}
		d.FollowList(tc.query, re)
		if hits, _ := d.SearchHits(); hits < tc.min {
			t.Fatalf("%s: %d matches, want at least %d", tc.query, hits, tc.min)
		}
		for _, mt := range d.search.matches {
			line := []rune(d.doc.Plain[mt.line])
			if got := strings.ToLower(string(line[mt.start:mt.end])); !strings.Contains(got, "duck") && !strings.Contains(got, "janet") {
				t.Errorf("%s: match %+v covers %q", tc.query, mt, got)
			}
		}
		d.ShowFirstHit()
		if _, cur := d.SearchHits(); cur != 1 {
			t.Errorf("%s: opening the record makes match %d current, want 1", tc.query, cur)
		}
		d.FollowList("", nil)
		if hits, _ := d.SearchHits(); hits != 0 {
			t.Errorf("%s: the list's search ended, %d highlights stay", tc.query, hits)
		}
	}
}
