package keys

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
)

// Names lists every binding's name as Override takes it: "group.binding"
// in lower case ("tools.sort", "nav.down"), sorted.
func (km *KeyMap) Names() []string {
	var out []string
	v := reflect.ValueOf(km).Elem()
	for g := 0; g < v.NumField(); g++ {
		gv := v.Field(g)
		if gv.Kind() != reflect.Struct {
			continue
		}
		for b := 0; b < gv.NumField(); b++ {
			if _, ok := gv.Field(b).Interface().(key.Binding); ok {
				out = append(out, strings.ToLower(v.Type().Field(g).Name+"."+gv.Type().Field(b).Name))
			}
		}
	}
	sort.Strings(out)
	return out
}

// Override replaces the keys of the binding called name (see Names); the
// help text shows the new keys. An unknown name or an empty key list is an
// error.
func (km *KeyMap) Override(name string, keys []string) error {
	group, binding, ok := strings.Cut(strings.ToLower(strings.TrimSpace(name)), ".")
	if !ok {
		return fmt.Errorf("key binding %q: want group.name, e.g. tools.sort", name)
	}
	if len(keys) == 0 {
		return fmt.Errorf("key binding %q: no keys given", name)
	}
	v := reflect.ValueOf(km).Elem()
	for g := 0; g < v.NumField(); g++ {
		if strings.ToLower(v.Type().Field(g).Name) != group || v.Field(g).Kind() != reflect.Struct {
			continue
		}
		gv := v.Field(g)
		for b := 0; b < gv.NumField(); b++ {
			if strings.ToLower(gv.Type().Field(b).Name) != binding {
				continue
			}
			kb, ok := gv.Field(b).Addr().Interface().(*key.Binding)
			if !ok {
				break
			}
			kb.SetKeys(keys...)
			kb.SetHelp(strings.Join(keys, "/"), kb.Help().Desc)
			return nil
		}
	}
	return fmt.Errorf("unknown key binding %q (known: %s)", name, strings.Join(km.Names(), ", "))
}
