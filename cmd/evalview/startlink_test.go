package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStartLinksNoEagerInit: Go initialises every package linked into the
// program before main runs, so a package whose init does heavy work
// delays every start, the browser's first screen included. These are not
// linked: Chroma's lexers (its init parses all 280 language definitions,
// about 5 ms; tui/highlight embeds the common ones and reads them at the
// first code block), Chroma's styles (parsed every style), glamour and
// its HTML sanitizer.
func TestStartLinksNoEagerInit(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to list the program's packages")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch {
		case pkg == "github.com/alecthomas/chroma/v2/lexers",
			pkg == "github.com/alecthomas/chroma/v2/styles",
			strings.HasPrefix(pkg, "charm.land/glamour"),
			strings.HasPrefix(pkg, "github.com/charmbracelet/glamour"),
			strings.HasPrefix(pkg, "github.com/microcosm-cc/bluemonday"):
			t.Errorf("%s is linked: its init runs at every start", pkg)
		}
	}
}
