package ui

import (
	"strings"

	"evalview/tui/styles"
	"evalview/tui/text"
)

// FitLines cuts lines to a w×h rectangle: exactly h lines of w cells,
// padded with blank lines; "" when the rectangle is empty.
func FitLines(lines []string, w, h int) string {
	if h <= 0 || w <= 0 {
		return ""
	}
	out := make([]string, h)
	for i := range out {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out[i] = text.Pad(text.Truncate(l, w), w)
	}
	return strings.Join(out, "\n")
}

// Scroll keeps a sheet's lines within its rectangle: scrolled so a
// cursor's line shows (Render), or where the user scrolled it (View).
type Scroll struct {
	W, H, Offset int
}

// Render cuts lines to the rectangle, scrolled so cursorLine shows.
func (sc *Scroll) Render(lines []string, cursorLine int) string {
	if cursorLine < sc.Offset {
		sc.Offset = cursorLine
	}
	if cursorLine >= sc.Offset+sc.H {
		sc.Offset = cursorLine - sc.H + 1
	}
	return sc.View(lines)
}

// View cuts lines to the rectangle at the current offset, kept in range.
func (sc *Scroll) View(lines []string) string {
	if sc.H <= 0 || sc.W <= 0 {
		return ""
	}
	sc.Offset = max(0, min(sc.Offset, len(lines)-sc.H))
	return FitLines(lines[sc.Offset:], sc.W, sc.H)
}

// Table lays out a table of plain (already sanitized) cells within w: a
// header line, then one line per row; the first column shrinks when it
// must. right marks right-aligned columns; style, when set, styles a
// padded cell.
func Table(st *styles.Styles, cols []string, rows [][]string, right map[int]bool, style func(r, c int, cell string) string, w int) []string {
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = text.Width(c)
	}
	for _, r := range rows {
		for i := 0; i < len(cols) && i < len(r); i++ {
			widths[i] = max(widths[i], text.Width(r[i]))
		}
	}
	total := len(cols) - 1
	for _, x := range widths {
		total += x
	}
	if total > w {
		widths[0] = max(4, widths[0]-(total-w))
	}
	line := func(cells []string, r int) string {
		parts := make([]string, len(cols))
		for i := range cols {
			c := ""
			if i < len(cells) {
				c = text.Truncate(cells[i], widths[i])
			}
			if right[i] {
				c = text.PadLeft(c, widths[i])
			} else {
				c = text.Pad(c, widths[i])
			}
			if r >= 0 && style != nil {
				c = style(r, i, c)
			}
			parts[i] = c
		}
		return strings.Join(parts, " ")
	}
	out := []string{st.Detail.TableHeader.Render(line(cols, -1))}
	for r, cells := range rows {
		out = append(out, line(cells, r))
	}
	return out
}
