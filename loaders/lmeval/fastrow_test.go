package lmeval

import (
	"encoding/json"
	"strings"
	"testing"
)

// fastRowInputs are JSON values of the shapes the fast paths take and of
// the shapes they must hand to the general path.
var fastRowInputs = []string{
	`[["a", "b", "c"]]`, ` [ [ "a" ,"b" ] ] `, `[["a"]]`, `[[]]`, `[]`, `[["a"], ["b"]]`,
	`[[["-1.5", "False"]], [["-0.2", "True"]]]`, `[["a", 1]]`, `[["a\"", "b\\"]]`, `[["a\\\"b"]]`,
	`[["a", "b"]`, `[["a", "b"]] x`, `[["a" "b"]]`, `[["a",]]`, `[[1, 2, 3]]`, `"x"`, `[["é\u00e9\ud83d\ude00"]]`,
	`["18"]`, `["18", "[invalid]"]`, `[]`, `[18]`, `["a\nb"]`, `["\u0041\ud800"]`, `[["x"]]`, `["x",]`, `["x"] ,`,
	`0`, `-0`, `1`, `-1.5`, `1e3`, `1E-3`, `2.5e+10`, `01`, `+1`, `.5`, `1.`, `1e`, `-`, `1e400`, `0x10`, `1_0`,
	`inf`, `NaN`, `true`, `null`, `"1"`, `""`, `"\\"`, `"\u00e9\n\t\"/\b\f\r"`, `"\ud83d\ude00"`, `"\udc00"`,
	`"\ud800x"`, "\"\xff\xfe\"", `"\x"`, `"a`, `"a"b"`, "\"a\x01\"", `"` + strings.Repeat(`long \"text\" `, 100) + `"`,
}

// slowNumber is number's encoding/json path for unquoted values.
func slowNumber(raw []byte) (float64, bool) {
	var f float64
	if json.Unmarshal(raw, &f) != nil {
		return 0, false
	}
	return f, true
}

// slowAnswers is answerText's encoding/json path for lists of strings.
func slowAnswers(raw []byte) (string, bool) {
	var list []string
	if json.Unmarshal(raw, &list) != nil || len(list) == 0 {
		return "", false
	}
	return strings.Join(list, " | "), true
}

// checkFastRow compares every fast path with its general path on in.
func checkFastRow(t *testing.T, in string) {
	raw := []byte(in)
	if n, ok := countRepeats(raw); ok && n != slowAttempts(raw) {
		t.Errorf("countRepeats(%q) = %d, general path %d", in, n, slowAttempts(raw))
	}
	if got, want := attemptCount(raw), slowAttempts(raw); got != want {
		t.Errorf("attemptCount(%q) = %d, want %d", in, got, want)
	}
	if f, ok := fastNumber(raw); ok {
		if g, gok := slowNumber(raw); !gok || g != f {
			t.Errorf("fastNumber(%q) = %v, encoding/json %v %v", in, f, g, gok)
		}
	} else if _, gok := slowNumber(raw); gok && !strings.ContainsAny(in, "eE") && in != "null" && in == strings.TrimSpace(in) {
		// Exponents beyond float64 fail both ways; anything else that
		// encoding/json reads must take the fast path.
		t.Errorf("fastNumber(%q) refused a number", in)
	}
	if s, ok := stringAnswers(raw); ok {
		if want, wok := slowAnswers(raw); !wok || s != want {
			t.Errorf("stringAnswers(%q) = %q, encoding/json %q %v", in, s, want, wok)
		}
	}
	if sum, ok := hashString(raw); ok {
		var s string
		if json.Unmarshal(raw, &s) != nil || sum != sha256Hex([]byte(s)) {
			t.Errorf("hashString(%q) disagrees with encoding/json (%q)", in, s)
		}
	} else if s := ""; json.Unmarshal(raw, &s) == nil && len(raw) > 0 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		t.Errorf("hashString(%q) refused what encoding/json reads (%q)", in, s)
	}
}

func TestFastRowMatchesGeneralPaths(t *testing.T) {
	for _, in := range fastRowInputs {
		checkFastRow(t, in)
	}
	// The fast paths must actually be taken on the usual shapes.
	if n, ok := countRepeats([]byte(`[["a", "b\"", "c\\"]]`)); !ok || n != 3 {
		t.Errorf("countRepeats = %d %v, want 3", n, ok)
	}
	if s, ok := stringAnswers([]byte(`["18", "x"]`)); !ok || s != "18 | x" {
		t.Errorf("stringAnswers = %q %v", s, ok)
	}
	if f, ok := fastNumber([]byte(`-2.5e1`)); !ok || f != -25 {
		t.Errorf("fastNumber = %v %v", f, ok)
	}
	if _, ok := hashString([]byte(`"a\nb"`)); !ok {
		t.Error("hashString refused an escaped string")
	}
}

func FuzzFastRow(f *testing.F) {
	for _, in := range fastRowInputs {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkFastRow(t, in)
	})
}

// TestHashStringLong: a literal longer than hashWholeMax is hashed run by
// run, one shorter decoded whole; both give the hash of the decoded text.
func TestHashStringLong(t *testing.T) {
	line := "Q: 12 eggs? \"A\": 12 × 2 = 24\tété\n"
	enc, _ := json.Marshal(line)
	per := len(enc) - 2
	for _, n := range []int{hashWholeMax/per - 1, hashWholeMax/per + 1, 3 * hashWholeMax / per} {
		text := strings.Repeat(line, n)
		raw, _ := json.Marshal(text)
		sum, ok := hashString(raw)
		if !ok || sum != sha256Hex([]byte(text)) {
			t.Errorf("%d-byte literal: hashString = %q, %v; want the hash of its text", len(raw), sum, ok)
		}
		if _, ok := hashString(raw[:len(raw)-1]); ok {
			t.Errorf("%d-byte literal without its closing quote: accepted", len(raw))
		}
		if n == hashWholeMax/per-1 && len(raw) > hashWholeMax || n == hashWholeMax/per+1 && len(raw) <= hashWholeMax {
			t.Errorf("%d-byte literal: not on the side of hashWholeMax the test means", len(raw))
		}
	}
}
