package query

import (
	"sort"
	"testing"

	"evalview/model"
)

func TestSort(t *testing.T) {
	gen, lm := generic(), lmeval()
	cases := []struct {
		env  Env
		key  SortKey
		want []string
	}{
		{Env{Dataset: gen}, SortKey{"id", false}, []string{"a1", "a2", "a3", "a10", "b1"}},
		{Env{Dataset: gen}, SortKey{"id", true}, []string{"b1", "a10", "a3", "a2", "a1"}},
		{Env{Dataset: gen}, SortKey{"score", false}, []string{"a2", "a3", "a1", "b1", "a10"}},
		{Env{Dataset: gen}, SortKey{"score", true}, []string{"b1", "a1", "a3", "a2", "a10"}},
		// Stable: a1 stays before a3 in both directions; b1 (empty) last.
		{Env{Dataset: gen}, SortKey{"category", false}, []string{"a2", "a10", "a1", "a3", "b1"}},
		{Env{Dataset: gen}, SortKey{"category", true}, []string{"a1", "a3", "a10", "a2", "b1"}},
		{Env{Dataset: gen}, SortKey{"status", false}, []string{"a1", "b1", "a2", "a3", "a10"}},
		{Env{Dataset: gen}, SortKey{"status", true}, []string{"a3", "a2", "a1", "b1", "a10"}},
		{Env{Dataset: gen}, SortKey{"labels.status", false}, []string{"a1", "a2", "a10", "b1", "a3"}},
		{Env{Dataset: gen}, SortKey{"steps", false}, []string{"a1", "a2", "a3", "a10", "b1"}}, // 2 < 10 < x
		{Env{Dataset: gen}, SortKey{"errors", true}, []string{"a3", "a2", "a1", "a10", "b1"}},
		{Env{Dataset: gen}, SortKey{"issues", true}, []string{"a3", "a1", "a2", "a10", "b1"}},
		{Env{Dataset: gen}, SortKey{"line", true}, []string{"a3", "a10", "a2", "a1", "b1"}},
		{Env{Dataset: gen}, SortKey{"tag", false}, []string{"b1", "a1", "a2", "a10", "a3"}}, // critical < critical,easy < easy
		{Env{Dataset: gen}, SortKey{"title", false}, []string{"a2", "a10", "a3", "b1", "a1"}},
		{Env{Dataset: gen, Notes: notes}, SortKey{"note", false}, []string{"a1", "a2", "a10", "a3", "b1"}},
		{Env{Dataset: gen, Notes: notes}, SortKey{"label", true}, []string{"a1", "a2", "a10", "a3", "b1"}},
		{Env{Dataset: gen}, SortKey{"nosuch", true}, []string{"a1", "a2", "a10", "a3", "b1"}},
		{Env{Dataset: gen}, SortKey{}, []string{"a1", "a2", "a10", "a3", "b1"}},
		{Env{Dataset: lm}, SortKey{"answer", false}, []string{"1", "2", "0", "10"}},            // 3 < 5 < [invalid]
		{Env{Dataset: lm, Filter: 1}, SortKey{"answer", false}, []string{"1", "2", "0", "10"}}, // 3 < 6 < 18, 10 has none
		{Env{Dataset: lm, Filter: 1}, SortKey{"score", true}, []string{"0", "1", "2", "10"}},
		{Env{Dataset: lm}, SortKey{"id", false}, []string{"0", "1", "2", "10"}},
	}
	for _, c := range cases {
		rows := all(c.env.Dataset)
		Sort(c.env, rows, c.key)
		equalStrings(t, c.env.Dataset.Title+" "+c.key.String(), ids(c.env.Dataset, rows), c.want)
	}
}

func TestSortSubsetAndStability(t *testing.T) {
	// 200 records with 4 score values: equal scores keep index order.
	var recs []*model.Record
	for i := 0; i < 200; i++ {
		recs = append(recs, &model.Record{Summary: model.Summary{ID: formatNum(float64(i)), Score: float64(i % 4), HasScore: i%7 != 0}})
	}
	ds := &model.Dataset{Records: model.NewMemIndex(recs)}
	for _, desc := range []bool{false, true} {
		rows := all(ds)
		Sort(Env{Dataset: ds}, rows, SortKey{"score", desc})
		seenMissing := false
		for k := 1; k < len(rows); k++ {
			a, b := ds.Records.Summary(rows[k-1]), ds.Records.Summary(rows[k])
			if !a.HasScore {
				seenMissing = true
			}
			if seenMissing && b.HasScore {
				t.Fatalf("desc=%v: scored record %s after an unscored one", desc, b.ID)
			}
			if a.HasScore && b.HasScore && a.Score == b.Score && rows[k-1] > rows[k] {
				t.Fatalf("desc=%v: not stable at %d", desc, k)
			}
			if !a.HasScore && !b.HasScore && rows[k-1] > rows[k] {
				t.Fatalf("desc=%v: missing values not stable at %d", desc, k)
			}
		}
	}
	rows := []int{150, 3, 77}
	Sort(Env{Dataset: ds}, rows, SortKey{"id", true})
	if rows[0] != 150 || rows[1] != 77 || rows[2] != 3 {
		t.Errorf("subset sort %v", rows)
	}
}

func TestCompareNatural(t *testing.T) {
	in := []string{"a10", "a2", "A1", "a1", "b", "", "a01", "10", "9", "x9y", "x10y", "Zed", "apple"}
	want := []string{"", "9", "10", "A1", "a1", "a01", "a2", "a10", "apple", "b", "x9y", "x10y", "Zed"}
	sort.Slice(in, func(i, j int) bool { return compareNatural(in[i], in[j]) < 0 })
	equalStrings(t, "natural order", in, want)
	for _, p := range [][2]string{{"a", "a"}, {"007", "007"}} {
		if compareNatural(p[0], p[1]) != 0 {
			t.Errorf("compareNatural(%q, %q) != 0", p[0], p[1])
		}
	}
	if (SortKey{"score", true}).String() != "score↓" || (SortKey{}).String() != "" {
		t.Error("SortKey.String")
	}
}
