package keys

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
)

// Names lists every binding's name as Override takes it: "group.binding"
// in lower case ("tools.sort", "nav.down"), sorted.
func (km *KeyMap) Names() []string {
	var out []string
	km.each(func(name string, _ *key.Binding) { out = append(out, name) })
	sort.Strings(out)
	return out
}

// aliases are the names bindings had before they were renamed, and the
// name each has now: a config file written for an older evalview keeps
// working (config files are a contract). A binding renamed keeps its old
// name here for good.
var aliases = map[string]string{
	// h and l joined the arrows in the list and the filter comparison
	// (one meaning per key: h/l and the arrows move across everywhere).
	"list.columnleft":  "list.left",
	"list.columnright": "list.right",
	"compare.prevcell": "compare.left",
	"compare.nextcell": "compare.right",
}

// Canonical is the name a binding goes by now: name itself, or the new
// name of a renamed binding (aliases), lower case and trimmed.
func Canonical(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if to, ok := aliases[n]; ok {
		return to
	}
	return n
}

// Override replaces the keys of the binding called name (see Names; the
// old name of a renamed binding works too); the help text shows the new
// keys. An unknown name or an empty key list is an error.
func (km *KeyMap) Override(name string, keys []string) error {
	want := Canonical(name)
	if !strings.Contains(want, ".") {
		return fmt.Errorf("key binding %q: want group.name, e.g. tools.sort", name)
	}
	if len(keys) == 0 {
		return fmt.Errorf("key binding %q: no keys given", name)
	}
	var found *key.Binding
	km.each(func(n string, b *key.Binding) {
		if n == want {
			found = b
		}
	})
	if found == nil {
		return fmt.Errorf("unknown key binding %q (known: %s)", name, strings.Join(km.Names(), ", "))
	}
	found.SetKeys(keys...)
	found.SetHelp(strings.Join(keys, "/"), found.Help().Desc)
	return nil
}

// Apply overrides the bindings named in overrides (name -> keys), then
// checks that no key is left bound twice in one room. It returns every
// problem found, or nil.
func (km *KeyMap) Apply(overrides map[string][]string) error {
	if len(overrides) == 0 {
		// The default bindings never collide (TestNoKeyIsBoundTwiceInAScope);
		// checking them again cost every start a tenth of its first frame.
		return nil
	}
	names := make([]string, 0, len(overrides))
	by := map[string]string{} // canonical name -> the name the config gave
	var errs []error
	for n := range overrides {
		names = append(names, n)
	}
	sort.Strings(names) // the same errors in the same order, run after run
	for _, n := range names {
		c := Canonical(n)
		if prev, ok := by[c]; ok {
			errs = append(errs, fmt.Errorf("key bindings %q and %q are the same binding (%s): give its keys once", prev, n, c))
			continue
		}
		by[c] = n
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	for _, n := range names {
		if err := km.Override(n, overrides[n]); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	for _, c := range km.Collisions() {
		errs = append(errs, errors.New("key "+c+": give one of them other keys"))
	}
	return errors.Join(errs...)
}
