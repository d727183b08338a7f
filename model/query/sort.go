package query

import (
	"sort"
	"strings"

	"evalview/model"
)

// SortKey is the list order: a column (any field name: id, title, status,
// score, errors, attempts, a label field...) and its direction.
type SortKey struct {
	Column string
	Desc   bool
}

// String returns the key as the status bar shows it ("score↓").
func (k SortKey) String() string {
	if k.Column == "" {
		return ""
	}
	if k.Desc {
		return k.Column + "↓"
	}
	return k.Column + "↑"
}

// sortItem is one row with its extracted sort value.
type sortItem struct {
	row     int
	missing bool
	num     float64
	str     string
}

// Sort orders rows (indices into env.Dataset) by key.Column, in place. The
// sort is stable, and records without a value (unscored, no label) come
// last in both directions. Text compares in natural order (id "2" before
// "10", case ignored); status orders pass, fail, error with unscored as
// missing; multi-valued fields sort by their values joined in order. An
// empty column keeps the order; an unknown one counts as a missing label.
func Sort(env Env, rows []int, key SortKey) {
	if key.Column == "" || env.Dataset == nil || env.Dataset.Records == nil || len(rows) < 2 {
		return
	}
	f := resolveField(key.Column)
	items := make([]sortItem, len(rows))
	for k, i := range rows {
		s := env.Summary(i)
		r := rec{s: &s, ds: env.Dataset, fi: env.Filter, notes: env.Notes, note: &noteState{idx: -1}}
		items[k] = sortValue(&r, f)
		items[k].row = i
	}
	numeric := f.typ == tNumber || f.kind == fStatus
	sort.SliceStable(items, func(a, b int) bool {
		x, y := &items[a], &items[b]
		if x.missing || y.missing {
			return !x.missing && y.missing
		}
		var c int
		if numeric {
			c = cmpFloat(x.num, y.num)
		} else {
			c = compareNatural(x.str, y.str)
		}
		if key.Desc {
			return c > 0
		}
		return c < 0
	})
	for k := range items {
		rows[k] = items[k].row
	}
}

func sortValue(r *rec, f fieldRef) sortItem {
	switch {
	case f.kind == fStatus:
		st := r.s.Outcome(r.fi).Status
		return sortItem{num: float64(st), missing: st == model.StatusUnscored}
	case f.typ == tNumber:
		v, ok := r.num(f)
		return sortItem{num: v, missing: !ok}
	case f.typ == tMulti:
		var vals []string
		r.each(f, func(v string, _ int) bool { vals = append(vals, v); return false })
		sort.Slice(vals, func(i, j int) bool { return compareNatural(vals[i], vals[j]) < 0 })
		return sortItem{str: strings.Join(vals, ","), missing: len(vals) == 0}
	}
	v, ok := r.text(f)
	return sortItem{str: v, missing: !ok}
}
