package keyhelp

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"evalview/tui/styles"
	"evalview/tui/ui"
)

// shownThrough are the bindings `?` shows through another one while
// their keys are among its keys: the list's tab keys are the detail's
// without its letters.
var shownThrough = map[string]string{"list.prevtab": "detail.prevtab", "list.nexttab": "detail.nexttab"}

// marked gives every binding of c's key map a description naming it
// ("‹tools.sort›") and enables it, and returns the names.
func marked(c *ui.Common) []string {
	var names []string
	v := reflect.ValueOf(c.Keys).Elem()
	for g := 0; g < v.NumField(); g++ {
		gv := v.Field(g)
		for i := 0; i < gv.NumField(); i++ {
			b, ok := gv.Field(i).Addr().Interface().(*key.Binding)
			if !ok {
				continue
			}
			name := strings.ToLower(v.Type().Field(g).Name + "." + gv.Type().Field(i).Name)
			b.SetHelp(b.Help().Key, "‹"+name+"›")
			b.SetEnabled(true)
			names = append(names, name)
		}
	}
	return names
}

// shown are the names of the bindings `?` lists (a description the
// overlay rewrote, as "unselect all" for Search.Cancel, names none).
func shown(c *ui.Common) map[string]bool {
	out := map[string]bool{}
	for _, g := range Groups(c) {
		for _, b := range g.Bindings {
			d := b.Help().Desc
			if i, j := strings.Index(d, "‹"), strings.Index(d, "›"); i >= 0 && j > i {
				out[d[i+len("‹"):j]] = true
			}
		}
	}
	return out
}

// TestEveryBindingInHelp: every binding of tui/keys, the sheets' and the
// prompts' included, is in `?` where the key that opens its room works,
// so that no key the browser answers to is missing from the overlay.
func TestEveryBindingInHelp(t *testing.T) {
	c := ui.NewCommon(styles.Plain())
	names := marked(c)
	if len(names) < 100 {
		t.Fatalf("only %d bindings found in the key map", len(names))
	}
	got := shown(c)
	for _, n := range names {
		if got[n] {
			continue
		}
		if via := shownThrough[n]; via != "" && got[via] {
			continue
		}
		t.Errorf("binding %s is not in ?", n)
	}
}

// TestListTabKeysOverridden: the list's tab keys, once given keys the
// detail's tab keys do not have, are listed in `?` under their own keys;
// the title names the keys that work only in the detail.
func TestListTabKeysOverridden(t *testing.T) {
	c := ui.NewCommon(styles.Plain())
	tabs := Groups(c)[2]
	if tabs.Title != "Tabs (h, l only in the detail pane)" || len(tabs.Bindings) != 6 {
		t.Fatalf("default tabs group %q with %d bindings", tabs.Title, len(tabs.Bindings))
	}
	if err := c.Keys.Override("list.prevtab", []string{"ctrl+p"}); err != nil {
		t.Fatal(err)
	}
	tabs = Groups(c)[2]
	var helps []string
	for _, b := range tabs.Bindings {
		helps = append(helps, b.Help().Key+" "+b.Help().Desc)
	}
	if !slices.Contains(helps, "ctrl+p previous tab (in the list)") {
		t.Errorf("the overridden list key is not in ?: %q", helps)
	}
	if tabs.Title != "Tabs ([, h, l only in the detail pane)" {
		t.Errorf("title %q", tabs.Title)
	}
}

// TestUnselectKeyFollowsOverride: the key `?` names for unselecting is
// the one the list answers to (Search.Cancel), overridden or not.
func TestUnselectKeyFollowsOverride(t *testing.T) {
	c := ui.NewCommon(styles.Plain())
	if err := c.Keys.Override("search.cancel", []string{"ctrl+g"}); err != nil {
		t.Fatal(err)
	}
	for _, g := range Groups(c) {
		if !strings.HasPrefix(g.Title, "Select") {
			continue
		}
		last := g.Bindings[len(g.Bindings)-1]
		if last.Help().Key != "ctrl+g" || last.Help().Desc != "unselect all" {
			t.Errorf("unselect shown as %q %q", last.Help().Key, last.Help().Desc)
		}
		return
	}
	t.Fatal("no Select group")
}
