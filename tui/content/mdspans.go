package content

import (
	"sort"
	"strings"
)

// Regex spans through markdown. In raw mode highlightSpans styles the
// bytes a filter's regex matched; in markdown mode the text goes through
// the markdown renderer, which moves, wraps and restyles it, so byte
// offsets no longer point anywhere. Instead the spans travel with the text: a private-use
// character marks each edge before rendering, and the rendered lines get
// the match style between the marks, the marks themselves dropped. A
// private-use character is ordinary text to the markdown parser (it breaks
// no emphasis, math or code span) and one cell to the wrapper, so dropping
// it only makes a line narrower.

// Span marks: characters of the Unicode private use area, which text from
// a file is checked not to hold.
const (
	markOpen  = "\uE000"
	markClose = "\uE001"
)

// sgrReset ends every style.
const sgrReset = "\x1b[m"

// markdownSpans writes t (already capped) as markdown after indent with
// spans in the match style, and reports whether it did; false means t is
// to be shown raw (see markdown). When the spans cannot travel through the
// render (the text holds the marks itself, or the renderer dropped or
// repeated one) the text renders without them under a one-line hint that
// the matches are listed below it and highlighted in raw mode.
func (b *builder) markdownSpans(t string, spans []span, indent int) bool {
	if len(spans) == 0 {
		return b.markdown(t, indent)
	}
	if !b.o.Markdown || strings.TrimSpace(t) == "" {
		return false
	}
	if marked, n, ok := markSpans(t, spans); ok {
		lines, ok := b.markdownLines(marked, indent)
		if !ok {
			return false
		}
		if painted, ok := paintSpans(lines, n, b.matchSGR()); ok {
			b.indented(painted, indent)
			return true
		}
	}
	lines, ok := b.markdownLines(t, indent)
	if !ok {
		return false
	}
	b.para("(matches not highlighted in markdown: see the lines below, or m for raw text)", b.st.Detail.Subtle, indent)
	b.indented(lines, indent)
	return true
}

// matchSGR returns the escape sequence that turns the match style on, ""
// when the style has none (plain output).
func (b *builder) matchSGR() string {
	on := b.st.Detail.Match.Render("x")
	if i := strings.Index(on, "x"); i > 0 {
		return on[:i]
	}
	return ""
}

// markSpans returns t with markOpen and markClose around each span
// (overlapping and touching spans merged) and the number of spans marked.
// ok is false when t already holds a mark, which would be taken for one.
func markSpans(t string, spans []span) (marked string, n int, ok bool) {
	if strings.Contains(t, markOpen) || strings.Contains(t, markClose) {
		return "", 0, false
	}
	merged := mergeSpans(spans)
	var sb strings.Builder
	sb.Grow(len(t) + len(merged)*2*len(markOpen))
	at := 0
	for _, s := range merged {
		start, end := markAt(t, s.start), markAt(t, s.end)
		if end <= start || start < at {
			continue
		}
		sb.WriteString(t[at:start])
		sb.WriteString(markOpen)
		sb.WriteString(t[start:end])
		sb.WriteString(markClose)
		at = end
		n++
	}
	sb.WriteString(t[at:])
	return sb.String(), n, true
}

// markAt moves a mark position off the middle of a CRLF, where it would
// keep the sanitizer from pairing the two.
func markAt(t string, i int) int {
	if i > 0 && i < len(t) && t[i-1] == '\r' && t[i] == '\n' {
		return i + 1
	}
	return i
}

// mergeSpans sorts spans and merges those that overlap or touch.
func mergeSpans(spans []span) []span {
	s := append([]span(nil), spans...)
	sort.Slice(s, func(i, j int) bool { return s[i].start < s[j].start })
	var out []span
	for _, x := range s {
		if k := len(out) - 1; k >= 0 && x.start <= out[k].end {
			out[k].end = max(out[k].end, x.end)
			continue
		}
		out = append(out, x)
	}
	return out
}

// paintSpans replaces the marks in rendered lines by the match style (on,
// its escape sequence; "" just drops the marks). Inside a span the style
// is set again after every style the renderer emits, so the match shows
// over code and emphasis, and at the span's end the renderer's own style
// of that line is restored. A span cut by a line end continues on the
// next line. ok is false unless exactly n spans opened and closed in
// order: a renderer that dropped or repeated a mark would paint the wrong
// text.
func paintSpans(lines []string, n int, on string) (out []string, ok bool) {
	out = make([]string, len(lines))
	opens, closes := 0, 0
	in := false
	for i, l := range lines {
		var sb strings.Builder
		state := "" // the renderer's styles set on this line so far
		if in && on != "" {
			sb.WriteString(on)
		}
		for j := 0; j < len(l); {
			switch {
			case strings.HasPrefix(l[j:], "\x1b["):
				k := j + 2
				for k < len(l) && (l[k] < 0x40 || l[k] > 0x7e) {
					k++
				}
				k = min(k+1, len(l))
				seq := l[j:k]
				sb.WriteString(seq)
				if strings.HasSuffix(seq, "m") {
					if seq == sgrReset || seq == "\x1b[0m" {
						state = ""
					} else {
						state += seq
					}
					if in {
						sb.WriteString(on)
					}
				}
				j = k
			case strings.HasPrefix(l[j:], markOpen):
				if in {
					return nil, false
				}
				in = true
				opens++
				sb.WriteString(on)
				j += len(markOpen)
			case strings.HasPrefix(l[j:], markClose):
				if !in {
					return nil, false
				}
				in = false
				closes++
				if on != "" {
					sb.WriteString(sgrReset + state)
				}
				j += len(markClose)
			default:
				sb.WriteByte(l[j])
				j++
			}
		}
		if in && on != "" {
			sb.WriteString(sgrReset)
		}
		out[i] = sb.String()
	}
	return out, opens == n && closes == n && !in
}
