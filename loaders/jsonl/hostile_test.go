package jsonl

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evalview/internal/testos"
)

// TestDeepNesting runs every skimming entry point over input nested
// 100,000 deep, closed and unclosed, arrays and objects: each returns (an
// error or a result) without overflowing the stack.
func TestDeepNesting(t *testing.T) {
	const depth = 100_000
	inputs := map[string][]byte{
		"arrays":          []byte(`{"x": ` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`),
		"objects":         []byte(strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)),
		"unclosed":        []byte(`{"x": ` + strings.Repeat("[", depth)),
		"array of arrays": []byte(`[` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `]`),
		"mixed":           []byte(`[` + strings.Repeat(`{"a":[`, depth/2)),
	}
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			err := Skim(data, func(Field) error { return nil })
			if name != "array of arrays" && name != "mixed" && (err == nil || !strings.Contains(err.Error(), "nested too deeply") && name != "unclosed") {
				t.Errorf("Skim: %v, want a nesting error", err)
			}
			_ = EachElement(data, func(int, []byte) error { return nil })
			CountElements(data)
			if _, ok := ParseObject(data); ok {
				t.Error("ParseObject accepted input nested past the limit")
			}
			SplitArray(data)
			KindOf(data)
			Compact(data)
			Pretty(data)
			n := 0
			ScanLines(bytes.NewReader(data), func(Line) error { n++; return nil })
			if n != 1 {
				t.Errorf("ScanLines: %d lines", n)
			}
		})
	}
}

// TestReadRegular: a file read whole is read only when regular and
// within the limit; a larger one (a sparse file declaring far more than
// its disk holds) is refused before anything is allocated, naming its
// size and the limit, and a FIFO unopened.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.json")
	if err := os.WriteFile(p, []byte(`{"a": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadRegular(p, 8); err != nil || string(b) != `{"a": 1}` {
		t.Errorf("within the limit: %q, %v", b, err)
	}
	if _, err := ReadRegular(p, 7); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "the file is 8 bytes; evalview reads it whole, and only up to 7 bytes") {
		t.Errorf("past the limit: %v", err)
	}
	sparse := filepath.Join(dir, "sparse.json")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil {
		t.Skip("no sparse files here:", err)
	}
	f.Close()
	if _, err := ReadRegular(sparse, 512<<20); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "the file is 1048576 MB") {
		t.Errorf("a sparse terabyte: %v", err)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := testos.Mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if _, err := ReadRegular(fifo, 1<<20); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a FIFO: %v", err)
	}
}
