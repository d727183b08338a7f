package header

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"evalview/model"
	"evalview/tui/list"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// The compact header (model.Header, run zips): the loader makes the facts
// into short items, most useful first, and the last line is the figures
// line: the scores at the high-score threshold (datasets with
// model.Scoring; the one thing that changes while browsing) and the
// loader's groups (progress, categories). With 2 header lines (60x15)
// only the title and a status plus figures line show; `i` lists every
// fact in full.

// compactView renders the compact header: title, h.lines-2 item lines,
// the figures line, and the rule.
func (h *Pane) compactView(ch *model.Header) string {
	out := []string{h.titleLine()}
	if h.lines >= 3 {
		out = append(out, h.itemLines(ch, h.lines-2)...)
		for len(out) < h.lines-1 {
			out = append(out, "")
		}
	}
	out = append(out, h.figuresLine(ch, h.lines < 3))
	out = out[:min(len(out), h.lines)]
	for len(out) < h.lines {
		out = append(out, "")
	}
	if h.rule {
		out = append(out, h.c.Styles.Header.Rule.Render(strings.Repeat("─", h.w)))
	}
	return ui.FitLines(out, h.w, len(out))
}

// toneStyle is how a span of a tone is drawn.
func (h *Pane) toneStyle(t model.Tone) lipgloss.Style {
	st := h.c.Styles
	switch t {
	case model.ToneKey:
		return st.Header.FactKey
	case model.ToneLabel:
		return st.Header.MetricName
	case model.ToneMuted:
		return st.Header.Kind
	case model.ToneDone:
		return st.Status.Pass
	case model.ToneFailed:
		return st.Status.Error
	case model.TonePending:
		return st.Status.Fail
	case model.ToneUnknown:
		return st.Status.Unscored
	}
	return st.Header.FactValue
}

// item draws an item's spans, each sanitized to one line.
func (h *Pane) item(it model.Item) string {
	var b strings.Builder
	for _, s := range it {
		b.WriteString(h.toneStyle(s.Tone).Render(text.OneLine(s.Text)))
	}
	return b.String()
}

// itemLines packs the status and the items into up to n lines, " · "
// between them; the last line takes the items that still fit and ends
// with "+N more (i)" when some are left out.
func (h *Pane) itemLines(ch *model.Header, n int) []string {
	items := []string{h.item(ch.Status)}
	var last []string
	for _, f := range h.shared() {
		it := h.item(model.Item{{Text: f.Key + ": ", Tone: model.ToneKey}, {Text: f.Value}})
		if f.Key == list.EveryRow && len(ch.Items) > 0 {
			// What the list left out as the same on every row, after
			// the first item (the model).
			items = append(items, h.item(ch.Items[0]), it)
			continue
		}
		last = append(last, it)
	}
	for i, it := range ch.Items {
		if i == 0 && len(items) > 1 {
			continue
		}
		items = append(items, h.item(it))
	}
	items = append(items, last...)
	lines, skipped := h.packFacts(items, n, 0)
	if ch.Hidden+skipped == 0 {
		return lines
	}
	// Some are left out: pack again, keeping room for the count.
	const moreRoom = 14 // " +NN more (i)"
	lines, skipped = h.packFacts(items, n, moreRoom)
	more := h.c.Styles.Header.Kind.Render(" +" + strconv.Itoa(ch.Hidden+skipped) + " more (i)")
	lines[len(lines)-1] += more
	return lines
}

// packFacts fills up to n lines with items, the last line reserve cells
// short; it returns the lines and how many items did not fit.
func (h *Pane) packFacts(items []string, n, reserve int) ([]string, int) {
	sep := h.c.Styles.Header.Kind.Render(" · ")
	var lines []string
	cur, curW, skipped := "", 0, 0
	for _, it := range items {
		iw := text.Width(it)
		room := h.w
		if len(lines) == n-1 {
			room -= reserve
		}
		if curW > 0 && curW+3+iw > room {
			if len(lines) < n-1 {
				lines = append(lines, cur)
				cur, curW = "", 0
				if len(lines) == n-1 {
					room -= reserve
				}
			}
		}
		switch {
		case curW > 0 && curW+3+iw <= room:
			cur += sep + it
			curW += 3 + iw
		case curW == 0 && iw <= room:
			cur, curW = it, iw
		case curW == 0 && len(lines) < n-1:
			cur, curW = text.Truncate(it, room), room // a lone long item
		default:
			skipped++ // the last line skips what does not fit, not the rest
		}
	}
	return append(lines, cur), skipped
}

// figuresLine is "mean 8.28 · 12 ≥ 8.5 │ completed 20/40 · attempts
// 101/200 · latest #20 career │ creation 3/5 · career 4/7 …"; withStatus
// starts it with the status, for headers without an item line.
func (h *Pane) figuresLine(ch *model.Header, withStatus bool) string {
	ds := h.ds
	st := h.c.Styles.Header
	var groups []string
	if withStatus {
		groups = append(groups, h.item(ch.Status))
	}
	if ds.Scoring != nil {
		f := h.src.Figures(ds)
		score := st.MetricName.Render("mean ") + st.MetricValue.Render("–")
		if f.HasMean {
			score = st.MetricName.Render("mean ") + st.MetricValue.Render(text.FormatScore(f.Mean))
		}
		score += st.Kind.Render(" · ") + st.MetricValue.Render(strconv.Itoa(f.Above)) +
			st.MetricName.Render(" ≥ ") + st.MetricFilter.Render(text.FormatThreshold(f.Threshold))
		groups = append(groups, score)
	}
	for _, g := range ch.Groups {
		items := make([]string, len(g))
		for i, it := range g {
			items[i] = h.item(it)
		}
		groups = append(groups, strings.Join(items, st.Kind.Render(" · ")))
	}
	return text.Truncate(strings.Join(groups, st.Kind.Render(" │ ")), h.w)
}
