package content

import (
	"fmt"
	"regexp"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"evalview/tui/styles"
	"evalview/tui/text"
)

// maxMarkdownBytes is the longest text rendered as markdown; longer texts
// (whole documents pasted into a prompt) are shown raw, with a note, so a
// render never takes long.
const maxMarkdownBytes = 64 << 10

// text writes message or response text: as markdown when the options ask
// for it, otherwise wrapped as it is, in style, after indent.
func (b *builder) text(s string, style lipgloss.Style, indent int) {
	t, more := capText(s, maxTextBytes)
	if !b.markdown(t, indent) {
		b.para(t, style, indent)
	}
	b.more(more)
}

// markdown writes t (already capped) as markdown after indent when the
// options ask for it. It returns false, having written nothing or only a
// note, when t is to be shown raw: markdown off, blank text, text too long
// for markdown, or a failed render.
func (b *builder) markdown(t string, indent int) bool {
	if lines, ok := b.markdownLines(t, indent); ok {
		b.indented(lines, indent)
		return true
	}
	return false
}

// markdownLines renders t as markdown lines for a width less indent, as
// markdown does, without writing them.
func (b *builder) markdownLines(t string, indent int) ([]string, bool) {
	if !b.o.Markdown || strings.TrimSpace(t) == "" {
		return nil, false
	}
	if len(t) > maxMarkdownBytes {
		b.para("(too long for markdown: shown raw)", b.st.Detail.Subtle, indent)
		return nil, false
	}
	return Markdown(t, b.w-indent, b.st)
}

// indented writes rendered lines after indent spaces.
func (b *builder) indented(lines []string, indent int) {
	pad := strings.Repeat(" ", indent)
	for _, l := range lines {
		b.add(pad + l)
	}
}

// Markdown renders s (untrusted file text) as markdown lines at most width
// cells wide, styled for st (mdrender.go). The text is sanitized first,
// LaTeX math and HTML-looking tags are protected from the markdown parser,
// and the output keeps only SGR styling. ok is false when rendering
// failed; callers then show the text raw.
func Markdown(s string, width int, st *styles.Styles) (lines []string, ok bool) {
	if width < 8 {
		return nil, false
	}
	src := protectMarkdown(text.Sanitize(s))
	defer func() {
		if recover() != nil { // a parser bug must not take the browser down
			lines, ok = nil, false
		}
	}()
	return tidyMarkdown(strings.Join(renderMarkdown(src, width, st), "\n"), width), true
}

// oscRE matches OSC sequences (hyperlinks, titles), ended by BEL or ST.
var oscRE = regexp.MustCompile("\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)")

// tidyMarkdown splits the rendered markdown into lines: OSC sequences
// removed (none should be there), trailing padding trimmed, runs of blank
// lines collapsed, blank lines at both ends dropped, and a word wider than
// the width broken across lines.
func tidyMarkdown(out string, width int) []string {
	out = oscRE.ReplaceAllString(out, "")
	var lines []string
	blank := true // drops leading blank lines
	for _, l := range strings.Split(out, "\n") {
		plain := ansi.Strip(l)
		trimmed := strings.TrimRight(plain, " ")
		if trimmed == "" {
			if !blank {
				lines = append(lines, "")
			}
			blank = true
			continue
		}
		blank = false
		w := ansi.StringWidth(trimmed)
		if w < ansi.StringWidth(plain) {
			l = ansi.Truncate(l, w, "") + "\x1b[m"
		}
		if w <= width {
			lines = append(lines, l)
			continue
		}
		// A word wider than the width (a URL, a long number): wrap the
		// rest onto the next line rather than cut it.
		for _, part := range strings.Split(ansi.Hardwrap(l, width, false), "\n") {
			lines = append(lines, part+"\x1b[m")
		}
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// protectMarkdown prepares sanitized text for the markdown parser so it
// loses nothing a reader needs:
//
//   - LaTeX math ($…$, $$…$$, \(…\), \[…\]) becomes code (inline code
//     spans, display math a fenced latex block), so `\frac{a}{b}`,
//     `x_1` and `\\` stay as written instead of turning into escapes and
//     emphasis;
//   - "<" outside code is escaped, so <think> tags and the like, which the
//     parser would take for HTML and drop, stay visible;
//   - "*" between digits is escaped: it is a product (3*60), not emphasis.
//
// Code spans and fenced code blocks are left as they are.
func protectMarkdown(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	fence := "" // the fence of the code block we are in, "" outside
	lineStart := true
	for i := 0; i < len(s); {
		if lineStart {
			lineStart = false
			j := i
			for j < len(s) && j-i < 4 && s[j] == ' ' {
				j++
			}
			if f := fenceAt(s[j:]); f != "" && (fence == "" || (f[0] == fence[0] && len(f) >= len(fence))) {
				if fence == "" {
					fence = f
				} else {
					fence = ""
				}
				end := lineEnd(s, i)
				b.WriteString(s[i:end])
				i = end
				continue
			}
		}
		c := s[i]
		if c == '\n' {
			b.WriteByte(c)
			i++
			lineStart = true
			continue
		}
		if fence != "" {
			end := lineEnd(s, i)
			b.WriteString(s[i:end])
			i = end
			continue
		}
		switch {
		case c == '`':
			n := runOf(s, i, '`')
			if end := strings.Index(s[i+n:], s[i:i+n]); end >= 0 {
				end += i + 2*n
				b.WriteString(s[i:end])
				i = end
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
			continue
		case c == '\\' && i+1 < len(s) && (s[i+1] == '[' || s[i+1] == '('):
			closer := `\]`
			if s[i+1] == '(' {
				closer = `\)`
			}
			if end := strings.Index(s[i+2:], closer); end >= 0 {
				end += i + 2 + len(closer)
				writeMath(&b, s[i:end], closer == `\]`)
				i = end
				continue
			}
		case c == '\\' && i+1 < len(s):
			// Keep an escape pair together so "\$" and "\`" stay literal.
			b.WriteString(s[i : i+2])
			i += 2
			continue
		case c == '$' && strings.HasPrefix(s[i:], "$$"):
			if end := strings.Index(s[i+2:], "$$"); end >= 0 {
				end += i + 4
				writeMath(&b, s[i:end], true)
				i = end
				continue
			}
		case c == '$':
			if end := inlineMathEnd(s, i); end > 0 {
				writeMath(&b, s[i:end], false)
				i = end
				continue
			}
		case c == '<':
			b.WriteString(`\<`)
			i++
			continue
		case c == '*' && i > 0 && isDigit(s[i-1]) && i+1 < len(s) && isDigit(s[i+1]):
			// Arithmetic, as in gsm8k's <<3*60=180>>: two of these in a
			// paragraph would otherwise become emphasis and lose both.
			b.WriteString(`\*`)
			i++
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// isDigit reports an ASCII digit.
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// fenceAt returns the code fence (``` or ~~~, three or more) s starts
// with, or "".
func fenceAt(s string) string {
	if len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return ""
	}
	n := runOf(s, 0, s[0])
	if n < 3 {
		return ""
	}
	return s[:n]
}

// runOf counts the bytes equal to c from s[i].
func runOf(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// lineEnd is the index of the newline ending the line at i, or len(s).
func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}

// inlineMathEnd returns the index just past the $…$ span starting at
// s[i], or -1, by pandoc's rule: the opening $ has a non-space right
// after it, the closing $ a non-space right before it and no digit right
// after it, and the span stays on one line ("$5 and $10" is not math).
func inlineMathEnd(s string, i int) int {
	if i+1 >= len(s) || s[i+1] == ' ' || s[i+1] == '\n' || s[i+1] == '$' {
		return -1
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\n':
			return -1
		case '\\':
			j++
		case '$':
			if s[j-1] == ' ' || (j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9') {
				continue
			}
			return j + 1
		}
	}
	return -1
}

// writeMath writes a math span as code: a fenced latex block for display
// math, an inline code span otherwise (its fence longer than any backtick
// run inside).
func writeMath(b *strings.Builder, math string, display bool) {
	if display {
		fmt.Fprintf(b, "\n\n```latex\n%s\n```\n\n", strings.Trim(math, "\n"))
		return
	}
	math = strings.ReplaceAll(math, "\n", " ")
	longest := 0
	for i := 0; i < len(math); {
		n := runOf(math, i, '`')
		longest = max(longest, n)
		i += max(n, 1)
	}
	f := strings.Repeat("`", longest+1)
	pad := ""
	if strings.HasPrefix(math, "`") || strings.HasSuffix(math, "`") {
		pad = " "
	}
	b.WriteString(f + pad + math + pad + f)
}
