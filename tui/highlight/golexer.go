package highlight

import (
	"github.com/alecthomas/chroma/v2"
)

// goLexer is Chroma's Go lexer (lexers/go.go, MIT: lexers/COPYING),
// which Chroma defines in Go rather than XML. Its one change: a raw
// string is one string token, where Chroma colors Go template actions
// inside it (which would need the Go template lexer too).
func goLexer() chroma.Lexer {
	return chroma.MustNewLexer(
		&chroma.Config{
			Name:      "Go",
			Aliases:   []string{"go", "golang"},
			Filenames: []string{"*.go"},
			MimeTypes: []string{"text/x-gosrc"},
		},
		goRules,
	)
}

func goRules() chroma.Rules {
	return chroma.Rules{
		"root": {
			rule(`\n`, chroma.TextWhitespace, nil),
			rule(`\s+`, chroma.TextWhitespace, nil),
			rule(`//[^\s\n\r][^\n\r]*`, chroma.CommentPreproc, nil),
			rule(`//[^\n\r]*`, chroma.CommentSingle, nil),
			rule(`/(\\\n)?[*](.|\n)*?[*](\\\n)?/`, chroma.CommentMultiline, nil),
			rule(`(import|package)\b`, chroma.KeywordNamespace, nil),
			rule(`(var|func|struct|map|chan|type|interface|const)\b`, chroma.KeywordDeclaration, nil),
			rule(chroma.Words(``, `\b`, `break`, `default`, `select`, `case`, `defer`, `go`, `else`, `goto`, `switch`, `fallthrough`, `if`, `range`, `continue`, `for`, `return`), chroma.Keyword, nil),
			rule(`(true|false|iota|nil)\b`, chroma.KeywordConstant, nil),
			rule(chroma.Words(``, `\b(\()`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `print`, `println`, `panic`, `recover`, `close`, `complex`, `real`, `imag`, `len`, `cap`, `append`, `copy`, `delete`, `new`, `make`, `clear`, `min`, `max`), chroma.ByGroups(chroma.NameBuiltin, chroma.Punctuation), nil),
			rule(chroma.Words(``, `\b`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `any`), chroma.KeywordType, nil),
			rule(`\d+i`, chroma.LiteralNumber, nil),
			rule(`\d+\.\d*([Ee][-+]\d+)?i`, chroma.LiteralNumber, nil),
			rule(`\.\d+([Ee][-+]\d+)?i`, chroma.LiteralNumber, nil),
			rule(`\d+[Ee][-+]\d+i`, chroma.LiteralNumber, nil),
			rule(`\d+(\.\d+[eE][+\-]?\d+|\.\d*|[eE][+\-]?\d+)`, chroma.LiteralNumberFloat, nil),
			rule(`\.\d+([eE][+\-]?\d+)?`, chroma.LiteralNumberFloat, nil),
			rule(`0[0-7]+`, chroma.LiteralNumberOct, nil),
			rule(`0[xX][0-9a-fA-F_]+`, chroma.LiteralNumberHex, nil),
			rule(`0b[01_]+`, chroma.LiteralNumberBin, nil),
			rule(`(0|[1-9][0-9_]*)`, chroma.LiteralNumberInteger, nil),
			rule(`'(\\['"\\abfnrtv]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|[^\\])'`, chroma.LiteralStringChar, nil),
			rule("`[^`]*`", chroma.LiteralString, nil),
			rule(`"(\\\\|\\"|[^"])*"`, chroma.LiteralString, nil),
			rule(`(<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|/=|%=|&=|\|=|&&|\|\||<-|\+\+|--|==|!=|:=|\.\.\.|[+\-*/%&])`, chroma.Operator, nil),
			rule(`([a-zA-Z_]\w*)(\s*)(\()`, chroma.ByGroups(chroma.NameFunction, chroma.UsingSelf("root"), chroma.Punctuation), nil),
			rule(`[|^<>=!()\[\]{}.,;:~]`, chroma.Punctuation, nil),
			rule(`[^\W\d]\w*`, chroma.NameOther, nil),
		},
	}
}

// rule is a chroma.Rule with its fields named (go vet's composites check).
func rule(pattern string, typ chroma.Emitter, mutator chroma.Mutator) chroma.Rule {
	return chroma.Rule{Pattern: pattern, Type: typ, Mutator: mutator}
}
