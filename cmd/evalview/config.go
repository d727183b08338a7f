package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"evalview/internal/xdg"
	"evalview/tui"
	"evalview/tui/keys"
)

// config is the browser's config file, JSON:
//
//	{
//	  "theme": "light",
//	  "notes": "~/eval-notes.jsonl",
//	  "threshold": 9,
//	  "keys": {"tools.sort": ["o"], "tools.pager": ["O"], "global.quit": ["q", "ctrl+q"]}
//	}
//
// Flags given on the command line win over the file.
type config struct {
	Theme string `json:"theme"`
	Notes string `json:"notes"`
	// Threshold is the run zips' starting pass threshold, as --threshold
	// (a status is declared: by the run's scores_map, this, or the flag).
	Threshold *float64            `json:"threshold"`
	Keys      map[string][]string `json:"keys"`
}

// defaultConfigPath is $XDG_CONFIG_HOME/evalview/config.json, with
// ~/.config when XDG_CONFIG_HOME is unset.
func defaultConfigPath() string {
	dir, err := xdg.Dir("XDG_CONFIG_HOME", ".config")
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "evalview", "config.json")
}

// loadConfig reads the config file at path ("" = the default path, which
// may be missing). A file given explicitly must exist.
func loadConfig(path string) (config, string, error) {
	explicit := path != ""
	if !explicit {
		path = defaultConfigPath()
	}
	var c config
	if path == "" {
		return c, "", nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return c, "", nil
	}
	if err != nil {
		return c, path, fmt.Errorf("config: %w", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, path, fmt.Errorf("config %s: %w", path, err)
	}
	switch strings.ToLower(c.Theme) {
	case "", "auto", "dark", "light":
	default:
		return c, path, fmt.Errorf("config %s: unknown theme %q (want auto, dark or light)", path, c.Theme)
	}
	if t := c.Threshold; t != nil && (*t < 0 || *t > 10) {
		return c, path, fmt.Errorf("config %s: threshold %v: want a score from 0 to 10", path, *t)
	}
	// Unknown names, and overrides that leave a key bound twice in one
	// room (one of the two would never run), are refused at start.
	km := keys.DefaultKeyMap()
	if err := km.Apply(c.Keys); err != nil {
		return c, path, fmt.Errorf("config %s: %w", path, err)
	}
	return c, path, nil
}

// applyConfig folds the config file into the browser's options; flags set
// on the command line win.
func applyConfig(cmd *cobra.Command, opts *tui.Options, path string, _ io.Writer) error {
	c, _, err := loadConfig(path)
	if err != nil {
		return err
	}
	if c.Theme != "" && !cmd.Flags().Changed("theme") {
		opts.Theme = c.Theme
	}
	if c.Threshold != nil && !cmd.Flags().Changed("threshold") {
		opts.Threshold = *c.Threshold
	}
	opts.Keys = c.Keys
	return nil
}

// configNotesPath is the notes file from the config, used when --notes
// is not given.
func configNotesPath(path string) string {
	c, _, err := loadConfig(path)
	if err != nil {
		return ""
	}
	return expandHome(c.Notes)
}

// expandHome replaces a leading ~/ with the home folder.
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}
