package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestConfigKeyCollisions(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		p := filepath.Join(dir, "config.json")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	_, _, err := loadConfig(write(`{"keys": {"tools.sort": ["o"]}}`))
	if err == nil || !strings.Contains(err.Error(), "o is both tools.pager and tools.sort in the list") {
		t.Errorf("o on sort and on $PAGER: %v", err)
	}
	if _, _, err := loadConfig(write(`{"keys": {"tools.sort": ["o"], "tools.pager": ["O"]}}`)); err != nil {
		t.Errorf("a swap: %v", err)
	}
	_, errOut, code := runCmd(t, "--config", write(`{"keys": {"nav.down": ["k"]}}`), filepath.Join(fixtures, "two_filters"))
	if code != 2 || !strings.Contains(errOut, "k is both nav.down and nav.up") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// The config example of docs/browser.md is a config evalview accepts.
func TestReadmeConfigExample(t *testing.T) {
	b, err := os.ReadFile("../../docs/browser.md")
	if err != nil {
		t.Skip(err)
	}
	m := regexp.MustCompile("(?s)A config file.*?```json\n(.*?)\n```").FindSubmatch(b)
	if m == nil {
		t.Fatal("docs/browser.md has no config example")
	}
	p := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(p, m[1], 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := loadConfig(p); err != nil {
		t.Errorf("README example %s: %v", m[1], err)
	}
}

// An unknown --filter name is an error that names the filters (issue
// 15.8); the browser does not start.
func TestFilterFlagUnknown(t *testing.T) {
	_, errOut, code := runCmd(t, "--filter", "flexible", filepath.Join(fixtures, "two_filters"))
	if code != 2 || !strings.Contains(errOut, `--filter "flexible": no such filter; the filters are strict-match, flexible-extract`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// The config's threshold is the run zips' starting pass threshold where
// --threshold is not given, and a threshold off the 0-10 scale is
// refused at start.
func TestConfigThreshold(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config.json")
	if err := os.WriteFile(p, []byte(`{"threshold": 9}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, _, err := loadConfig(p)
	if err != nil || c.Threshold == nil || *c.Threshold != 9 {
		t.Errorf("threshold %v, %v", c.Threshold, err)
	}
	if err := os.WriteFile(p, []byte(`{"threshold": 11}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := loadConfig(p); err == nil || !strings.Contains(err.Error(), "threshold 11: want a score from 0 to 10") {
		t.Errorf("threshold 11: %v", err)
	}
}
