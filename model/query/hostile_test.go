package query

import (
	"strings"
	"testing"
)

// BenchmarkParseManyTerms parses a 40,000-term line (a paste gone wrong).
// Columns used to be counted from the start of the line for every term,
// which made this quadratic: ~4 s at 100,000 terms, ~0.4 s since.
func BenchmarkParseManyTerms(b *testing.B) {
	line := strings.Repeat("a=b é ", 20_000)
	for b.Loop() {
		if _, err := Parse(line); err != nil {
			b.Fatal(err)
		}
	}
}

// TestColumnsAfterManyTerms: the incremental column count gives each
// term's column in characters, as counting from the start did.
func TestColumnsAfterManyTerms(t *testing.T) {
	line := strings.Repeat("é=1 ", 50) + "score<<5"
	_, err := Parse(line)
	e, ok := err.(*Error)
	if !ok || e.Col != 201 || e.Pos != 50*len("é=1 ") {
		t.Fatalf("error %+v, want column 201 at byte %d", err, 50*len("é=1 "))
	}
	q, err := Parse(strings.Repeat("中 ", 3) + "x=1")
	if err != nil || q.terms[3].col != 7 {
		t.Fatalf("%v: column %d, want 7", err, q.terms[3].col)
	}
}
