package highlight

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/charmbracelet/x/ansi"

	"evalview/tui/styles"
)

// TestCodeColorsByLanguage: a fenced block in a language Chroma knows is
// colored (the keyword differently from the string), its text and lines
// unchanged, each line's styles closed at its end.
func TestCodeColorsByLanguage(t *testing.T) {
	st := styles.New(true)
	if st.NoColor {
		t.Skip("NO_COLOR is set")
	}
	h := New(&st)
	for _, tt := range []struct{ lang, src string }{
		{"python", "def f(x):\n    \"\"\"doc\n    string\"\"\"\n    return x * 2  # twice\n"},
		{"go", "func main() {\n\tfmt.Println(\"hi\", 42)\n}"},
		{"Python3", "print('x')\n\nprint(1)\n"},
	} {
		lines, ok := h.Code(tt.lang, tt.src)
		if !ok {
			t.Fatalf("%s: not colored", tt.lang)
		}
		want := strings.Split(strings.TrimSuffix(tt.src, "\n"), "\n")
		if len(lines) != len(want) {
			t.Fatalf("%s: %d lines, want %d: %q", tt.lang, len(lines), len(want), lines)
		}
		for i, l := range lines {
			if ansi.Strip(l) != want[i] {
				t.Errorf("%s line %d: %q, want %q", tt.lang, i, ansi.Strip(l), want[i])
			}
			// Every colored token is closed: the line's last sequence is
			// a closing one.
			if last := strings.LastIndex(l, "\x1b["); last >= 0 && !isPost(h, l[last:]) {
				t.Errorf("%s line %d: style left open: %q", tt.lang, i, l)
			}
		}
	}
	lines, _ := h.Code("python", "def f(): return 'x'")
	kw, str := h.pre[classKey]+"def", h.pre[classString]+"'x'"
	if !strings.Contains(lines[0], kw) || !strings.Contains(lines[0], str) {
		t.Errorf("keyword and string not in their colors: %q", lines[0])
	}
}

func TestCodeFallsBack(t *testing.T) {
	st := styles.New(true)
	if st.NoColor {
		t.Skip("NO_COLOR is set")
	}
	h := New(&st)
	if _, ok := h.Code("no-such-language-xyz", "x = 1"); ok {
		t.Error("an unknown language is colored")
	}
	if _, ok := h.Code("", "x = 1"); ok {
		t.Error("a block without a language is colored")
	}
	if _, ok := h.Code("python", strings.Repeat("x = 1\n", CodeMaxBytes/5)); ok {
		t.Error("a block over CodeMaxBytes is colored")
	}
	plain := styles.Plain()
	if _, ok := New(&plain).Code("python", "x = 1"); ok {
		t.Error("plain styles color code")
	}
}

// isPost reports whether tail starts with one of h's closing sequences.
func isPost(h *Highlighter, tail string) bool {
	for _, p := range h.post {
		if p != "" && strings.HasPrefix(tail, p) {
			return true
		}
	}
	return false
}

// TestCodeLanguages: the languages answers' code blocks are commonly in,
// by the names models write after the fence, are colored from the
// embedded lexers (Chroma's lexers package, which parses all its
// languages at start, is not linked); a language not embedded is shown
// plain.
func TestCodeLanguages(t *testing.T) {
	st := styles.New(true)
	if st.NoColor {
		t.Skip("NO_COLOR is set")
	}
	h := New(&st)
	src := "if x == 1 { return \"a\" } // done\n"
	for _, lang := range []string{
		"python", "py", "python3", "Python", "python2", "json", "bash", "sh", "shell", "zsh", "console",
		"go", "golang", "javascript", "js", "typescript", "ts", "jsx", "c", "cpp", "c++", "csharp", "c#",
		"java", "kotlin", "scala", "rust", "rs", "sql", "mysql", "postgresql", "yaml", "yml", "toml", "ini",
		"xml", "html", "css", "diff", "dockerfile", "makefile", "cmake", "ruby", "rb", "php", "perl", "lua",
		"r", "swift", "haskell", "julia", "latex", "tex", "matlab", "dart", "elixir", "lean", "lean4", "coq",
		"objective-c", "fortran", "zig", "ocaml", "powershell", "bat", "cython",
		// MultiPL-E's and other code benchmarks' languages, by their names
		// and file extensions.
		"cs", "racket", "rkt", "d", "clojure", "erlang", "fsharp", "groovy", "scheme", "lisp", "prolog",
		"verilog", "vhdl", "solidity", "protobuf", "graphql", "hcl", "terraform", "nasm", "awk", "vb.net",
		"objectpascal", "ada", "fish", "nim", "crystal", "elm", "mojo", "glsl", "wat", "scss", "jl", "pl", "kt",
	} {
		lines, ok := h.Code(lang, src)
		if !ok {
			t.Errorf("%s: not colored", lang)
			continue
		}
		if len(lines) != 1 || ansi.Strip(lines[0]) != strings.TrimSuffix(src, "\n") {
			t.Errorf("%s: text changed: %q", lang, lines)
		}
	}
	if lines, ok := h.Code("go", "func f() string { return `raw` }"); !ok || !strings.Contains(lines[0], h.pre[classString]+"`raw`") {
		t.Errorf("go: raw string not in the string color: %q", lines)
	}
	for _, lang := range []string{"brainfuck", "cobol", "markdown"} {
		if lines, ok := h.Code(lang, src); ok {
			t.Errorf("%s: colored, but its lexer is not embedded: %q", lang, lines)
		}
	}
}

// TestEmbeddedLexersParse: every embedded lexer's rules parse and compile
// (a lexer's XML is read only when a block in its language is first
// colored, so a broken one would otherwise show only then).
func TestEmbeddedLexersParse(t *testing.T) {
	reg := lexers()
	if len(reg.Lexers) < 40 {
		t.Fatalf("%d lexers registered", len(reg.Lexers))
	}
	for _, l := range reg.Lexers {
		it, err := l.Tokenise(nil, "x = 1 # a\n\"s\" 'c' // b\n")
		if err != nil {
			t.Errorf("%s: %v", l.Config().Name, err)
			continue
		}
		for tok := it(); tok != chroma.EOF; tok = it() {
		}
	}
}
