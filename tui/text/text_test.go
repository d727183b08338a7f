package text

import (
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain ASCII is unchanged", "Janet's ducks lay 16 eggs", "Janet's ducks lay 16 eggs"},
		{"newlines are kept", "a\nb\n", "a\nb\n"},
		{"window title payload", "x\x1b]2;pwned\x07y", "x␛]2;pwned␇y"},
		{"OSC 52 clipboard payload", "\x1b]52;c;cm0gLXJmIH4=\x07", "␛]52;c;cm0gLXJmIH4=␇"},
		{"OSC with string terminator", "\x1b]8;;http://evil\x1b\\link", "␛]8;;http://evil␛\\link"},
		{"CSI cursor movement", "\x1b[2J\x1b[H", "␛[2J␛[H"},
		{"C1 CSI", "a\u009b31mb", `a\x9b31mb`},
		{"C1 NEL", "a\u0085b", `a\x85b`},
		{"invalid UTF-8", "a\xffb\xc3", "a\uFFFDb\uFFFD"},
		{"bidi override", "abc\u202edcba\u202c", `abc\u202edcba\u202c`},
		{"bidi isolate", "\u2066x\u2069", `\u2066x\u2069`},
		{"CRLF", "a\r\nb", "a\nb"},
		{"lone CR", "a\rb", "a␍b"},
		{"line separator", "a\u2028b", "a\nb"},
		{"NUL and DEL", "a\x00b\x7f", "a␀b␡"},
		{"tab at start", "\tx", "    x"},
		{"tab after text", "ab\tx", "ab  x"},
		{"tab after wide char", "中\tx", "中  x"},
		{"tab resets per line", "abc\n\tx", "abc\n    x"},
		{"CJK kept", "鸭子每天下蛋", "鸭子每天下蛋"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Sanitize(tt.in)
			if got != tt.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			for _, r := range got {
				if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) {
					t.Errorf("Sanitize(%q) left control %U in %q", tt.in, r, got)
				}
			}
		})
	}
}

func TestOneLineAndFirstLine(t *testing.T) {
	if got := OneLine("a\nb\x1b"); got != "a⏎b␛" {
		t.Errorf("OneLine = %q", got)
	}
	tests := []struct{ in, want string }{
		{"Question?", "Question?"},
		{"\n\n  Question?  \nmore", "Question? …"},
		{"Question?\n\n", "Question?"},
		{"", ""},
		{"\x1b]0;t\x07hi", "␛]0;t␇hi"},
	}
	for _, tt := range tests {
		if got := FirstLine(tt.in); got != tt.want {
			t.Errorf("FirstLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWrap(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		width int
		want  []string
	}{
		{"fits", "short line", 20, []string{"short line"}},
		{"words", "the quick brown fox jumps", 10, []string{"the quick", "brown fox", "jumps"}},
		{"long word is broken", "abcdefghijkl", 5, []string{"abcde", "fghij", "kl"}},
		{"blank lines kept", "a\n\nb", 5, []string{"a", "", "b"}},
		{"CJK by cells", "鸭子每天下蛋十六个", 6, []string{"鸭子每", "天下蛋", "十六个"}},
		{"CJK odd width", "鸭子每天", 5, []string{"鸭子", "每天"}},
		{"width 1 with wide chars", "鸭a", 1, nil},
		{"control chars sanitized", "a\x1b[2Jb", 20, []string{"a␛[2Jb"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Wrap(tt.in, tt.width)
			for _, l := range got {
				if w := ansi.StringWidth(l); w > tt.width {
					t.Errorf("line %q is %d cells, wider than %d", l, w, tt.width)
				}
			}
			if tt.want != nil && strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("Wrap(%q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
			}
		})
	}
}

func TestWrapStyledKeepsStylePerLine(t *testing.T) {
	in := "\x1b[1mbold words that wrap\x1b[m"
	got := WrapStyled(in, 10)
	if len(got) < 2 {
		t.Fatalf("want several lines, got %q", got)
	}
	for _, l := range got {
		if !strings.HasPrefix(l, "\x1b[") {
			t.Errorf("line %q does not reopen the style", l)
		}
		if ansi.StringWidth(l) > 10 {
			t.Errorf("line %q too wide", l)
		}
	}
	if plain := ansi.Strip(strings.Join(got, " ")); plain != "bold words that wrap" {
		t.Errorf("text changed: %q", plain)
	}
}

func TestTruncateAndPad(t *testing.T) {
	tests := []struct {
		fn   func(string, int) string
		name string
		in   string
		w    int
		want string
	}{
		{Truncate, "truncate fits", "abc", 3, "abc"},
		{Truncate, "truncate cuts with marker", "abcdef", 4, "abc…"},
		{Truncate, "truncate wide", "鸭子每天", 5, "鸭子…"},
		{Truncate, "truncate zero", "abc", 0, ""},
		{Pad, "pad", "ab", 4, "ab  "},
		{Pad, "pad cuts", "abcdef", 4, "abc…"},
		{Pad, "pad wide", "鸭", 3, "鸭 "},
		{PadLeft, "pad left", "7", 3, "  7"},
		{TruncateMiddle, "middle fits", "abc", 3, "abc"},
		{TruncateMiddle, "middle keeps both ends", "gomoku_match_0001", 11, "gomok…_0001"},
		{TruncateMiddle, "middle wide", "鸭子每天下蛋", 7, "鸭…下蛋"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.fn(tt.in, tt.w); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFormatScore(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0.00"}, {1, "1.00"}, {0.1, "0.10"}, {8.25, "8.25"}, {0.3333, "0.33"},
		{1234, "1234"}, {2e7, "2e+07"}, {0.0001, "0.0001"}, {-0.5, "-0.50"},
		{math.NaN(), "nan"}, {math.Inf(1), "inf"}, {math.Inf(-1), "-inf"},
	}
	for _, tt := range tests {
		if got := FormatScore(tt.in); got != tt.want {
			t.Errorf("FormatScore(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := FormatDuration(1234); got != "1.2s" {
		t.Errorf("FormatDuration = %q", got)
	}
	if got := FormatDuration(125000); got != "2m05s" {
		t.Errorf("FormatDuration = %q", got)
	}
}

func TestWrapPlain(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		width int
		want  []string
	}{
		{"CJK after latin breaks between characters", "Question: 鸭子每天下蛋", 14, []string{"Question: 鸭子", "每天下蛋"}},
		{"mixed words", "abc 中文 def", 7, []string{"abc 中", "文 def"}},
		{"indent kept on first line", "    indented words here", 12, []string{"    indented", "words here"}},
		{"inner spaces kept", "a   b", 10, []string{"a   b"}},
		{"spaces at break dropped", "aaaa     bbbb", 6, []string{"aaaa", "bbbb"}},
		{"long word after text", "ab cdefghij", 4, []string{"ab", "cdef", "ghij"}},
		{"only spaces", "   ", 5, []string{""}},
		{"empty", "", 5, []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Wrap(tt.in, tt.width)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("Wrap(%q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
			}
		})
	}
}

// TestASCIIFastPathsAgree: Width, Truncate, Pad and PadLeft measure and
// cut printable ASCII without grapheme segmentation; they give what the
// ANSI-aware functions give, at every width around the string's.
func TestASCIIFastPathsAgree(t *testing.T) {
	for _, s := range []string{"", "a", "ab", "abc", "Lena buys 5 notebooks that cost $5", " lead and trail ", "~!@#$%^&*()_+{}|:<>?"} {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
		for w := -1; w <= len(s)+2; w++ {
			want := ""
			if w > 0 {
				want = ansi.Truncate(s, w, Ellipsis)
			}
			if got := Truncate(s, w); got != want {
				t.Errorf("Truncate(%q, %d) = %q, want %q", s, w, got, want)
			}
			if w < 0 {
				continue
			}
			pad := want + strings.Repeat(" ", max(w-ansi.StringWidth(want), 0))
			if got := Pad(s, w); got != pad {
				t.Errorf("Pad(%q, %d) = %q, want %q", s, w, got, pad)
			}
			if got := PadLeft(s, w); got != strings.Repeat(" ", max(w-ansi.StringWidth(want), 0))+want {
				t.Errorf("PadLeft(%q, %d) = %q", s, w, got)
			}
		}
	}
}
