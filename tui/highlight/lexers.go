package highlight

import (
	"embed"
	"io/fs"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

// The lexers of the languages code blocks in responses are most often
// in (about 90: the common ones, and those of code benchmarks such as
// MultiPL-E), copied from Chroma's lexers/embedded (lexers/COPYING is Chroma's
// licence). Chroma's own lexers package is not linked: its init parses
// the definitions of all its 280 languages, about 5 ms and 31,000
// allocations at every start, for the first code block a user may never
// open. These are registered when the first block is colored, and each
// language's rules are read when a block in it is first colored.
//
//go:embed lexers/*.xml
var lexerFiles embed.FS

var (
	registryOnce sync.Once
	registry     *chroma.LexerRegistry
)

// lexers returns the registry of the embedded lexers, built on first use.
func lexers() *chroma.LexerRegistry {
	registryOnce.Do(func() {
		reg := chroma.NewLexerRegistry()
		paths, err := fs.Glob(lexerFiles, "lexers/*.xml")
		if err != nil {
			panic(err) // a pattern error: a bug
		}
		for _, path := range paths {
			reg.Register(chroma.MustNewXMLLexer(lexerFiles, path))
		}
		reg.Register(goLexer())
		registry = reg
	})
	return registry
}
