package content

import (
	"strings"

	"evalview/model"
	"evalview/tui/text"
)

// gridSep separates the columns of a grid.
const gridSep = " │ "

// minGridCol is the narrowest a wrapped grid column gets.
const minGridCol = 10

// grid writes a section's table with every cell whole: when the columns
// do not fit side by side, the widest shrink and their cells wrap inside
// them (a step's inputs beside its expected output, each read in full);
// when even that cannot fit, each row becomes a block of "column: value"
// lines.
func (b *builder) grid(t *model.Table) {
	n := len(t.Columns)
	if n == 0 {
		return
	}
	widths := cellWidths(t.Columns, t.Rows)
	avail := b.w - text.Width(gridSep)*(n-1)
	sum := func() int {
		s := 0
		for _, w := range widths {
			s += w
		}
		return s
	}
	if sum() > avail {
		// Lower the widest columns to one level, so the space is shared
		// rather than one column squeezed to nothing.
		level := widths[widest(widths)]
		for level > minGridCol && sum() > avail {
			level--
			for i := range widths {
				widths[i] = min(widths[i], level)
			}
		}
		if sum() > avail {
			b.tableBlocks(table{cols: t.Columns, rows: t.Rows})
			return
		}
		// Hand back what the last step took beyond the need.
		for i := 0; sum() < avail && i < n; i++ {
			if widths[i] == level {
				widths[i]++
			}
		}
	}
	// Folded (the default), a row keeps to one line and long cells are
	// cut, so a whole case fits on a screen; unfolded (z), cells wrap and
	// are read whole.
	cut := 0
	for _, r := range t.Rows {
		for i := 0; i < n && i < len(r); i++ {
			if text.Width(text.OneLine(r[i])) > widths[i] {
				cut++
			}
		}
	}
	wrap := b.o.Unfold || cut == 0
	sep := render(b.st.Detail.Subtle, gridSep)
	write := func(cells []string, header bool) int {
		wrapped := make([][]string, n)
		height := 1
		for i := 0; i < n; i++ {
			c := ""
			if i < len(cells) {
				c = text.OneLine(cells[i])
			}
			if wrap {
				wrapped[i] = text.Wrap(c, widths[i])
			} else {
				wrapped[i] = []string{text.Truncate(c, widths[i])}
			}
			height = max(height, len(wrapped[i]))
		}
		for l := 0; l < height; l++ {
			parts := make([]string, n)
			for i := 0; i < n; i++ {
				c := ""
				if l < len(wrapped[i]) {
					c = wrapped[i][l]
				}
				c = text.Pad(c, widths[i])
				if header {
					c = render(b.st.Detail.TableHeader, c)
				} else if i == 0 {
					c = render(b.st.Detail.Key, c)
				}
				parts[i] = c
			}
			b.add(strings.TrimRight(strings.Join(parts, sep), " "))
		}
		return height
	}
	// A row's continuation lines leave its first column empty, which
	// tells where the next row starts.
	write(t.Columns, true)
	for _, r := range t.Rows {
		write(r, false)
	}
	if !wrap {
		b.fold(text.Plural(cut, "cell") + " cut to fit")
	}
}

// flowFacts writes facts packed on as few lines as they fit, "key: value"
// units separated by " · ": a dense form for a one-screen view. A unit
// wider than the line wraps on its own.
func (b *builder) flowFacts(facts []model.Fact) {
	dot := render(b.st.Detail.Subtle, " · ")
	line, lw := "", 0
	flush := func() {
		if line != "" {
			b.add(line)
		}
		line, lw = "", 0
	}
	for _, f := range facts {
		k, v := text.OneLine(f.Key), text.OneLine(f.Value)
		w := text.Width(k) + 2 + text.Width(v)
		unit := render(b.st.Detail.Key, k+":") + " " + v
		switch {
		case w > b.w:
			flush()
			b.kv(f.Key, f.Value, 0)
		case lw == 0:
			line, lw = unit, w
		case lw+3+w <= b.w:
			line, lw = line+dot+unit, lw+3+w
		default:
			flush()
			line, lw = unit, w
		}
	}
	flush()
}
