package content

import (
	"bytes"
	"evalview/tui/highlight"
	"regexp"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"evalview/tui/styles"
	tt "evalview/tui/text"
)

// Markdown is parsed by goldmark and drawn here, in the browser's theme,
// rather than by glamour: glamour highlights code blocks with Chroma,
// whose package initialisation (every lexer and style, parsed from XML)
// and that of glamour's HTML sanitizer took 30 to 40 ms of CPU at every
// start of the program, before the first screen, markdown shown or not
// (Go initialises every package linked in). Code blocks are shown in the
// code style, uncoloured.

// mdParser parses GFM (tables, strikethrough, task lists; links are not
// made of bare URLs: they show as written).
var mdParser = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList)).Parser()

// Inline style attributes, combined in a mask.
const (
	mdBold = 1 << iota
	mdItalic
	mdStrike
	mdCode
	mdLink
	mdHeading
	mdSubtle
	mdTableHead
)

// mdRender draws a markdown document for one theme and width.
type mdRender struct {
	src []byte
	st  *styles.Styles
	sgr map[int][2]string // a mask's opening and closing sequences
	hl  *highlight.Highlighter
}

// renderMarkdown renders src (sanitized, protected) to lines at most width
// cells wide, but for words longer than the width (tidyMarkdown breaks
// those).
func renderMarkdown(src string, width int, st *styles.Styles) []string {
	r := &mdRender{src: []byte(src), st: st, sgr: map[int][2]string{}}
	doc := mdParser.Parse(text.NewReader(r.src))
	return r.blocks(doc, width)
}

// style returns the lipgloss style of a mask.
func (r *mdRender) style(mask int) lipgloss.Style {
	s := lipgloss.NewStyle()
	switch {
	case mask&mdHeading != 0:
		s = r.st.Detail.Heading
	case mask&mdTableHead != 0:
		s = r.st.Detail.TableHeader
	case mask&mdCode != 0:
		s = r.st.Code.String
	case mask&mdSubtle != 0:
		s = r.st.Detail.Subtle
	}
	if mask&mdBold != 0 {
		s = s.Bold(true)
	}
	if mask&mdItalic != 0 {
		s = s.Italic(true)
	}
	if mask&mdStrike != 0 {
		s = s.Strikethrough(true)
	}
	if mask&mdLink != 0 {
		s = s.Underline(true)
	}
	return s
}

// paint returns t in the style of mask: its sequences are learnt once per
// mask by rendering a marker, as the JSON highlighter does.
func (r *mdRender) paint(t string, mask int) string {
	if mask == 0 || t == "" {
		return t
	}
	p, ok := r.sgr[mask]
	if !ok {
		const mark = "\u2063"
		out := r.style(mask).Render(mark)
		if i := strings.Index(out, mark); i >= 0 {
			p = [2]string{out[:i], out[i+len(mark):]}
		}
		r.sgr[mask] = p
	}
	return p[0] + t + p[1]
}

// piece is inline text in one style; brk marks a hard line break.
type piece struct {
	text string
	mask int
	brk  bool
}

// optionLine matches a line that starts a multiple-choice option: "A. ",
// "B) ", "(C) ". Markdown joins such lines into one paragraph (a letter is
// no list marker), which ran a question's options together on one line.
var optionLine = regexp.MustCompile(`^(?:[A-Z][.)]|\([A-Za-z]\)|[a-z]\))[ \t]`)

// optionFollows reports whether the line after the soft line break at
// src[at:] starts an option, so that the break is kept.
func (r *mdRender) optionFollows(at int) bool {
	if at < 0 || at > len(r.src) {
		return false
	}
	rest := r.src[at:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		return false
	}
	return optionLine.Match(bytes.TrimLeft(rest[i+1:], " \t"))
}

// inline collects n's inline content as pieces.
func (r *mdRender) inline(n ast.Node, mask int, out []piece) []piece {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = r.inlineNode(c, mask, out)
	}
	return out
}

func (r *mdRender) inlineNode(c ast.Node, mask int, out []piece) []piece {
	switch c := c.(type) {
	case *ast.Text:
		v := c.Segment.Value(r.src)
		if !c.IsRaw() {
			// As goldmark's HTML renderer writes text: escapes and
			// entities resolved.
			// entities resolved; "&#27;" must not become an escape.
			v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
		}
		out = append(out, piece{text: tt.Sanitize(string(v)), mask: mask})
		switch {
		case c.HardLineBreak():
			out = append(out, piece{brk: true})
		case c.SoftLineBreak() && r.optionFollows(c.Segment.Stop):
			out = append(out, piece{brk: true})
		case c.SoftLineBreak():
			out = append(out, piece{text: " ", mask: mask})
		}
	case *ast.String:
		out = append(out, piece{text: string(c.Value), mask: mask})
	case *ast.CodeSpan:
		var b strings.Builder
		for t := c.FirstChild(); t != nil; t = t.NextSibling() {
			if t, ok := t.(*ast.Text); ok {
				b.Write(t.Segment.Value(r.src))
			}
		}
		out = append(out, piece{text: b.String(), mask: mask | mdCode})
	case *ast.Emphasis:
		m := mdItalic
		if c.Level >= 2 {
			m = mdBold
		}
		out = r.inline(c, mask|m, out)
	case *east.Strikethrough:
		out = r.inline(c, mask|mdStrike, out)
	case *ast.Link:
		start := len(out)
		out = r.inline(c, mask|mdLink, out)
		if dest := tt.Sanitize(string(c.Destination)); dest != "" && dest != plainOf(out[start:]) {
			out = append(out, piece{text: " (" + dest + ")", mask: mdSubtle})
		}
	case *ast.AutoLink:
		out = append(out, piece{text: tt.Sanitize(string(c.URL(r.src))), mask: mask | mdLink})
	case *ast.Image:
		out = append(out, piece{text: "image: ", mask: mdSubtle})
		out = r.inline(c, mask, out)
		if dest := tt.Sanitize(string(c.Destination)); dest != "" {
			out = append(out, piece{text: " (" + dest + ")", mask: mdSubtle})
		}
	case *ast.RawHTML:
		for i := 0; i < c.Segments.Len(); i++ {
			seg := c.Segments.At(i)
			out = append(out, piece{text: string(seg.Value(r.src)), mask: mask})
		}
	case *east.TaskCheckBox:
		box := "[ ] "
		if c.IsChecked {
			box = "[✓] "
		}
		out = append(out, piece{text: box, mask: mask | mdSubtle})
	default:
		out = r.inline(c, mask, out)
	}
	return out
}

// plainOf is the text of pieces.
func plainOf(ps []piece) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.text)
	}
	return b.String()
}

// wrap lays pieces out in lines of at most width cells, breaking at
// spaces; a word wider than the width gets a line of its own.
func (r *mdRender) wrap(ps []piece, width int) []string {
	var (
		lines []string
		line  strings.Builder
		lineW int
		word  strings.Builder // the word being read, painted
		wordW int
		space bool // a space is due before the next word
	)
	endWord := func() {
		if wordW == 0 {
			return
		}
		gap := 0
		if space && lineW > 0 {
			gap = 1
		}
		if lineW > 0 && lineW+gap+wordW > width {
			lines = append(lines, line.String())
			line.Reset()
			lineW, gap = 0, 0
		}
		if gap > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(word.String())
		lineW += gap + wordW
		word.Reset()
		wordW, space = 0, false
	}
	for _, p := range ps {
		if p.brk {
			endWord()
			lines = append(lines, line.String())
			line.Reset()
			lineW, space = 0, false
			continue
		}
		t := strings.ReplaceAll(p.text, "\n", " ")
		for t != "" {
			i := strings.IndexByte(t, ' ')
			if i < 0 {
				word.WriteString(r.paint(t, p.mask))
				wordW += ansi.StringWidth(t)
				break
			}
			if i > 0 {
				word.WriteString(r.paint(t[:i], p.mask))
				wordW += ansi.StringWidth(t[:i])
			}
			endWord()
			space = true
			t = t[i+1:]
		}
	}
	endWord()
	if lineW > 0 || len(lines) == 0 {
		lines = append(lines, line.String())
	}
	return lines
}

// blocks renders n's block children, a blank line between them (none in
// a tight list item).
func (r *mdRender) blocks(n ast.Node, width int) []string {
	var out []string
	tight := false
	if li, ok := n.(*ast.ListItem); ok {
		if l, ok := li.Parent().(*ast.List); ok {
			tight = l.IsTight
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := r.block(c, width)
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

// block renders one block node at width.
func (r *mdRender) block(n ast.Node, width int) []string {
	width = max(width, 4)
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return r.wrap(r.inline(n, 0, nil), width)
	case *ast.Heading:
		ps := append([]piece{{text: strings.Repeat("#", n.Level) + " ", mask: mdHeading}}, r.inline(n, mdHeading, nil)...)
		return r.wrap(ps, width)
	case *ast.ThematicBreak:
		return []string{r.paint(strings.Repeat("─", min(width, 40)), mdSubtle)}
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		return r.code(n)
	case *ast.HTMLBlock:
		var out []string
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			out = append(out, strings.TrimRight(string(seg.Value(r.src)), "\n"))
		}
		return out
	case *ast.Blockquote:
		return prefixed(r.blocks(n, width-2), r.paint("│", mdSubtle)+" ", r.paint("│", mdSubtle)+" ")
	case *ast.List:
		return r.list(n, width)
	case *east.Table:
		return r.table(n, width)
	}
	return r.blocks(n, width)
}

// code renders a code block's lines indented: colored by Chroma's lexer
// for a fenced block's language when it knows the language, in the code
// style otherwise.
func (r *mdRender) code(n ast.Node) []string {
	var out []string
	lines := n.Lines()
	if f, ok := n.(*ast.FencedCodeBlock); ok && f.Info != nil {
		var src strings.Builder
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			src.Write(seg.Value(r.src))
		}
		if hl, ok := r.highlighter().Code(string(f.Language(r.src)), src.String()); ok {
			for _, l := range hl {
				out = append(out, "  "+l)
			}
			return out
		}
	}
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		l := strings.TrimRight(string(seg.Value(r.src)), "\n")
		out = append(out, "  "+r.paint(l, mdCode))
	}
	return out
}

// highlighter is the theme's highlighter, built on the first code block.
func (r *mdRender) highlighter() *highlight.Highlighter {
	if r.hl == nil {
		r.hl = highlight.New(r.st)
	}
	return r.hl
}

// list renders a list's items after their bullets or numbers.
func (r *mdRender) list(n *ast.List, width int) []string {
	var out []string
	num := n.Start
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		marker := "• "
		if n.IsOrdered() {
			marker = strconv.Itoa(num) + string(n.Marker) + " "
			num++
		}
		mw := ansi.StringWidth(marker)
		lines := r.blocks(c, width-mw)
		if len(lines) == 0 {
			lines = []string{""}
		}
		if len(out) > 0 && !n.IsTight {
			out = append(out, "")
		}
		out = append(out, prefixed(lines, r.paint(marker, mdSubtle), strings.Repeat(" ", mw))...)
	}
	return out
}

// table renders a GFM table, its cells cut to make it fit the width.
func (r *mdRender) table(n *east.Table, width int) []string {
	var rows [][]string
	var align []east.Alignment
	head := -1
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		mask := 0
		if _, ok := row.(*east.TableHeader); ok {
			mask, head = mdTableHead, len(rows)
		}
		var cells []string
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, strings.Join(r.wrap(r.inline(cell, mask, nil), 1<<30), " "))
			if c, ok := cell.(*east.TableCell); ok && len(align) < len(cells) {
				align = append(align, c.Alignment)
			}
		}
		rows = append(rows, cells)
	}
	cols := 0
	for _, cells := range rows {
		cols = max(cols, len(cells))
	}
	if cols == 0 {
		return nil
	}
	widths := make([]int, cols)
	for _, cells := range rows {
		for i, c := range cells {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	// Shrink the widest column until the table fits: 3 cells between
	// columns (" │ ").
	for total(widths)+3*(cols-1) > width {
		w := 0
		for i := range widths {
			if widths[i] > widths[w] {
				w = i
			}
		}
		if widths[w] <= 1 {
			break
		}
		widths[w]--
	}
	sep := " " + r.paint("│", mdSubtle) + " "
	var out []string
	for ri, cells := range rows {
		parts := make([]string, cols)
		for i := range parts {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			if ansi.StringWidth(c) > widths[i] {
				c = ansi.Truncate(c, widths[i], "…")
			}
			pad := max(0, widths[i]-ansi.StringWidth(c))
			switch {
			case i < len(align) && align[i] == east.AlignRight:
				parts[i] = strings.Repeat(" ", pad) + c
			case i < len(align) && align[i] == east.AlignCenter:
				parts[i] = strings.Repeat(" ", pad/2) + c + strings.Repeat(" ", pad-pad/2)
			default:
				parts[i] = c + strings.Repeat(" ", pad)
			}
		}
		out = append(out, strings.TrimRight(strings.Join(parts, sep), " "))
		if ri == head {
			rule := make([]string, cols)
			for i, w := range widths {
				rule[i] = strings.Repeat("─", w)
			}
			out = append(out, r.paint(strings.Join(rule, "─┼─"), mdSubtle))
		}
	}
	return out
}

func total(ws []int) int {
	n := 0
	for _, w := range ws {
		n += w
	}
	return n
}

// prefixed puts first before the first line and rest before the others.
func prefixed(lines []string, first, rest string) []string {
	for i := range lines {
		p := rest
		if i == 0 {
			p = first
		}
		if lines[i] == "" {
			lines[i] = strings.TrimRight(p, " ")
			continue
		}
		lines[i] = p + lines[i]
	}
	return lines
}
