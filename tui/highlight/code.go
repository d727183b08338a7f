package highlight

import (
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

// CodeMaxBytes caps the code block Code colors: Chroma's regexp lexers
// run at a few hundred KB a second, and a model's answer can hold a very
// long block. Past the cap the block is shown in the plain code style.
const CodeMaxBytes = 16 << 10

// lexerCache keeps each language's lexer once looked up (nil when there
// is none): a registry's Get matches file patterns when no name does.
var lexerCache sync.Map // lang -> chroma.Lexer (nil: none)

func lexerFor(lang string) chroma.Lexer {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if v, ok := lexerCache.Load(lang); ok {
		l, _ := v.(chroma.Lexer)
		return l
	}
	var l chroma.Lexer
	if found := lexers().Get(lang); found != nil && lang != "" {
		l = chroma.Coalesce(found)
	}
	lexerCache.Store(lang, l)
	return l
}

// Code returns src, a fenced code block of language lang ("python",
// "go", "cpp": the names and aliases Chroma knows), colored with the
// theme's code styles, one entry per line with every line's styles closed
// at its end. It reports false, and the caller shows the block plain,
// when colors are off, the language is unknown, the block is longer than
// CodeMaxBytes, or the lexer's tokens would not give back src exactly:
// coloring never changes the text.
func (h *Highlighter) Code(lang, src string) ([]string, bool) {
	if h == nil || h.off || len(src) > CodeMaxBytes || lang == "" {
		return nil, false
	}
	l := lexerFor(lang)
	if l == nil {
		return nil, false
	}
	it, err := l.Tokenise(nil, src)
	if err != nil {
		return nil, false
	}
	var (
		lines []string
		line  strings.Builder
		plain strings.Builder
	)
	for t := it(); t != chroma.EOF; t = it() {
		plain.WriteString(t.Value)
		c := codeClass(t.Type)
		for i, part := range strings.Split(t.Value, "\n") {
			if i > 0 {
				lines = append(lines, line.String())
				line.Reset()
			}
			if part == "" {
				continue
			}
			if c == classText || h.pre[c] == "" {
				line.WriteString(part)
				continue
			}
			line.WriteString(h.pre[c] + part + h.post[c])
		}
	}
	got := plain.String()
	if got != src && got != src+"\n" { // EnsureNL adds a final newline
		return nil, false
	}
	if line.Len() > 0 {
		lines = append(lines, line.String())
	}
	// src's own trailing newline ends its last line; no empty line after.
	if want := strings.Count(strings.TrimSuffix(src, "\n"), "\n") + 1; len(lines) > want {
		lines = lines[:want]
	}
	return lines, true
}

// codeClass maps a Chroma token type to the theme's five code classes:
// keywords in the key color, strings, numbers, constants and builtins as
// literals, comments and punctuation subdued.
func codeClass(t chroma.TokenType) class {
	switch {
	case t == chroma.KeywordConstant || t.InSubCategory(chroma.NameBuiltin) || t == chroma.NameConstant:
		return classLiteral
	case t.InCategory(chroma.Keyword):
		return classKey
	case t.InSubCategory(chroma.LiteralString):
		return classString
	case t.InSubCategory(chroma.LiteralNumber):
		return classNumber
	case t.InCategory(chroma.Comment), t.InCategory(chroma.Operator), t.InCategory(chroma.Punctuation):
		return classPunct
	}
	return classText
}
