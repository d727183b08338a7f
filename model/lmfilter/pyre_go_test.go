package lmfilter

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// slowOnly returns re without its Go form: every search goes to regexp2.
func slowOnly(re *Regexp) *Regexp {
	c := *re
	c.fast = nil
	return &c
}

// TestGoFastPathTaken: the harness's own patterns must run on Go's regexp,
// or the deep check loses its speed silently; patterns outside the
// provably equivalent subset must not.
func TestGoFastPathTaken(t *testing.T) {
	fast := []string{
		`#### (\-?[0-9\.\,]+)`, `The answer is (\-?[0-9\.\,]+).`, `(-?[$0-9.,]{2,})|(-?[0-9]+)`,
		`The answer is (\-?[0-9\.\,]*[0-9]+)`, `answer is \(?([ABCDEFGHIJKL])\)?`,
		",", `\$`, "(?s).*#### ", `\.$`, `(?m)^\d+$`, `[]a]+`, `\\boxed\{([^}]*)\}`,
	}
	slow := []string{
		`\b\w+\b`, `(?i)the answer`, `\d+(?=%)`, `(\w)\1`, `x*`, `a*|b`, `(x)?y`, `(?:a|)+b`,
		`(a|b)+`, `(?x) \d+`, `[^\W\d]+`, `a++`, `(?P<n>a)(?P=n)`, `\101`, `(?s:.)x`,
	}
	for _, p := range fast {
		re, err := CompilePython(p)
		if err != nil || re.fast == nil {
			t.Errorf("%q: not on the Go fast path (%v)", p, err)
		}
	}
	for _, p := range slow {
		re, err := CompilePython(p)
		if err == nil && re.fast != nil {
			t.Errorf("%q: on the Go fast path, but Go cannot match it as Python does", p)
		}
	}
}

// TestGoFastPathMatchesRegexp2 runs every pattern that takes the Go fast
// path on both engines over every fixture text, every string of the real
// lm-eval samples and results files, and random strings over the
// patterns' alphabet, and requires the same matches, extractions (for
// several group_select values) and substitutions.
func TestGoFastPathMatchesRegexp2(t *testing.T) {
	patterns, texts := corpusPatternsAndTexts(t)
	realPatterns, realTexts := realPatternsAndTexts(t)
	patterns = append(patterns, realPatterns...)
	patterns = append(patterns, gsm8kStrictPattern, `The answer is (\-?[0-9\.\,]+).`, `(-?[$0-9.,]{2,})|(-?[0-9]+)`,
		`The answer is (\-?[0-9\.\,]*[0-9]+)`, ",", `\$`, "(?s).*#### ", `\.$`)
	texts = dedupe(append(texts, realTexts...))
	rng := rand.New(rand.NewPCG(7, 11))
	compared, onGo := 0, 0
	for _, p := range dedupe(patterns) {
		re, err := CompilePython(p)
		if err != nil || re.fast == nil {
			continue
		}
		onGo++
		slow := slowOnly(re)
		all := append(append([]string(nil), texts...), randomTexts(rng, p, 300)...)
		for _, s := range all {
			compareEngines(t, re, slow, s)
			compared++
		}
	}
	if compared < 10000 {
		t.Fatalf("only %d pattern/text pairs compared", compared)
	}
	t.Logf("%d patterns on Go, %d texts, %d pattern/text pairs compared", onGo, len(texts), compared)
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

const gsm8kStrictPattern = `#### (\-?[0-9\.\,]+)`

func compareEngines(t *testing.T, fast, slow *Regexp, s string) {
	t.Helper()
	fm, ferr := fast.FindAll(s)
	sm, serr := slow.FindAll(s)
	if (ferr != nil) != (serr != nil) || !reflect.DeepEqual(fm, sm) {
		t.Errorf("%q on %q: FindAll Go %v (%v), regexp2 %v (%v)", fast.pattern, clipText(s), fm, ferr, sm, serr)
		return
	}
	fr, _ := fast.ReplaceAllLiteral(s, "")
	sr, _ := slow.ReplaceAllLiteral(s, "")
	if fr != sr {
		t.Errorf("%q on %q: sub Go %q, regexp2 %q", fast.pattern, clipText(s), fr, sr)
	}
	for _, gs := range []int{0, 1, -1} {
		fh, ferr := fast.extract(s, gs)
		sh, serr := slow.extract(s, gs)
		if (ferr != nil) != (serr != nil) || !reflect.DeepEqual(fh, sh) {
			t.Errorf("%q on %q group_select %d: Go %+v (%v), regexp2 %+v (%v)", fast.pattern, clipText(s), gs, fh, ferr, sh, serr)
		}
	}
}

func clipText(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}

func corpusPatternsAndTexts(t *testing.T) ([]string, []string) {
	data, err := os.ReadFile("testdata/pyre_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Pattern, Text string }
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	var ps, ts []string
	for _, c := range cases {
		ps = append(ps, c.Pattern)
		ts = append(ts, c.Text, c.Text+"\n", "x"+c.Text)
	}
	return ps, ts
}

// realPatternsAndTexts collects every string of the lm-eval fixtures and
// real data (responses, targets, docs, filtered answers), and the regex
// patterns their results files configure.
func realPatternsAndTexts(t *testing.T) ([]string, []string) {
	var ps, ts []string
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch x := v.(type) {
		case string:
			ts = append(ts, x)
			if key == "regex_pattern" {
				ps = append(ps, x)
			}
		case []any:
			for _, e := range x {
				walk(e, key)
				if s, ok := e.(string); ok && key == "regexes_to_ignore" {
					ps = append(ps, s)
				}
			}
		case map[string]any:
			for k, e := range x {
				walk(e, k)
			}
		}
	}
	for _, root := range []string{"../../../shared/data/lm_eval", "../../testdata/lmeval"} {
		_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".json") || strings.HasSuffix(path, ".jsonl")) {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range bytes.Split(data, []byte("\n")) {
				var v any
				if json.Unmarshal(line, &v) == nil {
					walk(v, "")
				}
			}
			var v any
			if json.Unmarshal(data, &v) == nil {
				walk(v, "")
			}
			return nil
		})
	}
	return ps, ts
}

// randomTexts builds n strings from the pattern's own characters plus
// digits, spaces, newlines and a few non-ASCII ones, so that partial and
// overlapping matches are likely.
func randomTexts(rng *rand.Rand, pattern string, n int) []string {
	alphabet := []rune(pattern + "0123456789 .,-$#\n\t\x1cé١Σ\u00a0")
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for k := rng.IntN(40); k > 0; k-- {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		out[i] = b.String()
	}
	return out
}
