// Package xdg finds the user's base folders as the XDG Base Directory
// specification names them (config, cache, state), which the command's
// config file, the remote block cache, the notes' fallback folder and the
// Hugging Face token lookup each resolved with a copy of the same lines.
package xdg

import (
	"os"
	"path/filepath"
)

// Dir is the folder the environment variable env names ($XDG_CACHE_HOME,
// $XDG_CONFIG_HOME, $XDG_STATE_HOME), or fallback (".cache") under the
// home folder when it is unset. err is set when the home folder is
// unknown; dir is then fallback alone, relative.
func Dir(env, fallback string) (dir string, err error) {
	if d := os.Getenv(env); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	return filepath.Join(home, fallback), err
}
