package xdg

import (
	"path/filepath"
	"runtime"
	"testing"
)

func TestDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/x/cache")
	if d, err := Dir("XDG_CACHE_HOME", ".cache"); d != "/x/cache" || err != nil {
		t.Errorf("set: %q %v", d, err)
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "/home/u")
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("the home folder is not $HOME here")
	}
	if d, err := Dir("XDG_CACHE_HOME", ".cache"); d != filepath.Join("/home/u", ".cache") || err != nil {
		t.Errorf("unset: %q %v", d, err)
	}
	t.Setenv("HOME", "")
	if d, err := Dir("XDG_CACHE_HOME", ".cache"); d != ".cache" || err == nil {
		t.Errorf("no home: %q %v, want the fallback alone and an error", d, err)
	}
}
