package lmeval

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestArenaTextMatchesJSON: textArena.text decodes exactly what
// encoding/json does, and every text of a doc stays intact while the doc's
// later texts are decoded (the arena's buffer grows and moves under them).
func TestArenaTextMatchesJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	pieces := []string{`\n`, `\"`, `\\`, `\u0041`, `\ud83d\ude00`, `\ud800`, "é", "\xff", "\x1f", "a", " ", `\t`, `\/`, `\x`, "The answer is 42."}
	var a textArena
	for doc := range 50 {
		a.reset(rng.IntN(64)) // often too small: the buffer must grow
		var lits, wants, gots []string
		var oks []bool
		for range 40 {
			var b strings.Builder
			b.WriteByte('"')
			for k := rng.IntN(12); k > 0; k-- {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			b.WriteByte('"')
			lit := b.String()
			var want string
			wantErr := json.Unmarshal([]byte(lit), &want)
			got, ok := a.text([]byte(lit))
			if ok != (wantErr == nil) {
				t.Fatalf("doc %d: text(%q) ok %v, encoding/json error %v", doc, lit, ok, wantErr)
			}
			lits, wants, gots, oks = append(lits, lit), append(wants, want), append(gots, got), append(oks, ok)
		}
		for k := range lits {
			if oks[k] && gots[k] != wants[k] {
				t.Fatalf("doc %d: text(%q) = %q at the doc's end, want %q", doc, lits[k], gots[k], wants[k])
			}
		}
	}
}

// TestArenaTextSharesRow: a text without escapes is the row's own bytes
// (no copy), and one with escapes does not point into the row.
func TestArenaTextSharesRow(t *testing.T) {
	var a textArena
	a.reset(0)
	row := []byte(`"plain text"`)
	s, ok := a.text(row)
	if !ok || s != "plain text" {
		t.Fatalf("text = %q, %v", s, ok)
	}
	row[1] = 'P'
	if s != "Plain text" {
		t.Errorf("text without escapes should share the row's bytes, got %q", s)
	}
	row = []byte(`"two\nlines"`)
	s, _ = a.text(row)
	copy(row, `"xxxxxxxxxxx`)
	if s != "two\nlines" {
		t.Errorf("text with escapes changed with the row: %q", s)
	}
}
