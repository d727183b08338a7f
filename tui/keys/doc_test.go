package keys

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/keys.md from the bindings")

// TestKeysDoc holds docs/keys.md to the bindings: a key added, removed
// or reworded without regenerating the page fails here.
func TestKeysDoc(t *testing.T) {
	km := DefaultKeyMap()
	want := km.Markdown()
	const path = "../../docs/keys.md"
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("docs/keys.md is not what the bindings give: run go test ./tui/keys -run TestKeysDoc -update and read the diff")
	}
	for _, sc := range km.Scopes() {
		if !strings.Contains(want, "## "+upperFirst(sc.Name)+"\n") {
			t.Errorf("room %q has no section", sc.Name)
		}
	}
}
