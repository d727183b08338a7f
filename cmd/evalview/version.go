package main

import (
	"runtime/debug"
	"strings"
)

// version, commit and date are stamped at build time by a release
// build (.goreleaser.yaml: -X main.version=... -X main.commit=...
// -X main.date=...). A plain `go build` or `go install` from a clone
// leaves them empty, and versionString reads the commit and its time
// from the build information Go records of the checkout instead.
var (
	version = "0.1.0-dev"
	commit  = ""
	date    = ""
)

// versionString is what --version prints after "evalview version ":
// the version, then the commit and build date when known ("1.2.0
// (commit 3713e30, built 2026-12-01T22:00:00Z)"), "+dirty" when the
// checkout had changes.
func versionString() string {
	c, d, dirty := commit, date, false
	if c == "none" || c == "unknown" {
		c = "" // goreleaser's stamp where git could not tell
	}
	if info, ok := debug.ReadBuildInfo(); ok && c == "" {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				c = s.Value
			case "vcs.time":
				if d == "" {
					d = s.Value
				}
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if len(c) > 12 {
		c = c[:12]
	}
	var parts []string
	if c != "" {
		if dirty {
			c += "+dirty"
		}
		parts = append(parts, "commit "+c)
	}
	if d != "" {
		parts = append(parts, "built "+d)
	}
	if len(parts) == 0 {
		return version
	}
	return version + " (" + strings.Join(parts, ", ") + ")"
}
