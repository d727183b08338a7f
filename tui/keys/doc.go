package keys

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
)

// Markdown is the keys reference (docs/keys.md): for each room, its
// bindings as `?` shows them (the keys and what they do) with the name a
// config file overrides them by. It is generated from the same bindings
// the rooms match and `?` draws, and a test holds docs/keys.md to it, so
// that the documentation cannot drift from the keys.
func (km *KeyMap) Markdown() string {
	names := km.bindingNames()
	var b strings.Builder
	b.WriteString("# Keys\n\n")
	b.WriteString("<!-- Generated from tui/keys by `go test ./tui/keys -run TestKeysDoc -update`; do not edit by hand. -->\n\n")
	b.WriteString("Every key of the browser, room by room, as `?` shows them where you are. ")
	b.WriteString("The name in the last column is what a config file overrides a binding by ")
	b.WriteString("(`{\"keys\": {\"tools.sort\": [\"o\"]}}`; see [browser.md](browser.md)). ")
	b.WriteString("A room lists every key live in it, the shared ones included; `ctrl+c` quits from anywhere.\n")
	for _, sc := range km.Scopes() {
		fmt.Fprintf(&b, "\n## %s\n\n", upperFirst(sc.Name))
		b.WriteString("| keys | does | name |\n| --- | --- | --- |\n")
		for _, bd := range sc.Bindings {
			fmt.Fprintf(&b, "| %s | %s | `%s` |\n", keyCell(bd), cell(bd.Help().Desc), names[bd])
		}
	}
	b.WriteString("\n## Old names\n\n")
	b.WriteString("A binding that was renamed keeps its old name: a config file that uses it overrides the binding it names now.\n\n")
	b.WriteString("| old name | name now |\n| --- | --- |\n")
	old := make([]string, 0, len(aliases))
	for n := range aliases {
		old = append(old, n)
	}
	sort.Strings(old)
	for _, n := range old {
		fmt.Fprintf(&b, "| `%s` | `%s` |\n", n, aliases[n])
	}
	return b.String()
}

// keyCell is a binding's keys as a table cell: each key in code, the
// help's own spelling first when it names them together ("↑/k").
func keyCell(bd *key.Binding) string {
	ks := bd.Keys()
	if len(ks) == 0 {
		return cell(bd.Help().Key)
	}
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = "`" + strings.ReplaceAll(k, "`", "\\`") + "`"
	}
	return strings.ReplaceAll(strings.Join(parts, ", "), "|", "\\|")
}

// cell escapes text for a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ")
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
