// Package header is the browser's header, a room over the body: the
// dataset's title, kind, record and status counts and the dataset
// switcher; its facts (or the compact header a format describes); its
// metrics per filter, reported beside recomputed. It takes no keys; the
// root refreshes it from its sources after every message (Refresh), so
// View only reads.
package header

import (
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/query"
	"evalview/model/runstats"
	"evalview/tui/content"
	"evalview/tui/list"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// Pane shows the dataset: title, kind, counts and the dataset
// switcher; the facts; the metrics per filter.
type Pane struct {
	c      *ui.Common
	ds     *model.Dataset
	dsIdx  int
	dsN    int
	filter int
	lines  int
	rule   bool
	w      int
	// metrics caches the recomputed metrics per dataset.
	metrics *Metrics
	counts  countCache
	// switchX is the column span of the dataset switcher, for clicks.
	switchX [2]int
	src     Sources
	// sheet is what the sheet on top says of itself (ui.Describer), nil
	// when the list and detail show or the sheet is over one dataset.
	sheet *ui.Description
}

// SetSheet makes the header describe the sheet on screen (d), or the
// dataset again (nil): on the overview it says what the overview holds,
// not what one of its datasets does.
func (h *Pane) SetSheet(d *ui.Description) { h.sheet = d }

// Sources are what the header reads of the browser around it.
type Sources struct {
	// Shown gives the dataset shown, its position among n open, and the
	// selected filter; the root owns them.
	Shown func() (ds *model.Dataset, idx, n, filter int)
	// Deep gives a dataset's finished deep report (nil while its pass is
	// pending): its findings are counted as check counts them.
	Deep func(*model.Dataset) *model.DeepReport
	// Threshold is the one a scored dataset's statuses are read at (as
	// the list's glyphs are), nil for other datasets.
	Threshold func(*model.Dataset) *float64
	// Figures are a scored dataset's figures at its threshold, for the
	// compact header's figures line.
	Figures func(*model.Dataset) runstats.Figures
	// Shared are the list's facts about what every row of the dataset
	// shown has in common (list.Pane.ConstantFacts: the columns it left
	// out as the same on every row, the lead the titles share), shown
	// after the origin facts.
	Shared func() []model.Fact
}

// countCache holds the status and issue counts of one dataset under one
// filter, for one length of its index and number of dataset issues.
type countCache struct {
	ds          *model.Dataset
	filter      int
	n, dsIssues int
	// threshold is the one a scored dataset's statuses were read at.
	threshold float64
	// deep is the deep report counted, nil before the pass ends.
	deep        *model.DeepReport
	counts      [4]int
	errs, warns int
	// notes counts the dataset's notes (how it was read: no finding),
	// shown apart from the warnings, as check counts them.
	notes int
	// bare counts the unscored records without a score either (a
	// results-only subtask has a score but no pass or fail).
	bare int
}

// New builds the header over its sources.
func New(c *ui.Common, src Sources) *Pane {
	return &Pane{c: c, src: src, metrics: &Metrics{byDS: map[*model.Dataset][]model.MetricComparison{}}}
}

// Metrics is the cache of recomputed metrics the header keeps, which the
// sheets that show them read too.
func (h *Pane) Metrics() *Metrics { return h.metrics }

// Scored reports whether the header counted a record of ds that passed,
// failed or errored under the selected filter; ok is false when the
// header does not show ds.
func (h *Pane) Scored(ds *model.Dataset) (scored, ok bool) {
	if h.ds != ds {
		return false, false
	}
	h.Refresh() // cached: recounts only when the dataset or filter changed
	c := h.counts.counts
	return c[model.StatusPass]+c[model.StatusFail]+c[model.StatusError] > 0, true
}

// SwitchAt says where a click at column x of the header's first line
// goes: -1 on the left half of the dataset switcher ("‹ dataset 2/5 ›"),
// 1 on its right half, 0 elsewhere.
func (h *Pane) SwitchAt(x int) int {
	if !h.switchAt(x) {
		return 0
	}
	if x < (h.switchX[0]+h.switchX[1])/2 {
		return -1
	}
	return 1
}

// SetSize sets the header's rectangle: its text lines, and a rule under
// them when it is 4 lines high or more (ComputeLayout gives 2, 3, 3+1 or
// 4+1).
func (h *Pane) SetSize(w, height int) {
	h.w, h.rule = w, height >= 4
	h.lines = height
	if h.rule {
		h.lines--
	}
}

// Update does nothing: the header takes no keys, and the root refreshes
// it from the state after every message (refresh).
func (h *Pane) Update(tea.Msg) tea.Cmd { return nil }

// Actions are none: the header takes no keys.
func (h *Pane) Actions() []ui.Action { return nil }

// ShortHelp is empty: the header has no keys.
func (h *Pane) ShortHelp() []key.Binding { return nil }

// FullHelp is empty: the header has no keys.
func (h *Pane) FullHelp() [][]key.Binding { return nil }

// The header is a component like the sheets.
var _ ui.Component = (*Pane)(nil)

// Refresh takes in what the header shows from its source (the dataset,
// its position, the selected filter) and recomputes from the summaries
// the status and issue counts (when the dataset, the filter or the index
// length changed) and, once the index is complete, the recomputed
// metrics. The root calls it after every message, so View only reads.
func (h *Pane) Refresh() {
	if h.src.Shown != nil {
		h.ds, h.dsIdx, h.dsN, h.filter = h.src.Shown()
	}
	if h.ds == nil {
		return
	}
	n := h.ds.Records.Len()
	c := &h.counts
	// A growing index adds the dataset's own issues when it completes,
	// at the same length: their number is part of the key.
	// A scored dataset's statuses are read at its threshold (t, +, -),
	// as the list's glyphs are.
	env := query.Env{Dataset: h.ds}
	if h.src.Threshold != nil {
		env.Threshold = h.src.Threshold(h.ds)
	}
	th := -1.0
	if env.Threshold != nil {
		th = *env.Threshold
	}
	var rep *model.DeepReport
	if h.src.Deep != nil {
		rep = h.src.Deep(h.ds)
	}
	if c.ds != h.ds || c.filter != h.filter || c.n != n || c.dsIssues != len(h.ds.Issues) || c.threshold != th || c.deep != rep {
		*c = countCache{ds: h.ds, filter: h.filter, n: n, dsIssues: len(h.ds.Issues), threshold: th, deep: rep}
		c.errs, c.warns = model.CountIssues(h.ds.Issues)
		c.notes = model.CountNotes(h.ds.Issues)
		if rep != nil {
			// The deep check's findings about records are in their
			// summaries' counts once it re-extracted them; those about
			// the dataset (filters re-applied with the harness's
			// defaults) only in its report.
			var about []model.Issue
			for _, is := range rep.Issues {
				if is.Record == "" {
					about = append(about, is)
				}
			}
			e, w := model.CountIssues(about)
			c.errs, c.warns, c.notes = c.errs+e, c.warns+w, c.notes+model.CountNotes(about)
		}
		for i := 0; i < n; i++ {
			s := env.Summary(i)
			o := s.Outcome(h.filter)
			c.counts[list.ShownStatus(o)]++
			if list.ShownStatus(o) == model.StatusUnscored && (!o.Present || !o.HasScore) {
				c.bare++
			}
			c.errs += s.Errors
			c.warns += s.Warnings
		}
	}
	if h.ds.Records.Done() {
		h.metrics.Get(h.ds) // once, for metricsLine
	}
}

// Metrics holds each dataset's metrics recomputed from its samples,
// once its index is complete (they read every summary): the header and
// the filter comparison show them.
type Metrics struct {
	byDS map[*model.Dataset][]model.MetricComparison
}

// Get is ds's recomputed metrics, cached once its index is complete (a
// growing index is recomputed on each call).
func (c *Metrics) Get(ds *model.Dataset) []model.MetricComparison {
	if ms, ok := c.byDS[ds]; ok {
		return ms
	}
	ms := model.RecomputeMetrics(ds)
	if ds.Records.Done() {
		c.byDS[ds] = ms
	}
	return ms
}

// cached is ds's recomputed metrics if they are cached.
func (c *Metrics) cached(ds *model.Dataset) ([]model.MetricComparison, bool) {
	ms, ok := c.byDS[ds]
	return ms, ok
}

// View renders the header: h.lines lines plus the rule.
func (h *Pane) View() string {
	if h.w <= 0 || h.lines <= 0 {
		return ""
	}
	h.switchX = [2]int{-1, -1}
	if h.sheet != nil {
		return h.sheetView(*h.sheet)
	}
	if h.ds != nil && h.ds.Presentation.Header != nil {
		return h.compactView(h.ds.Presentation.Header)
	}
	var out []string
	out = append(out, h.titleLine())
	if h.lines >= 3 {
		out = append(out, h.factLines(h.lines-2)...)
	}
	out = append(out, h.metricsLine())
	for len(out) < h.lines {
		out = append(out, "")
	}
	out = out[:h.lines]
	if h.rule {
		out = append(out, h.c.Styles.Header.Rule.Render(strings.Repeat("─", h.w)))
	}
	for i, l := range out {
		out[i] = text.Pad(l, h.w)
	}
	return strings.Join(out, "\n")
}

// titleLine is "gsm8k  lm-eval · 1319 records · ✓ 130 ✗ 1189 · ‼ 1 ⚠ 2"
// with "‹ dataset 2/5 ›" on the right when several are open.
func (h *Pane) titleLine() string {
	st := h.c.Styles
	if h.ds == nil {
		return st.Header.Title.Render("evalview") + st.Header.Kind.Render("  no dataset")
	}
	title := text.OneLine(h.ds.Title)
	if title == "" {
		title = text.OneLine(h.ds.Task)
	}
	n := h.ds.Records.Len()
	info := " " + string(h.ds.Kind) + " · " + text.Plural(n, "record")
	if !h.ds.Records.Done() {
		info += " so far"
	}
	c := h.counts.counts
	counts := st.Status.Pass.Render("✓"+strconv.Itoa(c[model.StatusPass])) + " " +
		st.Status.Fail.Render("✗"+strconv.Itoa(c[model.StatusFail]))
	if c[model.StatusError] > 0 {
		counts += " " + st.Status.Error.Render("!"+strconv.Itoa(c[model.StatusError]))
	}
	if c[model.StatusUnscored] > 0 {
		counts += " " + st.Status.Unscored.Render("·"+strconv.Itoa(c[model.StatusUnscored]))
	}
	if c[model.StatusPass]+c[model.StatusFail]+c[model.StatusError] == 0 {
		// Nothing scored (a testset, unjudged samples, an empty run):
		// "✓0 ✗0" would read as a score; say what there is.
		counts = ""
		if u := h.counts.bare; u > 0 {
			counts = st.Status.Unscored.Render("·" + strconv.Itoa(u) + " unscored")
		}
	}
	issues := ""
	if e, w, nt := h.counts.errs, h.counts.warns, h.counts.notes; e+w+nt > 0 {
		var parts []string
		for _, c := range []struct {
			sev model.Severity
			n   int
		}{{model.SeverityError, e}, {model.SeverityWarning, w}, {model.SeverityNote, nt}} {
			if c.n > 0 {
				parts = append(parts, content.IssueStyle(st, c.sev).Render(content.IssueGlyph(c.sev)+strconv.Itoa(c.n)))
			}
		}
		issues = "  " + strings.Join(parts, " ")
	}
	right := ""
	if h.dsN > 1 {
		right = st.Header.Switcher.Render("‹ dataset " + strconv.Itoa(h.dsIdx+1) + "/" + strconv.Itoa(h.dsN) + " ›")
	}
	rw := text.Width(right)
	avail := h.w
	if rw > 0 {
		avail -= rw + 1
	}
	left := st.Header.Title.Render(fitTitle(title, " "+info+"  "+counts+issues, avail)) + " " +
		st.Header.Kind.Render(info) + "  " + counts + issues
	h.switchX = [2]int{-1, -1}
	if rw == 0 {
		return text.Truncate(left, h.w)
	}
	left = text.Truncate(left, max(0, h.w-rw-1))
	if rw > h.w {
		return text.Truncate(right, h.w)
	}
	h.switchX = [2]int{h.w - rw, h.w}
	return text.Pad(left, h.w-rw) + right
}

// minTitle is the fewest cells a dataset's title keeps in the header's
// title line when the rest does not fit beside it.
const minTitle = 12

// fitTitle cuts title so that rest (the kind, the record count, the
// status and issue counts) fits beside it in w cells: a run's title is
// long (its model, settings and date), and at 80 columns it pushed the
// ✓/✗ counts and the error count off the line. The title keeps at least
// minTitle cells; past that the line is cut at its end. With room for
// both of its ends the title is cut in its middle: its end names the run
// (a run's date, an lm-eval task after its model's folder).
func fitTitle(title, rest string, w int) string {
	room := max(minTitle, w-text.Width(rest))
	if room >= 30 {
		return text.TruncateMiddle(title, room)
	}
	return text.Truncate(title, room)
}

// switchAt reports whether column x of the title line is on the dataset
// switcher.
func (h *Pane) switchAt(x int) bool {
	h.titleLine() // lays the line out and records where the switcher is
	return x >= h.switchX[0] && x < h.switchX[1]
}

// factLines packs the facts into up to n lines, "key: value" separated by
// " · ", ending with "+N more" when some do not fit.
func (h *Pane) factLines(n int) []string {
	if h.ds == nil || n <= 0 {
		return nil
	}
	facts := model.HeaderFacts(h.ds) // every header names the model and run
	if len(facts) == 0 && h.ds.Path != "" {
		facts = []model.Fact{{Key: "path", Value: h.ds.Path}}
	}
	facts = withShared(facts, h.shared())
	return h.packFactLines(facts, n, originCaps(facts, h.w, max(12, h.w/3), 9))
}

// sheetView is the header of a sheet that describes itself: its title
// and counts, then its facts, packed into the lines there are.
func (h *Pane) sheetView(d ui.Description) string {
	st := h.c.Styles
	out := []string{text.Truncate(st.Header.Title.Render(text.OneLine(d.Title))+"  "+st.Header.Kind.Render(text.OneLine(d.What)), h.w)}
	// A sheet's facts are few: each may take the line, cut at its end
	// (a list of models reads from its start).
	caps := map[int]int{}
	facts := slices.Clone(d.Facts)
	for i, f := range facts {
		facts[i].Value = text.Truncate(text.OneLine(f.Value), max(12, h.w-text.Width(f.Key)-2))
		caps[i] = text.Width(facts[i].Value)
	}
	out = append(out, h.packFactLines(facts, h.lines-1, caps)...)
	for len(out) < h.lines {
		out = append(out, "")
	}
	out = out[:h.lines]
	if h.rule {
		out = append(out, st.Header.Rule.Render(strings.Repeat("─", h.w)))
	}
	for i, l := range out {
		out[i] = text.Pad(l, h.w)
	}
	return strings.Join(out, "\n")
}

// packFactLines packs facts into up to n lines, "key: value" separated by
// " · ", ending with "+N more" when some do not fit; caps are the widths
// some values are cut to in their middle.
func (h *Pane) packFactLines(facts []model.Fact, n int, caps map[int]int) []string {
	st := h.c.Styles
	if n <= 0 {
		return nil
	}
	maxVal := max(12, h.w/3)
	sep := st.Header.Kind.Render(" · ")
	const moreRoom = 9 // " +NN more"
	var lines []string
	cur, curW := "", 0
	shown := 0
	for i, f := range facts {
		val := text.Truncate(text.OneLine(f.Value), maxVal)
		if f.Key == list.EveryRow {
			// The columns the list left out: the line's width, not a
			// third of it (no sheet lists them whole).
			val = text.Truncate(text.OneLine(f.Value), max(maxVal, h.w-text.Width(f.Key)-2))
		}
		if c, ok := caps[i]; ok {
			val = text.TruncateMiddle(text.OneLine(f.Value), c)
		}
		item := st.Header.FactKey.Render(text.OneLine(f.Key)+": ") + st.Header.FactValue.Render(val)
		iw := text.Width(item)
		room := h.w
		if len(lines) == n-1 && i < len(facts)-1 {
			room -= moreRoom // the last line may have to say what is left out
		}
		if curW > 0 && curW+3+iw > room {
			if len(lines) == n-1 {
				break
			}
			lines = append(lines, cur)
			cur, curW = "", 0
			if len(lines) == n-1 && i < len(facts)-1 {
				room = h.w - moreRoom
			}
		}
		if curW == 0 && iw > room {
			item = text.Truncate(item, room)
			iw = text.Width(item)
		}
		if curW > 0 {
			cur += sep
			curW += 3
		}
		cur += item
		curW += iw
		shown++
	}
	if rest := len(facts) - shown; rest > 0 {
		cur += st.Header.Kind.Render(" +" + strconv.Itoa(rest) + " more")
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	for i := range lines {
		lines[i] = text.Truncate(lines[i], h.w)
	}
	return lines
}

// shared are the list's facts about what every row has in common.
func (h *Pane) shared() []model.Fact {
	if h.src.Shared == nil {
		return nil
	}
	return h.src.Shared()
}

// withShared puts the list's fact about the columns it left out (same
// on every row) after the leading origin facts (task, model, run), where
// it is read with them, and the others (the lead the titles share, which
// the list's "…" marks already) last.
func withShared(facts, shared []model.Fact) []model.Fact {
	if len(shared) == 0 {
		return facts
	}
	var first, last []model.Fact
	for _, f := range shared {
		if f.Key == list.EveryRow {
			first = append(first, f)
		} else {
			last = append(last, f)
		}
	}
	at := 0
	for at < len(facts) && at < 3 && slices.Contains([]string{"task", "model", "run"}, facts[at].Key) {
		at++
	}
	return slices.Concat(facts[:at], first, facts[at:], last)
}

// originCaps are the widths the leading origin facts' values (task,
// model, run, in HeaderFacts' order) are cut to, in the middle, so that
// they share the first line of width w: the longest value is shortened
// first, none below 12 cells; the run is left whole. Nothing when they
// fit as they are.
func originCaps(facts []model.Fact, w, maxVal, moreRoom int) map[int]int {
	lead := 0
	for lead < len(facts) && lead < 3 && slices.Contains([]string{"task", "model", "run"}, facts[lead].Key) {
		lead++
	}
	if lead < 2 || facts[lead-1].Key != "run" {
		return nil
	}
	widths := make([]int, lead)
	need := 3 * (lead - 1)
	if lead < len(facts) {
		need += moreRoom
	}
	for i := range lead {
		widths[i] = min(text.Width(text.OneLine(facts[i].Value)), maxVal)
		need += text.Width(facts[i].Key) + 2 + widths[i]
	}
	caps := map[int]int{}
	for need > w {
		longest := -1
		for i := range lead - 1 { // the run stays whole
			if widths[i] > 12 && (longest < 0 || widths[i] > widths[longest]) {
				longest = i
			}
		}
		if longest < 0 {
			break
		}
		widths[longest]--
		caps[longest] = widths[longest]
		need--
	}
	return caps
}

// metricsLine shows, per filter, the main metric as reported with its
// stderr ("strict-match exact_match 0.10 ±0.10"), flags a recomputed value
// that disagrees, and falls back to the recomputed value when nothing is
// reported. The selected filter is marked.
func (h *Pane) metricsLine() string {
	st := h.c.Styles
	if h.ds == nil {
		return ""
	}
	var parts []string
	for _, c := range model.MainFirst(h.comparisons(), h.ds.MainMetric) {
		var p string
		if c.Filter != "" {
			mark := ""
			if h.filter >= 0 && h.filter < len(h.ds.Filters) && h.ds.Filters[h.filter] == c.Filter {
				mark = "▸"
			}
			p = st.Header.MetricFilter.Render(mark+text.OneLine(c.Filter)) + " "
		}
		p += st.Header.MetricName.Render(text.OneLine(c.Name)) + " "
		switch {
		case c.HasReport:
			p += st.Header.MetricValue.Render(text.FormatScore(c.Reported))
			if c.HasStderr {
				p += st.Header.Stderr.Render(" ±" + text.FormatScore(c.Stderr))
			}
			if c.Differs() {
				p += st.Header.Differs.Render(" (samples " + text.FormatScore(c.Samples) + ")")
			}
		case c.HasSamples:
			p += st.Header.MetricValue.Render(text.FormatScore(c.Samples)) +
				st.Header.Stderr.Render(" (from "+text.Plural(c.N, "sample")+")")
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		if note := h.ds.Presentation.NoMetrics; note != "" {
			return st.Header.Kind.Render(text.OneLine(note))
		}
		return st.Header.Kind.Render("no metrics reported")
	}
	return text.Truncate(strings.Join(parts, st.Header.Kind.Render(" │ ")), h.w)
}

// comparisons returns the reported metrics beside the recomputed ones
// (only the reported ones while the index is still growing).
func (h *Pane) comparisons() []model.MetricComparison {
	if c, ok := h.metrics.cached(h.ds); ok {
		return c
	}
	var out []model.MetricComparison
	for _, m := range h.ds.Metrics {
		out = append(out, model.MetricComparison{Filter: m.Filter, Name: m.Name, Reported: m.Value, HasReport: true, Stderr: m.Stderr, HasStderr: m.HasStderr})
	}
	return out
}
