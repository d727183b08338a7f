// Package scores is the score distribution sheet (v on a scored dataset,
// model.Scoring: a run zip): a histogram of the samples' average weighted
// scores with the high-score threshold marked, how many samples the
// site's high-score list returns at the threshold, and the mean per
// category. It reads the figures of model/runstats, which the root keeps
// at the current threshold, and redraws as the threshold moves.
package scores

import (
	"cmp"
	"math"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/runstats"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// Sheet is the score distribution of one dataset: bins of 0.5 over
// 0..10, of 1 when the body is too short for them.
type Sheet struct {
	c  *ui.Common
	ds *model.Dataset
	// figures are ds's figures at its current threshold.
	figures func() runstats.Figures
	scroll  ui.Scroll
}

// New opens the distribution of ds; figures gives its figures at the
// current threshold.
func New(c *ui.Common, ds *model.Dataset, figures func() runstats.Figures) *Sheet {
	return &Sheet{c: c, ds: ds, figures: figures}
}

// thresholdStep is how far + and - move the threshold.
const thresholdStep = 0.5

// Title names the sheet.
func (s *Sheet) Title() string { return "score distribution" }

// SetSize sets the body rectangle.
func (s *Sheet) SetSize(w, h int) { s.scroll.W, s.scroll.H = w, h }

// Update scrolls, moves the threshold, or sends the high scores to the
// list.
func (s *Sheet) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	cmd, _, _ := ui.Run(s.Actions(), k)
	return cmd
}

// Actions are the sheet's keys: the threshold, the high scores in the
// list, scrolling.
func (s *Sheet) Actions() []ui.Action {
	km := s.c.Keys
	send := func(msg tea.Msg) func() tea.Cmd { return func() tea.Cmd { return ui.Send(msg) } }
	acts := []ui.Action{
		{Binding: &km.Run.ThresholdUp, Do: send(ui.ThresholdMsg{Dataset: s.ds, Delta: thresholdStep}), Line: true},
		{Binding: &km.Run.ThresholdDn, Do: send(ui.ThresholdMsg{Dataset: s.ds, Delta: -thresholdStep}), Line: true},
		{Binding: &km.Run.Threshold, Do: send(ui.ThresholdPromptMsg{Dataset: s.ds}), Line: true},
		{Binding: &km.Scores.Choose, Do: func() tea.Cmd { return ui.Done(s, ui.HighScoresMsg{Dataset: s.ds}) }, Line: true},
		{Binding: &km.Scores.Close, Do: func() tea.Cmd { return ui.Done(s, nil) }, Line: true, Help: s.c.Back()},
		ui.OnLine(&km.Global.Help, ""),
	}
	return append(acts, ui.ScrollActions(&km.Nav, &s.scroll)...)
}

// ShortHelp lists the sheet's keys for the help line.
func (s *Sheet) ShortHelp() []key.Binding { return ui.ShortHelp(s.Actions()) }

// FullHelp lists the sheet's keys.
func (s *Sheet) FullHelp() [][]key.Binding {
	k := s.c.Keys
	return [][]key.Binding{{k.Run.ThresholdUp, k.Run.ThresholdDn, k.Run.Threshold, k.Scores.Choose, k.Scores.Close, k.Global.Help}}
}

// View renders the body: the summary lines, then the histogram and the
// category means side by side when both fit, else one under the other,
// scrolling when taller than the body.
func (s *Sheet) View() string {
	lines := s.lines()
	return s.scroll.View(lines)
}

// lines lays the sheet out at its width.
func (s *Sheet) lines() []string {
	st := s.c.Styles
	f := s.figures()
	var out []string
	name, high := "score", ""
	if sc := s.ds.Scoring; sc != nil {
		name, high = cmp.Or(text.OneLine(sc.ScoreName), name), text.OneLine(sc.HighScores)
	}
	title := "Score distribution · " + name + " per sample"
	out = append(out, st.Detail.Heading.Render(text.Truncate(title, s.scroll.W)))
	sum := strconv.Itoa(f.Scored) + " of " + text.Plural(f.Records, "sample") + " scored"
	if f.HasMean {
		sum += " · mean " + text.FormatScore(f.Mean)
	}
	out = append(out, st.Detail.Subtle.Render(sum))
	hl := st.Status.Pass.Bold(true).Render(text.Plural(f.Above, "sample") + " at or above " + threshold(f.Threshold))
	if high != "" {
		hl += st.Detail.Subtle.Render(" (" + high + ")")
	}
	out = append(out, text.Truncate(hl, s.scroll.W))
	// Bins of 0.5 while they fit the body, else of 1; no spacer when short.
	merge := 1
	if len(out)+1+len(s.histogramLines(f, s.scroll.W, 1)) > s.scroll.H {
		merge = 2
	} else {
		out = append(out, "")
	}
	const gap = 4
	cats := s.categoryLines(f)
	catW := 0
	for _, l := range cats {
		catW = max(catW, text.Width(l))
	}
	const minHist = 34
	if histW := min(56, s.scroll.W-catW-gap); histW >= minHist {
		hist := s.histogramLines(f, histW, merge)
		cw := s.scroll.W - histW - gap
		for i := 0; i < max(len(hist), len(cats)); i++ {
			l, r := "", ""
			if i < len(hist) {
				l = hist[i]
			}
			if i < len(cats) {
				r = text.Truncate(cats[i], cw)
			}
			out = append(out, text.Pad(l, histW+gap)+r)
		}
		return out
	}
	out = append(out, s.histogramLines(f, s.scroll.W, merge)...)
	out = append(out, "")
	return append(out, cats...)
}

// histogramLines draws one row per bin (merge 0.5 bins each: 0.5 or 1
// wide) from the lowest bin with a sample (or the threshold's bin) up to
// 10, the bar scaled to the fullest bin, with a marker row where the
// threshold falls.
func (s *Sheet) histogramLines(f runstats.Figures, w, merge int) []string {
	st := s.c.Styles
	n := runstats.Bins / merge
	counts := make([]int, n)
	for i, c := range f.Hist {
		counts[i/merge] += c
	}
	tb := runstats.Bin(f.Threshold, f.Max) / merge
	first := tb
	for i, c := range counts {
		if c > 0 {
			first = min(first, i)
			break
		}
	}
	peak := 1
	for _, c := range counts {
		peak = max(peak, c)
	}
	countW := len(strconv.Itoa(peak))
	const labelW = 10 // " 9.5–10.0 "
	barW := max(4, w-labelW-2-countW-1)
	binW := f.Max / float64(n)
	// One decimal tells 0.5-wide bins apart (0..10); a smaller scale's
	// bins need two.
	digits := 1
	if d := binW * 10; math.Abs(d-math.Round(d)) > 1e-9 {
		digits = 2
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', digits, 64) }
	var out []string
	if first > 0 {
		out = append(out, st.Detail.Subtle.Render("below "+num(float64(first)*binW)+": none"))
	}
	for i := first; i < n; i++ {
		lo, hi := float64(i)*binW, float64(i+1)*binW
		if i == tb {
			mark := "── threshold " + threshold(f.Threshold)
			if f.Threshold > lo+1e-9 {
				mark += " (inside the next bin)"
			}
			mark += " · " + strconv.Itoa(f.Above) + " at or above "
			out = append(out, st.Status.Pass.Render(mark+strings.Repeat("─", max(0, w-text.Width(mark)))))
		}
		label := text.PadLeft(num(lo), 4) + "–" + text.Pad(num(hi), 4)
		c := counts[i]
		full := int(math.Round(float64(c) / float64(peak) * float64(barW)))
		if c > 0 {
			full = max(1, full)
		}
		style := st.Detail.BarFull
		if hi <= f.Threshold+1e-9 {
			style = st.Detail.Subtle // wholly below the threshold
		}
		bar := style.Render(strings.Repeat("█", full)) + strings.Repeat(" ", barW-full)
		out = append(out, text.Pad(label, labelW)+"│"+bar+" "+text.PadLeft(strconv.Itoa(c), countW))
	}
	return out
}

// categoryLines is the table of category means: display name, mean with
// a bar, samples scored of all, and those at or above the threshold.
func (s *Sheet) categoryLines(f runstats.Figures) []string {
	st := s.c.Styles
	if len(f.Categories) == 0 {
		return nil
	}
	var names map[string]string
	if s.ds.Scoring != nil {
		names = s.ds.Scoring.CategoryNames
	}
	label := func(c string) string {
		if dn := names[c]; dn != "" && dn != c {
			return text.OneLine(c) + " (" + text.OneLine(dn) + ")"
		}
		return text.OneLine(c)
	}
	nameW := len("category")
	for _, c := range f.Categories {
		nameW = max(nameW, text.Width(label(c.Name)))
	}
	nameW = min(nameW, 28)
	const bar = 10
	head := text.Pad("category", nameW) + " " + text.PadLeft("mean", 5) + " " + strings.Repeat(" ", bar) + " " +
		text.PadLeft("scored", 7) + " " + text.PadLeft("≥"+threshold(f.Threshold), 5)
	out := []string{st.List.HeadingFocused.Render(head)}
	for _, c := range f.Categories {
		mean, b := text.PadLeft("–", 5), strings.Repeat(" ", bar)
		if c.Scored > 0 {
			mean = text.PadLeft(model.FormatFloat(c.Mean, 2), 5)
			full := 0
			if r := c.Mean / f.Max; r == r { // a NaN mean draws no bar, never a crash
				full = int(math.Round(math.Max(0, math.Min(1, r)) * bar))
			}
			b = st.Detail.BarFull.Render(strings.Repeat("█", full)) + st.Detail.BarEmpty.Render(strings.Repeat("░", bar-full))
		}
		out = append(out, text.Pad(text.Truncate(label(c.Name), nameW), nameW)+" "+mean+" "+b+" "+
			text.PadLeft(strconv.Itoa(c.Scored)+"/"+strconv.Itoa(c.All), 7)+" "+text.PadLeft(strconv.Itoa(c.Above), 5))
	}
	return out
}

// threshold prints a threshold without trailing zeros ("8.5", "9").
func threshold(t float64) string { return strconv.FormatFloat(t, 'f', -1, 64) }

// Wheel scrolls by delta lines.
func (s *Sheet) Wheel(delta int) { ui.WheelScroll(&s.scroll, delta) }
