package jsonl

import (
	"bytes"
	"strings"
	"testing"
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
