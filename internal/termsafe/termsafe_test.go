package termsafe

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"evalview/internal/hostile"
)

func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"plain\ttext\n":         "plain\ttext\n",
		"x\x1b]2;pwned\x07y":    "x␛]2;pwned␇y",
		"a\u009b31mb":           `a\x9b31mb`,
		"abc\u202edcba\u2066":   `abc\u202edcba\u2066`,
		"a\r\nb\rc":             "a\nb␍c",
		"a\x00b\x7f":            "a␀b␡",
		"a\xffb":                "a\uFFFDb",
		"l\u2028m\u2029n":       "l\nm\nn",
		"\u200e\u200f\u061c":    `\u200e\u200f\u061c`,
		"中文 é \u200b ok":        "中文 é \u200b ok",
		"\u0085 next line \x9b": `\x85 next line ` + "\uFFFD",
	} {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Line("a\nb\tc\x1b"); got != "a⏎b c␛" {
		t.Errorf("Line = %q", got)
	}
}

func TestEscapeJSON(t *testing.T) {
	b, _ := json.Marshal(map[string]string{"k\u202e": "a\u009bb\x7fc\u2066\x1b\u2028"})
	got := string(EscapeJSON(b))
	want := `{"k\u202e":"a\u009bb\u007fc\u2066\u001b\u2028"}`
	if got != want {
		t.Errorf("EscapeJSON = %s, want %s", got, want)
	}
	// Raw text encoding/json passes through unchecked (json.Indent of a
	// file's bytes): invalid UTF-8 and stray controls.
	if got := string(EscapeJSON([]byte("{\"a\":\"\xff\x1b\r\"}\n"))); got != `{"a":"\ufffd\u001b\u000d"}`+"\n" {
		t.Errorf("EscapeJSON of raw bytes = %q", got)
	}
	clean := []byte(`{"a":"b"}` + "\n")
	if out := EscapeJSON(clean); &out[0] != &clean[0] {
		t.Error("clean JSON was copied")
	}
}

// unsafe says why s could act on a terminal, or "".
func unsafe(s string) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for _, r := range s {
		if r != '\n' && r != '\t' && Dangerous(r) {
			return "raw " + strings.ToUpper(string(hex4(int(r))))
		}
	}
	return ""
}

// checkForms checks the promises of every form for one input: Visible and
// Line leave nothing dangerous (Line not even a newline); EscapeJSON of
// encoding/json's output leaves nothing dangerous and decodes to what
// encoding/json decodes from its own output (lossless).
func checkForms(t *testing.T, s string) {
	t.Helper()
	if why := unsafe(Visible(s)); why != "" {
		t.Fatalf("Visible(%q): %s", s, why)
	}
	if l := Line(s); unsafe(l) != "" || strings.ContainsAny(l, "\n\t") {
		t.Fatalf("Line(%q) = %q", s, l)
	}
	if Visible(Visible(s)) != Visible(s) {
		t.Fatalf("Visible is not idempotent on %q", s)
	}
	b, err := json.Marshal([]string{s})
	if err != nil {
		t.Fatal(err)
	}
	e := EscapeJSON(b)
	if why := unsafe(string(e)); why != "" || bytes.ContainsAny(e, "\n\t") {
		t.Fatalf("EscapeJSON(%s) = %s: %s", b, e, why)
	}
	var want, got []string
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(e, &got); err != nil {
		t.Fatalf("EscapeJSON(%s) = %s is not JSON: %v", b, e, err)
	}
	if got[0] != want[0] {
		t.Fatalf("EscapeJSON lost text: %q, want %q", got[0], want[0])
	}
}

// TestFormsProperty draws strings on every control class (C0, DEL, C1,
// bidi, separators, invalid UTF-8, whole escape sequences, and text).
func TestFormsProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	for range 20000 {
		checkForms(t, hostile.RandomString(rng.IntN, 12))
	}
}

func FuzzForms(f *testing.F) {
	rng := rand.New(rand.NewPCG(22, 2))
	for range 32 {
		f.Add(hostile.RandomString(rng.IntN, 8))
	}
	f.Fuzz(func(t *testing.T, s string) { checkForms(t, s) })
}

// TestVisibleClipsClusters: a character piled with thousands of marks, or
// a zero-width-joiner chain of thousands of emoji, keeps MaxCluster of
// them and says how many it dropped; real clusters (a family emoji, a
// flag of tags, Devanagari, Zalgo of a few marks) pass whole.
func TestVisibleClipsClusters(t *testing.T) {
	marks := "a" + strings.Repeat("\u0301", 10000) + "b"
	if got, want := Visible(marks), "a"+strings.Repeat("\u0301", MaxCluster)+"…(+9984 marks)b"; got != want {
		t.Errorf("marks: %d runes, want %d: %q", utf8.RuneCountInString(got), utf8.RuneCountInString(want), got[:40])
	}
	chain := "\U0001F469" + strings.Repeat("\u200d\U0001F469", 3000)
	got := Visible(chain + " tail")
	if !strings.HasSuffix(got, " marks) tail") || utf8.RuneCountInString(got) > MaxCluster+40 {
		t.Errorf("joiner chain: %d runes, ends %q", utf8.RuneCountInString(got), got[len(got)-20:])
	}
	for _, s := range []string{marks, chain, chain + "x", strings.Repeat("\U0001F469\u200d", 40) + "!", "a" + strings.Repeat("\u200d", 20)} {
		if v := Visible(s); Visible(v) != v {
			t.Errorf("Visible of its clip clips again: %q", v)
		}
	}
	for _, s := range []string{
		"\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466",             // family
		"\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", // flag of Scotland
		"क्षत्रिय", "z\u0351\u0352\u0357\u0310", "é", "\U0001F44D\U0001F3FD",
	} {
		if got := Visible(s); got != s {
			t.Errorf("Visible(%q) = %q", s, got)
		}
	}
}
