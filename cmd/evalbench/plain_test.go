package main

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// TestPlainFiles: the generated plain files are JSON Lines of the size
// asked for, and a second run reuses them rather than writing them again.
func TestPlainFiles(t *testing.T) {
	dir := t.TempDir()
	p, err := plainRecords(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); n++ {
		if !json.Valid(sc.Bytes()) {
			t.Errorf("line %d is not JSON: %s", n+1, sc.Text())
		}
	}
	if n != 3 {
		t.Errorf("%d lines, want 3", n)
	}
	if err := os.WriteFile(p, []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if again, err := plainRecords(dir, 3); err != nil || again != p {
		t.Fatalf("again: %s, %v", again, err)
	}
	if b, _ := os.ReadFile(p); string(b) != "kept\n" {
		t.Error("an existing file was written again")
	}
	line, err := plainLine(dir, 1000)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(line)
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Text string }
	if err := json.Unmarshal(b, &v); err != nil || len(v.Text) < 1000 {
		t.Errorf("the line: %d bytes of text, %v", len(v.Text), err)
	}
	if _, err := os.Stat(line + ".part"); !os.IsNotExist(err) {
		t.Errorf("the .part file is left: %v", err)
	}
}
