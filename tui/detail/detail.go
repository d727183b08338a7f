// Package detail is the record's detail, a room of the browser: a tab
// bar over a scrolling view of the record under the list's cursor (its
// prompt, responses, filters, fields, sections, issues, raw JSON, as the
// dataset's Presentation orders them), rendered by tui/content and
// cached per record, tab, width and switches; folds, markdown or raw
// text, the search inside a tab and the highlights of the list's search,
// two attempts side by side, and what the copy keys take (Clip). It
// remembers, per dataset, the tab the user chose.
//
// Its state is unexported. The root shows a record with SetRecord, gives
// it the keys while it has the focus and its own background messages
// (Msg), and asks it through its methods for what other rooms want (a
// tab chosen from the list, the list's search followed). It reports esc
// with nothing to clear as BackMsg.
package detail

import (
	"strconv"
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

// Pane shows one record: a tab bar over a scrolling viewport.
type Pane struct {
	c      *ui.Common
	src    Sources
	ds     *model.Dataset
	rec    *model.Record
	recIdx int
	tabs   []content.Tab
	// dsIssues is how many dataset issues the tabs were chosen with: a
	// scan that finds more (a count mismatch known at its end) brings
	// the Issues tab to a record already shown.
	dsIssues int
	tab      int
	// chosen is, per dataset, the tab the user last chose: the records
	// shown next open on it when they have it.
	chosen map[*model.Dataset]string
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
	// their 0-based positions (attempts.go).
	pairOn bool
	pair   [2]int
	// pairSide is the side of the pair last moved (0 left, 1 right):
	// the attempt the copy keys take.
	pairSide int
}

// Sources are what the detail reads of the browser around it.
type Sources struct {
	// Filter is the selected lm-eval filter (highlighted in the Filters
	// tab, the answer the copy keys take there), -1 for none.
	Filter func() int
	// Threshold is the one a scored dataset's statuses are shown at, nil
	// for other datasets.
	Threshold func(*model.Dataset) *float64
}

// The detail is a component like the sheets.
var _ ui.Component = (*Pane)(nil)

// tabHit is a clickable tab in the tab bar.
type tabHit struct{ x0, x1, tab int }

// New builds the detail, showing no record yet.
func New(c *ui.Common, src Sources) *Pane {
	if src.Filter == nil {
		src.Filter = func() int { return -1 }
	}
	if src.Threshold == nil {
		src.Threshold = func(*model.Dataset) *float64 { return nil }
	}
	vp := viewport.New()
	vp.MouseWheelEnabled = false // the root routes the wheel by position
	vp.FillHeight = true
	return &Pane{c: c, src: src, vp: vp, cache: map[renderKey]content.Doc{}, chosen: map[*model.Dataset]string{}}
}

// BackMsg reports esc in the detail without a search to clear: the user
// goes back to the list.
type BackMsg struct{}

// Msg is a message of the detail's own background work (a tab rendered
// off the event loop): the root hands it back to Update.
type Msg interface{ detailMsg() }

func (renderedMsg) detailMsg() {}

// SetFocused says whether the detail has the keys (its active tab shows
// it).
func (d *Pane) SetFocused(f bool) { d.focused = f }

// SetSize sets the pane size, tab bar included.
// The tab shows again at the new size when the root derives the rest
// from the state (Refresh).
func (d *Pane) SetSize(w, h int) {
	d.w, d.h = w, h
	d.vp.SetWidth(w)
	d.vp.SetHeight(max(1, h-1))
}

// SetRecord shows record idx of ds (rec nil: no record), on the tab the
// user last chose on ds when the record has it.
func (d *Pane) SetRecord(ds *model.Dataset, idx int, rec *model.Record) tea.Cmd {
	d.ds, d.recIdx, d.rec, d.loadErr = ds, idx, rec, ""
	d.tabs, d.dsIssues = content.Tabs(ds, rec), issueCount(ds)
	d.tab = 0
	want := d.chosen[ds]
	for i, t := range d.tabs {
		if t.Name == want {
			d.tab = i
		}
	}
	return d.Refresh()
}

// SetLoadError shows why record idx of ds could not be read, in place of
// its tabs (the dataset's issues stay in reach from other records).
func (d *Pane) SetLoadError(ds *model.Dataset, idx int, err error) tea.Cmd {
	cmd := d.SetRecord(ds, idx, nil)
	d.loadErr = err.Error()
	d.tabs = nil
	return cmd
}

// Record is the record shown, nil when none is.
func (d *Pane) Record() *model.Record { return d.rec }

// Carry gives ds, a reload of old, the tab the user chose on old.
func (d *Pane) Carry(old, ds *model.Dataset) {
	if t, ok := d.chosen[old]; ok {
		d.chosen[ds] = t
		delete(d.chosen, old)
	}
}

// TabName is the name of the shown tab, "" when there is none.
func (d *Pane) TabName() string { return d.shownTab().Name }

// shownTab is the shown tab, the zero Tab when there is none.
func (d *Pane) shownTab() content.Tab {
	if d.tab < len(d.tabs) {
		return d.tabs[d.tab]
	}
	return content.Tab{}
}

// selectTab shows tab i.
func (d *Pane) selectTab(i int) tea.Cmd {
	if i < 0 || i >= len(d.tabs) || i == d.tab {
		return nil
	}
	d.tab = i
	return d.Refresh()
}

// ChooseTab shows tab i (from 0) as the user's choice, which the next
// records of the dataset open on; with i out of range the tab shown
// becomes the choice.
func (d *Pane) ChooseTab(i int) tea.Cmd {
	cmd := d.selectTab(i)
	d.chosen[d.ds] = d.TabName()
	return cmd
}

// StepTab is the position of the tab delta tabs from the one shown,
// wrapping (for ChooseTab).
func (d *Pane) StepTab(delta int) int {
	n := max(1, len(d.tabs))
	return ((d.tab+delta)%n + n) % n
}

func (d *Pane) key() renderKey {
	k := renderKey{ds: d.ds, rec: d.rec, width: d.w, filter: d.src.Filter(), unfold: d.unfold, gen: d.c.Gen, markdown: d.markdownOn(), threshold: -1}
	if t := d.src.Threshold(d.ds); t != nil {
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

// Refresh shows the current tab, from the cache, rendered now, or
// rendered in a command for big records.
func (d *Pane) Refresh() tea.Cmd {
	if d.w <= 0 || d.h <= 0 {
		return nil
	}
	if n := issueCount(d.ds); n != d.dsIssues && d.loadErr == "" {
		shown := d.TabName()
		d.tabs, d.dsIssues = content.Tabs(d.ds, d.rec), n
		d.tab = 0
		for i, t := range d.tabs {
			if t.Name == shown {
				d.tab = i
			}
		}
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
func (d *Pane) handleRendered(msg renderedMsg) {
	d.store(msg.key, msg.doc)
	if d.pending != nil && *d.pending == msg.key {
		d.pending = nil
		d.apply(msg.key, msg.doc)
	}
}

// Busy reports whether a tab is being rendered.
func (d *Pane) Busy() bool { return d.pending != nil }

func (d *Pane) store(k renderKey, doc content.Doc) {
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
func (d *Pane) apply(k renderKey, doc content.Doc) {
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
func (d *Pane) setContent() {
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

// Update takes the detail's keys while it has the focus (tabs, folds,
// scrolling, esc) and its own background messages. A tab the user picks
// becomes the dataset's chosen tab; esc clears the detail's search, else
// reports BackMsg.
func (d *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case renderedMsg:
		d.handleRendered(msg)
		return nil
	case tea.KeyPressMsg:
		cmd, _, _ := ui.Run(d.Actions(), msg)
		return cmd
	}
	return nil
}

// Actions are the detail's keys: its help line first (with the
// browser's tools it places there), then tabs, folds, scrolling and esc.
// A tab the user picks becomes the dataset's chosen tab.
func (d *Pane) Actions() []ui.Action {
	km := d.c.Keys
	dk, nav := &km.Detail, &km.Nav
	tabs := func() bool { return len(d.tabs) > 1 }
	pick := func(i func(k tea.KeyPressMsg) int) func(tea.KeyPressMsg) tea.Cmd {
		return func(k tea.KeyPressMsg) tea.Cmd {
			before := d.TabName()
			cmd := d.selectTab(i(k))
			if name := d.TabName(); name != before {
				d.chosen[d.ds] = name
			}
			return cmd
		}
	}
	step := func(delta int) func(tea.KeyPressMsg) int {
		return func(tea.KeyPressMsg) int { return d.StepTab(delta) }
	}
	scroll := func(f func()) func() tea.Cmd { return func() tea.Cmd { f(); return nil } }
	acts := []ui.Action{
		{Binding: &dk.NextTab, Enabled: tabs, DoKey: pick(step(1)), Line: true, Help: "next tab"},
		{Binding: &dk.Tab, Enabled: tabs, DoKey: pick(func(k tea.KeyPressMsg) int { return keys.Index(dk.Tab, k) }), Line: true, Help: "tab"},
		{Binding: &dk.Fold, Enabled: d.CanFold, Why: d.whyNoFold, Do: d.fold, Line: true, Help: "fold"},
		{Binding: &dk.LastTurn, Enabled: d.HasLastTurn, Why: d.whyNoLastTurn, Do: scroll(func() { d.vp.SetYOffset(d.doc.LastUser) }), Line: true, Help: "question"},
		ui.OnLine(&km.Search.Start, ""), ui.OnLine(&km.Search.Next, "next"), ui.OnLine(&km.Tools.Copy, "copy"),
		ui.OnLine(&dk.Markdown, "markdown"), ui.OnLine(&km.Global.Zoom, "zoom"),
		{Binding: &dk.Back, Do: d.back, Line: true, Help: "to list"},
		{Binding: &dk.PrevTab, Enabled: tabs, DoKey: pick(step(-1))},
	}
	return append(acts, ui.ViewportActions(nav, &d.vp)...)
}

// back clears the detail's search; without one it reports BackMsg (esc).
func (d *Pane) back() tea.Cmd {
	if d.search.query != "" {
		d.ClearSearch()
		return nil
	}
	return ui.Send(BackMsg{})
}

// fold folds or unfolds (z); in the Raw tab it folds the JSON below the
// top level, then opens a level at each press, back to all open past the
// deepest.
func (d *Pane) fold() tea.Cmd {
	if d.shownTab().Content != model.TabRaw {
		d.unfold = !d.unfold
		return d.Refresh()
	}
	switch {
	case d.rawDepth == 0:
		d.rawDepth = 1
	case d.rawDepth >= d.doc.Depth:
		d.rawDepth = 0
	default:
		d.rawDepth++
	}
	return d.Refresh()
}

// Scroll moves the content by n lines (negative: up), for the wheel.
func (d *Pane) Scroll(n int) {
	if n < 0 {
		d.vp.ScrollUp(-n)
	} else {
		d.vp.ScrollDown(n)
	}
}

// View renders the tab bar and the content, exactly d.h lines of d.w.
func (d *Pane) View() string {
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

// ShortHelp is the detail's part of the help line (Actions).
func (d *Pane) ShortHelp() []key.Binding { return ui.ShortHelp(d.Actions()) }

// FullHelp is the detail's part of the `?` overlay.
func (d *Pane) FullHelp() [][]key.Binding {
	k := d.c.Keys
	return [][]key.Binding{
		{k.Detail.PrevTab, k.Detail.NextTab, k.Detail.Tab, k.Detail.Fold, k.Detail.LastTurn, k.Detail.Markdown, k.Global.Zoom, k.Detail.Back},
	}
}

// TabCount is the number of tabs of the record shown.
func (d *Pane) TabCount() int { return len(d.tabs) }

// CanFold reports whether z does something in the tab shown: something
// is folded or unfolded, or the tab is the Raw JSON.
func (d *Pane) CanFold() bool {
	return d.doc.Folds > 0 || d.unfold || d.shownTab().Content == model.TabRaw
}

// whyNoFold says why z does nothing in the tab shown: nothing in it is
// folded, and where the record has a prompt, that no few-shot examples
// were told apart from the question in it.
func (d *Pane) whyNoFold() string {
	if d.rec != nil && len(d.rec.Messages) > 0 && !model.HasFewShot(d.rec.Messages) {
		if n := model.Shots(d.ds); n > 0 {
			return "z: " + strconv.Itoa(n) + "-shot, but the examples are not told from the question"
		}
		return "z: nothing to fold (no few-shot examples found)"
	}
	return "z: nothing to fold in this tab"
}

// whyNoLastTurn says why u does nothing: the tab has no user turn below
// its top.
func (d *Pane) whyNoLastTurn() string {
	if d.doc.LastUser == 0 && d.rec != nil && len(d.rec.Messages) > 0 {
		return "u: the question is the first turn shown"
	}
	return "u: no user turn in this tab"
}

// HasLastTurn reports whether the tab shown has a last user turn below
// its top to jump to (u).
func (d *Pane) HasLastTurn() bool { return d.doc.LastUser > 0 }

// Dataset is the dataset of the record shown.
func (d *Pane) Dataset() *model.Dataset { return d.ds }

// Tabs are the record's tabs, in the bar's order.
func (d *Pane) Tabs() []content.Tab { return d.tabs }

// Doc is the tab shown as rendered: its lines, plain and styled.
func (d *Pane) Doc() content.Doc { return d.doc }

// Offset is the first line of the tab in view.
func (d *Pane) Offset() int { return d.vp.YOffset() }

// issueCount is how many issues ds has (0 for no dataset).
func issueCount(ds *model.Dataset) int {
	if ds == nil {
		return 0
	}
	return len(ds.Issues)
}
