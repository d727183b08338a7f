package lmfilter

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// windowPatterns are patterns on the Go fast path with and without a
// literal prefix, alternation, classes with non-ASCII members and lazy
// quantifiers: every kind of set the windows use.
var windowPatterns = []string{
	`The answer is (\-?[0-9\.\,]*[0-9]+)`, `#### (\-?[0-9\.\,]+)`, `(-?[$0-9.,]{2,})|(-?[0-9]+)`,
	`The answer is (\-?[0-9\.\,]+).`, `answer is \(?([ABCDEFGHIJKL])\)?`, `\\boxed\{([^}]*)\}`,
	",", `\$`, `[0-9]+?x`, `(\d+)\s*%`, `é+[a-c]{2,3}`, `ab|b[0-9]*c`,
	`[0-9]*[0-9]*[0-9]*[0-9]*x`, `(a)(b?)c|(a)(b*?)d`, `x{2,3}?y{0,2}`,
	"(?s).*#### ", `\.$`, `a.*?b`, `(.+)x`, `(?s)1.*?\$`, `x.*`, `[0-9]+$`,
}

// TestWindowSets: the harness's patterns get a set (or the deep check
// loses its speed silently), patterns whose match reads past its ends or
// could hold nearly any byte do not.
func TestWindowSets(t *testing.T) {
	for _, p := range []string{`The answer is (\-?[0-9\.\,]*[0-9]+)`, `#### (\-?[0-9\.\,]+)`, `(-?[$0-9.,]{2,})|(-?[0-9]+)`} {
		re, err := CompilePython(p)
		if err != nil || re.fast == nil || re.fast.set == nil {
			t.Errorf("%q: no window set (%v)", p, err)
		}
	}
	for _, p := range []string{`\.$`, `(?m)^\d+$`, "(?s).*#### ", `[^x]+y`} {
		re, err := CompilePython(p)
		if err != nil || re.fast == nil {
			t.Fatalf("%q: not on the Go fast path (%v)", p, err)
		}
		if re.fast.set != nil {
			t.Errorf("%q: has a window set", p)
		}
	}
	for _, p := range []string{`The answer is (\-?[0-9\.\,]*[0-9]+)`, `#### (\-?[0-9\.\,]+)`, `(-?[$0-9.,]{2,})|(-?[0-9]+)`, `answer is \(?([ABCDEFGHIJKL])\)?`, "(?s).*#### ", `\.$`} {
		if re, _ := CompilePython(p); re == nil || re.fast == nil || re.fast.mini == nil {
			t.Errorf("%q: no mini form", p)
		}
	}
	for _, p := range []string{`\\boxed\{([^}]*)\}`, `é+[a-c]{2,3}`, `(ab|cd)e`, `a.?b`, `x.*`, `(?m)^\d+$`} {
		if re, _ := CompilePython(p); re != nil && re.fast != nil && re.fast.mini != nil {
			t.Errorf("%q: has a mini form", p)
		}
	}
	re, _ := CompilePython(`(-?[$0-9.,]{2,})|(-?[0-9]+)`)
	for c := range 256 {
		want := strings.ContainsRune("-$0123456789.,", rune(c))
		if re.fast.set[c] != want {
			t.Errorf("byte %#x: in set %v, want %v", c, re.fast.set[c], want)
		}
	}
}

// TestWindowsMatchWholeText: searching in windows finds exactly the
// matches Go's regexp finds on the whole text, on texts made of the
// pattern's own bytes, digits, letters, non-ASCII and invalid UTF-8.
func TestWindowsMatchWholeText(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, p := range windowPatterns {
		re, err := CompilePython(p)
		if err != nil || re.fast == nil {
			t.Fatalf("%q: not on the Go fast path (%v)", p, err)
		}
		pieces := []string{p, "The answer is ", "#### ", "12", "3.5", ",", "-", "$", " ", "\n", "x", "abc", "é", "\xff", "\xc3", "Σ", "%", "{", "}", `\boxed{`}
		for range 3000 {
			var b strings.Builder
			for k := rng.IntN(12); k > 0; k-- {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			checkWindows(t, re.fast, b.String())
		}
	}
}

// TestMiniGivesUp: a search the mini form would backtrack through for
// too long goes to Go's regexp, with the same answer.
func TestMiniGivesUp(t *testing.T) {
	re, err := CompilePython(`[0-9]*[0-9]*[0-9]*[0-9]*x`)
	if err != nil || re.fast == nil || re.fast.mini == nil {
		t.Fatalf("no mini form (%v)", err)
	}
	s := strings.Repeat("7", 3000) + " 12x"
	loc := make([]int, 2)
	if _, done := re.fast.mini.findMini(s, "", loc); done {
		t.Fatal("the mini form ran to the end of a search that backtracks cubically")
	}
	checkWindows(t, re.fast, s)
}

func checkWindows(t *testing.T, g *goRegexp, s string) {
	t.Helper()
	var got [][]int
	g.each(s, func(loc []int) bool {
		got = append(got, append([]int(nil), loc...))
		return true
	})
	whole := *g
	whole.set, whole.mini = nil, nil
	var want [][]int
	whole.each(s, func(loc []int) bool {
		want = append(want, append([]int(nil), loc...))
		return true
	})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%q on %q: windows %v, whole text %v", g.re, s, got, want)
	}
}

// FuzzWindows runs checkWindows on fuzzed pattern choices and texts.
func FuzzWindows(f *testing.F) {
	f.Add(0, "The answer is 1,234.5 and The answer is -7")
	f.Add(2, "$1,000 or 12 or -3 é 4")
	f.Fuzz(func(t *testing.T, k int, s string) {
		p := windowPatterns[uint(k)%uint(len(windowPatterns))]
		re, err := CompilePython(p)
		if err != nil || re.fast == nil {
			t.Skip()
		}
		checkWindows(t, re.fast, s)
	})
}

// FuzzWindowPatterns is FuzzWindows over fuzzed patterns too: any pattern
// on the Go fast path, searched in windows and with its mini form, finds
// the matches Go's regexp finds on the whole text.
func FuzzWindowPatterns(f *testing.F) {
	for _, p := range windowPatterns {
		f.Add(p, "The answer is 1,234.5 and #### 7 é \\boxed{x} $12 ab 9x")
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		if len(pattern) > 64 || len(s) > 4096 {
			t.Skip()
		}
		re, err := CompilePython(pattern)
		if err != nil || re.fast == nil || re.fast.anchored {
			t.Skip()
		}
		checkWindows(t, re.fast, s)
	})
}
