package query

import (
	"errors"
	"testing"
	"unicode/utf8"
)

// sameTerms reports whether two parsed queries mean the same.
func sameTerms(a, b *Query) bool {
	if len(a.terms) != len(b.terms) || a.filter != b.filter {
		return false
	}
	for i := range a.terms {
		x, y := a.terms[i], b.terms[i]
		if x.neg != y.neg || x.field != y.field || x.op != y.op || x.value != y.value || x.fold != y.fold ||
			x.status != y.status || x.hasNum != y.hasNum || (x.hasNum && x.num != y.num) || (x.re == nil) != (y.re == nil) ||
			(x.re != nil && x.re.String() != y.re.String()) {
			return false
		}
	}
	return true
}

// FuzzParse checks that Parse never panics, that its errors point into the
// line, and that String gives a line that parses to the same query.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "score<5 category=math status=fail filter=maj@64 tag:critical", `category="high school"`,
		`x="say \"hi\""`, `"a=b" -"not" not x`, "score<<5", `"unterminated`, "--x", "-", "title~^\\d+$",
		`x="back\\"`, "a!b c!=d", "labels.status=x", `""=5`, "héllo wörld", "tag:\xff", "status=PASS",
		"filter=a filter=b", `q="\\\""`, "=", "~", "x~(", `a"b"c=d"e"f`,
	} {
		f.Add(s)
	}
	idx := Values(generic())
	f.Fuzz(func(t *testing.T, line string) {
		for _, cur := range []int{0, len(line) / 2, len(line)} {
			Complete(idx, line, cur) // must not panic
		}
		q, err := Parse(line)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q): error %v is not an *Error", line, err)
			}
			if e.Pos < 0 || e.Pos > len(line) || e.Col < 1 || e.Col > utf8.RuneCountInString(line)+1 || e.Code == "" {
				t.Fatalf("Parse(%q): bad error position %+v", line, e)
			}
			return
		}
		canon := q.String()
		q2, err := Parse(canon)
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q does not parse: %v", line, canon, err)
		}
		if !sameTerms(q, q2) {
			t.Fatalf("Parse(%q).String() = %q parses to a different query (%q)", line, canon, q2.String())
		}
		if q2.String() != canon {
			t.Fatalf("canonical form not stable: %q then %q", canon, q2.String())
		}
	})
}
