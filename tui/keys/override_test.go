package keys

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestOverride(t *testing.T) {
	km := DefaultKeyMap()
	if err := km.Override("Tools.Sort", []string{"o", "ctrl+s"}); err != nil {
		t.Fatal(err)
	}
	if !key.Matches(tea.KeyPressMsg{Code: 'o', Text: "o"}, km.Tools.Sort) || key.Matches(tea.KeyPressMsg{Code: 's', Text: "s"}, km.Tools.Sort) {
		t.Errorf("keys after override: %v", km.Tools.Sort.Keys())
	}
	if h := km.Tools.Sort.Help(); h.Key != "o/ctrl+s" || h.Desc != "sort by the column (h/l)" {
		t.Errorf("help %+v", h)
	}
	for _, bad := range []string{"tools.nope", "sort", "nope.sort"} {
		if err := km.Override(bad, []string{"x"}); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if err := km.Override("nav.down", nil); err == nil {
		t.Error("empty keys: no error")
	}
	names := strings.Join(km.Names(), " ")
	for _, n := range []string{"global.quit", "tools.query", "nav.down", "list.open"} {
		if !strings.Contains(names, n) {
			t.Errorf("Names lacks %s: %s", n, names)
		}
	}
}

// A renamed binding keeps its old name: a config file written before the
// rename overrides the binding it names now.
func TestOldNamesStillOverride(t *testing.T) {
	for old, now := range aliases {
		km := DefaultKeyMap()
		if err := km.Apply(map[string][]string{old: {"ctrl+o"}}); err != nil {
			t.Errorf("%s: %v", old, err)
			continue
		}
		var got []string
		km.each(func(n string, b *key.Binding) {
			if n == now {
				got = b.Keys()
			}
		})
		if len(got) != 1 || got[0] != "ctrl+o" {
			t.Errorf("%s did not override %s: %v", old, now, got)
		}
	}
	km := DefaultKeyMap()
	if err := km.Apply(map[string][]string{"list.columnleft": {"ctrl+o"}, "list.left": {"ctrl+p"}}); err == nil ||
		!strings.Contains(err.Error(), "same binding (list.left)") {
		t.Errorf("the old and the new name given at once: %v", err)
	}
	if Canonical(" List.ColumnRight ") != "list.right" || Canonical("tools.sort") != "tools.sort" {
		t.Error("Canonical")
	}
}

// h and l move across in every room where they do anything, as the
// arrows do: no room gives them another meaning (l labelled in the list,
// so l to move right then h typed into a label prompt).
func TestHAndLOnlyMove(t *testing.T) {
	km := DefaultKeyMap()
	names := km.bindingNames()
	moving := map[string]bool{
		"list.left": true, "list.right": true, "detail.prevtab": true, "detail.nexttab": true,
		"overview.left": true, "overview.right": true, "runs.left": true, "runs.right": true,
		"compare.left": true, "compare.right": true, "facets.prevfield": true, "facets.nextfield": true,
	}
	for _, sc := range km.Scopes() {
		for _, b := range sc.Bindings {
			for _, k := range b.Keys() {
				if (k == "h" || k == "l" || k == "left" || k == "right") && !moving[names[b]] {
					t.Errorf("%s is %s in the %s, not a move", k, names[b], sc.Name)
				}
			}
		}
	}
	for _, pair := range [][2]*key.Binding{{&km.List.Left, &km.List.Right}, {&km.Detail.PrevTab, &km.Detail.NextTab},
		{&km.Overview.Left, &km.Overview.Right}, {&km.Runs.Left, &km.Runs.Right}, {&km.Compare.Left, &km.Compare.Right}} {
		if !Has(*pair[0], keyMsg("h")) || !Has(*pair[0], tea.KeyPressMsg{Code: tea.KeyLeft}) ||
			!Has(*pair[1], keyMsg("l")) || !Has(*pair[1], tea.KeyPressMsg{Code: tea.KeyRight}) {
			t.Errorf("%s/%s: h/← and l/→ do not both move", names[pair[0]], names[pair[1]])
		}
	}
}
