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

// TestRepeatStringsMatchesRepeatTexts: where the one-pass walk answers,
// it gives exactly the texts repeatTexts (encoding/json's decoding) gives,
// on random resps of strings, nested lists, pairs, escapes, non-ASCII,
// invalid UTF-8, control bytes and broken syntax; and it answers for the
// common plain and escaped lists.
func TestRepeatStringsMatchesRepeatTexts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	pieces := []string{`\n`, `\"`, `\\`, `\u0041`, `\ud83d\ude00`, "é", "\xff", "\x1f", "a", " ", `\t`, `\/`, `\x`, "The answer is 42."}
	str := func() string {
		var b strings.Builder
		b.WriteByte('"')
		for k := rng.IntN(8); k > 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		b.WriteByte('"')
		return b.String()
	}
	elem := func() string {
		switch rng.IntN(6) {
		case 0:
			n := rng.IntN(3) + 1
			parts := make([]string, n)
			for k := range parts {
				parts[k] = str()
			}
			return "[" + strings.Join(parts, ", ") + "]"
		case 1:
			return []string{"1", "null", `{"a": 1}`, `[1, "x"]`}[rng.IntN(4)]
		}
		return str()
	}
	answered := 0
	for range 5000 {
		n := rng.IntN(5)
		parts := make([]string, n)
		for k := range parts {
			parts[k] = elem()
		}
		sep := []string{",", ", ", " ,\n "}[rng.IntN(3)]
		resps := "[" + strings.Join(parts, sep) + "]"
		switch rng.IntN(20) {
		case 0:
			resps = resps[:rng.IntN(len(resps))]
		case 1:
			resps = " " + resps + " \n"
		case 2:
			resps = strings.Replace(resps, ",", "", 1)
		}
		if checkWalk(t, resps) {
			answered++
		}
	}
	if answered < 500 {
		t.Fatalf("the walk answered only %d resps", answered)
	}
	var a textArena
	for _, resps := range []string{`["The answer is 4.", "two\nlines \"q\""]`, `[["a", "b", "c"]]`, `[]`} {
		a.reset(len(resps))
		if _, ok := a.repeatStrings(nil, []byte(resps)); !ok {
			t.Errorf("%s: the walk declined", resps)
		}
	}
}

// FuzzRepeatStrings: the one-pass walks never disagree with repeatTexts.
func FuzzRepeatStrings(f *testing.F) {
	f.Add(`["The answer is 4.", "a\nb"]`)
	f.Add(`[["x", "y"], ["z"]]`)
	f.Fuzz(func(t *testing.T, resps string) { checkWalk(t, resps) })
}

// checkWalk runs the arena's walk and the in-place one on resps and
// requires repeatTexts's texts wherever they answer; it reports whether
// the arena's walk answered.
func checkWalk(t *testing.T, resps string) bool {
	t.Helper()
	var a textArena
	a.reset(len(resps))
	got, ok := a.repeatStrings(nil, []byte(resps))
	inPlace, inOK := repeatStringsInPlace(nil, []byte(resps))
	want, wantOK := repeatTexts(nil, []byte(resps))
	for _, w := range []struct {
		name  string
		texts []string
		ok    bool
	}{{"walk", got, ok}, {"in-place walk", inPlace, inOK}} {
		if !w.ok {
			continue
		}
		if !wantOK || len(w.texts) != len(want) {
			t.Fatalf("%q: %s %q, repeatTexts %q (%v)", resps, w.name, w.texts, want, wantOK)
		}
		for k := range w.texts {
			if w.texts[k] != want[k] {
				t.Fatalf("%q text %d: %s %q, repeatTexts %q", resps, k, w.name, w.texts[k], want[k])
			}
		}
	}
	return ok
}
