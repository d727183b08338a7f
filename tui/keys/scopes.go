package keys

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
)

// Scope is a set of bindings live at the same time, in one room: a key
// may belong to one of them only, or the room could not tell which the
// user meant.
type Scope struct {
	Name     string
	Bindings []*key.Binding
}

// shared are pairs of bindings that have a key in common on purpose. v
// compares an lm-eval task's filters and draws a scored run's histogram:
// a dataset has filters or a score scale (a format with both gets the
// comparison), so v is "how the answers fare" for every dataset. (b was
// page up and a sheet's own key in two rooms; it is page up only now.)
var shared = [][2]string{{"compare.filters", "run.distribution"}}

// Scopes lists the rooms' scopes. Each room's Update matches only the
// bindings of its scope; `?` (Global.Help) and ctrl+c (Global.ForceQuit)
// are live in every room that has them listed.
func (km *KeyMap) Scopes() []Scope {
	g, n, d, t, r, c := &km.Global, &km.Nav, &km.Detail, &km.Tools, &km.Run, &km.Compare
	nav := []*key.Binding{&n.Up, &n.Down, &n.PageUp, &n.PageDown, &n.HalfUp, &n.HalfDown, &n.Top, &n.Bottom}
	upDown := []*key.Binding{&n.Up, &n.Down, &n.Top, &n.Bottom}
	browse := []*key.Binding{&g.Quit, &g.ForceQuit, &g.Help, &g.FocusNext, &g.FocusPrev, &g.CycleFilter, &g.WrongOnly, &g.Zoom,
		&g.SplitLeft, &g.SplitRight, &km.Search.Start, &km.Search.Next, &km.Search.Prev, &km.Dataset.Next, &km.Dataset.Prev, &km.Dataset.Picker,
		&d.Tab, &d.Markdown, &c.Filters, &c.Slices, &c.Runs,
		&t.Query, &t.Sort, &t.Reverse, &t.Columns, &t.Facets, &t.Copy, &t.CopyPath, &t.Pager, &t.Editor, &t.Export,
		&t.Annotate, &t.Reload, &t.Follow,
		&r.Pair, &r.LeftPrev, &r.LeftNext, &r.RightPrev, &r.RightNext, &r.Threshold, &r.ThresholdUp, &r.ThresholdDn,
		&r.HighScore, &r.Distribution, &r.Info, &km.Overview.Open}
	browse = append(browse, nav...)
	sheet := func(own ...*key.Binding) []*key.Binding {
		return append(own, &g.Help, &g.ForceQuit, &km.Overview.Open)
	}
	o := &km.Overview
	edit := []*key.Binding{&km.Edit.DeleteChar, &km.Edit.DeleteWord, &km.Edit.Clear, &g.ForceQuit}
	return []Scope{
		{"list", append(slices.Clone(browse), &km.List.Open, &km.List.PrevTab, &km.List.NextTab, &t.Label,
			&km.List.Select, &km.List.SelectRange, &km.List.SelectAll, &km.List.RepeatLabel, &km.List.Left, &km.List.Right)},
		{"detail", append(slices.Clone(browse), &d.PrevTab, &d.NextTab, &d.Fold, &d.Back, &d.LastTurn)},
		{"search", append(slices.Clone(edit), &km.Search.Confirm, &km.Search.Cancel)},
		{"prompt", append(slices.Clone(edit), &km.Prompt.Submit, &km.Prompt.Cancel, &km.Prompt.Complete, &km.Prompt.CompletePrev)},
		{"help", append(slices.Clone(nav), &g.Help, &d.Back, &g.Quit, &g.ForceQuit)},
		{"dataset picker", append(slices.Clone(nav), &km.Dataset.Choose, &km.Dataset.Close, &km.Dataset.Filter, &g.Quit, &g.ForceQuit, &o.Open)},
		{"overview", sheet(append(slices.Clone(nav), &o.Left, &o.Right, &o.Sort, &o.Reverse, &o.Baseline, &o.Stderr, &o.Fold,
			&o.FoldAll, &o.Filter, &o.Choose, &o.Wrong, &o.Compare, &o.Reruns, &o.Expand, &o.Empty, &o.Close, &g.Quit, &km.Dataset.Picker)...)},
		{"compare many runs", sheet(append(slices.Clone(nav), &km.Runs.Left, &km.Runs.Right, &km.Runs.Flips, &km.Runs.Choose,
			&km.Runs.Close, &g.Quit)...)},
		{"typed filter", append(slices.Clone(edit), &km.Search.Confirm, &km.Search.Cancel)},
		{"facets", sheet(append(slices.Clone(nav), &km.Facets.NextField, &km.Facets.PrevField, &km.Facets.Choose, &km.Facets.Close)...)},
		{"columns", sheet(append(slices.Clone(upDown), &km.Columns.Toggle, &km.Columns.Earlier, &km.Columns.Later,
			&km.Columns.Defaults, &km.Columns.Close)...)},
		{"compare filters", sheet(append(slices.Clone(upDown), &c.PickA, &c.PickB, &c.Choose, &c.Close, &c.Left, &c.Right)...)},
		{"slices", sheet(append(slices.Clone(nav), &c.Field, &c.Choose, &c.Close)...)},
		{"compare runs", sheet(append(slices.Clone(nav), &c.PickB, &c.Choose, &c.Close)...)},
		{"score distribution", sheet(append(slices.Clone(nav), &km.Scores.Choose, &km.Scores.Close, &r.Threshold,
			&r.ThresholdUp, &r.ThresholdDn)...)},
		{"facts", sheet(append(slices.Clone(nav), &km.Facts.Close)...)},
	}
}

// Collisions lists, for each scope, the keys bound to two of its
// bindings ("o is both tools.sort and tools.pager in the list"), sorted;
// none for the defaults. The bindings of a shared pair do not collide
// with each other.
func (km *KeyMap) Collisions() []string {
	names := km.bindingNames()
	var out []string
	for _, sc := range km.Scopes() {
		owner := map[string]string{}
		for _, b := range sc.Bindings {
			name := names[b]
			for _, k := range b.Keys() {
				prev, ok := owner[k]
				switch {
				case !ok:
					owner[k] = name
				case prev != name && !isShared(prev, name):
					a, b := min(prev, name), max(prev, name)
					out = append(out, fmt.Sprintf("%s is both %s and %s in the %s", k, a, b, sc.Name))
				}
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

func isShared(a, b string) bool {
	for _, p := range shared {
		if p == [2]string{a, b} || p == [2]string{b, a} {
			return true
		}
	}
	return false
}

// bindingNames maps each binding of km to its name ("tools.sort").
func (km *KeyMap) bindingNames() map[*key.Binding]string {
	out := map[*key.Binding]string{}
	km.each(func(name string, b *key.Binding) { out[b] = name })
	return out
}

// each calls f with every binding of km and its name, group by group.
func (km *KeyMap) each(f func(name string, b *key.Binding)) {
	v := reflect.ValueOf(km).Elem()
	for g := 0; g < v.NumField(); g++ {
		gv := v.Field(g)
		if gv.Kind() != reflect.Struct {
			continue
		}
		for i := 0; i < gv.NumField(); i++ {
			if b, ok := gv.Field(i).Addr().Interface().(*key.Binding); ok {
				f(strings.ToLower(v.Type().Field(g).Name+"."+gv.Type().Field(i).Name), b)
			}
		}
	}
}
