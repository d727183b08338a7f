package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/content"
	"evalview/tui/keys"
	"evalview/tui/text"
	"evalview/tui/ui"
)

// renderKey is what a rendered tab depends on; the cache is keyed by it.
type renderKey struct {
	ds     *model.Dataset
	rec    *model.Record
	tab    content.Tab
	width  int
	filter int
	unfold bool
	// rawDepth folds the Raw tab's JSON below it (0: open).
	rawDepth int
	gen      int
	// markdown is whether message and response text renders as markdown.
	markdown bool
	// pair is the side-by-side attempts (pairOn) of the Responses tab.
	pair [2]int
	// threshold is the one a scored dataset's statuses are shown at
	// (model.Scoring.RecordAt), -1 for other datasets.
	threshold float64
}

// renderedMsg carries a tab rendered off the event loop.
type renderedMsg struct {
	key renderKey
	doc content.Doc
}

// syncRenderBytes is the record size up to which tabs render at once in
// Update (a few milliseconds); bigger records render in a command so keys
// stay responsive.
const syncRenderBytes = 16 << 10

// maxCachedDocs bounds the render cache.
const maxCachedDocs = 48

// detailPane shows one record: a tab bar over a scrolling viewport.
type detailPane struct {
	c      *ui.Common
	ds     *model.Dataset
	rec    *model.Record
	recIdx int
	tabs   []content.Tab
	tab    int
	// filter gives the selected lm-eval filter (it is highlighted in the
	// Filters tab); the root owns it.
	filter func() int
	unfold bool
	// rawDepth is the Raw tab's fold depth (z there): 0 shows all, 1
	// the top level's members folded, each z a level more open.
	rawDepth int
	vp       viewport.Model
	doc      content.Doc
	docKey   renderKey
	pending  *renderKey
	cache    map[renderKey]content.Doc
	order    []renderKey
	search   detailSearch
	// loadErr says why the selected record could not be read.
	loadErr string
	w, h    int
	focused bool
	// tabHits are the tab bar's clickable spans, pane-relative.
	tabHits []tabHit
	// markdown holds the user's markdown choice per kind (m), when made;
	// see markdownOn.
	markdown map[model.Kind]bool
	// pairOn shows two attempts side by side in Responses (|); pair holds
	// their 0-based positions (run_attempts.go).
	pairOn bool
	pair   [2]int
	// pairSide is the side of the pair last moved (0 left, 1 right):
	// the attempt the copy keys take.
	pairSide int
	// scoring gives a scored dataset's threshold (the root's).
	scoring *scoringState
}

// tabHit is a clickable tab in the tab bar.
type tabHit struct{ x0, x1, tab int }

func newDetailPane(c *ui.Common) detailPane {
	vp := viewport.New()
	vp.KeyMap = viewportKeys(c.Keys)
	vp.MouseWheelEnabled = false // the root routes the wheel by position
	vp.FillHeight = true
	return detailPane{c: c, vp: vp, cache: map[renderKey]content.Doc{}, filter: func() int { return -1 }}
}

// viewportKeys maps the browser's navigation keys onto the viewport; the
// viewport's own h/l scrolling is off (lines are wrapped, and h/l switch
// tabs).
func viewportKeys(k *keys.KeyMap) viewport.KeyMap {
	off := key.NewBinding(key.WithDisabled())
	return viewport.KeyMap{
		Up: k.Nav.Up, Down: k.Nav.Down, PageUp: k.Nav.PageUp, PageDown: k.Nav.PageDown,
		HalfPageUp: k.Nav.HalfUp, HalfPageDown: k.Nav.HalfDown, Left: off, Right: off,
	}
}

// SetSize sets the pane size, tab bar included.
// The tab shows again at the new size when the root derives the rest
// from the state (refresh).
func (d *detailPane) SetSize(w, h int) {
	d.w, d.h = w, h
	d.vp.SetWidth(w)
	d.vp.SetHeight(max(1, h-1))
}

// SetRecord shows record idx of ds (rec nil: no record). want is the tab
// name to show when the record has it.
func (d *detailPane) SetRecord(ds *model.Dataset, idx int, rec *model.Record, want string) tea.Cmd {
	d.ds, d.recIdx, d.rec, d.loadErr = ds, idx, rec, ""
	d.tabs = content.Tabs(ds, rec)
	d.tab = 0
	for i, t := range d.tabs {
		if t.Name == want {
			d.tab = i
		}
	}
	return d.refresh()
}

// TabName is the name of the shown tab, "" when there is none.
func (d *detailPane) TabName() string { return d.shownTab().Name }

// shownTab is the shown tab, the zero Tab when there is none.
func (d *detailPane) shownTab() content.Tab {
	if d.tab < len(d.tabs) {
		return d.tabs[d.tab]
	}
	return content.Tab{}
}

// selectTab shows tab i.
func (d *detailPane) selectTab(i int) tea.Cmd {
	if i < 0 || i >= len(d.tabs) || i == d.tab {
		return nil
	}
	d.tab = i
	return d.refresh()
}

func (d *detailPane) key() renderKey {
	k := renderKey{ds: d.ds, rec: d.rec, width: d.w, filter: d.filter(), unfold: d.unfold, gen: d.c.Gen, markdown: d.markdownOn(), threshold: -1}
	if t := d.scoring.at(d.ds); t != nil {
		k.threshold = *t
	}
	if d.tab < len(d.tabs) {
		k.tab = d.tabs[d.tab]
	}
	if k.tab.Content == model.TabRaw {
		k.rawDepth = d.rawDepth
	}
	k.pair = d.pairKey(k.tab)
	return k
}

// refresh shows the current tab, from the cache, rendered now, or
// rendered in a command for big records.
func (d *detailPane) refresh() tea.Cmd {
	if d.w <= 0 || d.h <= 0 {
		return nil
	}
	k := d.key()
	if k == d.docKey && d.pending == nil || d.pending != nil && *d.pending == k {
		return nil // shown, or being rendered
	}
	if doc, ok := d.cache[k]; ok {
		d.pending = nil
		d.apply(k, doc)
		return nil
	}
	if len(d.tabs) == 0 {
		d.pending = nil
		d.apply(k, content.Doc{})
		return nil
	}
	opts := content.Options{Width: d.w, Styles: d.c.Styles, Highlighter: d.c.HL, Filter: k.filter, Unfold: d.unfold, Markdown: k.markdown,
		RawDepth: k.rawDepth}
	if recordSize(d.rec) <= d.syncBytes(k) {
		d.pending = nil
		doc := renderTab(k, opts)
		d.store(k, doc)
		d.apply(k, doc)
		return nil
	}
	d.pending = &k
	return ui.SafeCmd(func() tea.Msg {
		return renderedMsg{key: k, doc: renderTab(k, opts)}
	})
}

// handleRendered takes in a tab rendered by a command.
func (d *detailPane) handleRendered(msg renderedMsg) {
	d.store(msg.key, msg.doc)
	if d.pending != nil && *d.pending == msg.key {
		d.pending = nil
		d.apply(msg.key, msg.doc)
	}
}

// Busy reports whether a tab is being rendered.
func (d *detailPane) Busy() bool { return d.pending != nil }

func (d *detailPane) store(k renderKey, doc content.Doc) {
	if _, ok := d.cache[k]; ok {
		return
	}
	if len(d.order) >= maxCachedDocs {
		delete(d.cache, d.order[0])
		d.order = d.order[1:]
	}
	d.cache[k] = doc
	d.order = append(d.order, k)
}

// apply shows doc; the scroll position is kept when only the width, the
// folds or the theme changed.
func (d *detailPane) apply(k renderKey, doc content.Doc) {
	same := k.rec == d.docKey.rec && k.tab == d.docKey.tab && k.ds == d.docKey.ds
	y := d.vp.YOffset()
	d.doc, d.docKey = doc, k
	if !same {
		d.search.cur = -1
	}
	d.search.find(d.doc.Plain)
	d.setContent()
	if same {
		d.vp.SetYOffset(y)
	} else {
		d.vp.GotoTop()
	}
}

// setContent hands the lines, with search matches highlighted, to the
// viewport.
func (d *detailPane) setContent() {
	lines := append([]string(nil), d.doc.Lines...)
	d.search.highlight(lines, d.c.Styles)
	d.vp.SetContentLines(lines)
}

// recordSize estimates how much text a record holds.
func recordSize(r *model.Record) int {
	if r == nil {
		return 0
	}
	n := 0
	for _, p := range r.Raw {
		n += len(p.JSON)
	}
	for _, a := range r.Attempts {
		n += len(a.Text) + len(a.Raw) + len(a.ErrorBody)
	}
	for _, m := range r.Messages {
		for _, s := range m.Segments {
			n += len(s.Text) + len(s.Arguments)
		}
	}
	for _, f := range r.Fields {
		n += len(f.Value)
	}
	for _, s := range r.Sections {
		n += len(s.Text) + len(s.JSON)
	}
	return n
}

// Update handles the detail's own keys: tabs, folds and scrolling.
func (d *detailPane) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	km := d.c.Keys
	switch {
	case key.Matches(k, km.Detail.Tab):
		return d.selectTab(keys.Index(km.Detail.Tab, k))
	case key.Matches(k, km.Detail.PrevTab):
		return d.selectTab((d.tab - 1 + len(d.tabs)) % max(1, len(d.tabs)))
	case key.Matches(k, km.Detail.NextTab):
		return d.selectTab((d.tab + 1) % max(1, len(d.tabs)))
	case key.Matches(k, km.Detail.Fold) && d.shownTab().Content == model.TabRaw:
		// Raw: fold everything below the top level, then open a level
		// at each press, back to all open past the deepest.
		switch {
		case d.rawDepth == 0:
			d.rawDepth = 1
		case d.rawDepth >= d.doc.Depth:
			d.rawDepth = 0
		default:
			d.rawDepth++
		}
		return d.refresh()
	case key.Matches(k, km.Detail.Fold):
		d.unfold = !d.unfold
		return d.refresh()
	case key.Matches(k, km.Detail.LastTurn) && d.doc.LastUser >= 0:
		d.vp.SetYOffset(d.doc.LastUser)
	case key.Matches(k, km.Detail.Markdown):
		return d.toggleMarkdown()
	case key.Matches(k, km.Nav.Top):
		d.vp.GotoTop()
	case key.Matches(k, km.Nav.Bottom):
		d.vp.GotoBottom()
	default:
		var cmd tea.Cmd
		d.vp, cmd = d.vp.Update(msg)
		return cmd
	}
	return nil
}

// scroll moves the content by n lines (negative: up), for the wheel.
func (d *detailPane) scroll(n int) {
	if n < 0 {
		d.vp.ScrollUp(-n)
	} else {
		d.vp.ScrollDown(n)
	}
}

// View renders the tab bar and the content, exactly d.h lines of d.w.
func (d *detailPane) View() string {
	if d.h <= 0 || d.w <= 0 {
		return ""
	}
	bar := d.tabBar()
	var body string
	switch {
	case d.loadErr != "":
		var lines []string
		for _, l := range text.Wrap("Could not read this record: "+d.loadErr, max(1, d.w-2)) {
			lines = append(lines, d.c.Styles.Issue.Error.Render("  "+l))
		}
		body = strings.Join(lines, "\n")
	case len(d.tabs) == 0:
		msg := "  No record selected."
		if d.rec != nil {
			msg = "  This record has nothing to show."
		}
		body = d.c.Styles.List.Empty.Render(text.Pad(msg, d.w))
	default:
		body = d.vp.View()
	}
	lines := strings.Split(bar+"\n"+body, "\n")
	for len(lines) < d.h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = text.Pad(l, d.w)
	}
	return strings.Join(lines[:d.h], "\n")
}

// ShortHelp is the detail's part of the help bar.
func (d *detailPane) ShortHelp() []key.Binding {
	k := d.c.Keys
	return []key.Binding{ui.Short(k.Detail.NextTab, "next tab"), ui.Short(k.Detail.Tab, "tab"), ui.Short(k.Detail.Fold, "fold"), ui.Short(k.Detail.LastTurn, "question"),
		k.Search.Start, ui.Short(k.Search.Next, "next"), ui.Short(k.Tools.Copy, "copy"), ui.Short(k.Detail.Markdown, "markdown"),
		ui.Short(k.Global.Zoom, "zoom"), ui.Short(k.Detail.Back, "list")}
}

// FullHelp is the detail's part of the `?` overlay.
func (d *detailPane) FullHelp() [][]key.Binding {
	k := d.c.Keys
	return [][]key.Binding{
		{k.Detail.PrevTab, k.Detail.NextTab, k.Detail.Tab, k.Detail.Fold, k.Detail.LastTurn, k.Detail.Markdown, k.Global.Zoom, k.Detail.Back},
	}
}
