package tui

import (
	"strings"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/back"
	"evalview/tui/crash"
	"evalview/tui/detail"
	"evalview/tui/header"
	"evalview/tui/list"
	"evalview/tui/opening"
	"evalview/tui/sheets/overview"
	"evalview/tui/split"
	"evalview/tui/statusbar"
	"evalview/tui/styles"
	"evalview/tui/ui"
)

// focus names the pane that gets the keys.
type focus int

const (
	focusList focus = iota
	focusDetail
)

// indexPoll is how often a growing index is looked at again.
const indexPoll = 250 * time.Millisecond

// Model is the browser, the root of the rooms: a tea.Model over one or
// more datasets. It owns the state the rooms share (the datasets, the
// current one and its list state, the focus, the open line and sheets),
// routes messages to the rooms, and applies what they report.
type Model struct {
	c        *ui.Common
	opts     Options
	datasets []*model.Dataset
	cur      int
	// states are each dataset's list state: the list shows the current
	// one's (the same pointer), so switching back restores it.
	states list.States
	layout Layout
	ready  bool
	// found is the status bar's line of what the folders opened held,
	// until another dataset is shown.
	found string
	// opening is the opening of the paths under way (tui/opening).
	opening opening.State
	// painter is the program's output when the first frame is painted
	// before Bubble Tea's first (see prepaint); nil otherwise.
	painter *painter
	// kept is the last view built; viewKept says the last message changed
	// nothing, so View returns it as it is.
	kept     *tea.View
	viewKept bool
	// restore is the record a reload's cursor waits for (reload.go).
	restore cursorRestore
	// external is set while a pager or editor has the terminal: signals
	// are its (watchSignals).
	external atomic.Bool

	header *header.Pane
	list   *list.Pane
	detail *detail.Pane
	status *statusbar.Bar
	help   help.Model
	focus  focus
	// zoom gives the focused pane the whole body (Z); the layout
	// follows it (applyZoom).
	zoom bool
	// split is the list's share of the body, moved by keys and a drag
	// of the border, remembered in Options.State (tui/split).
	split split.Split
	// input is the search or prompt being typed, nil when none is
	// (input.go).
	input *lineInput
	// sheets are full-body views stacked over the list and detail
	// (sheet.go); the `?` overlay and the dataset picker are sheets too.
	sheets sheetStack
	// overview is the overview sheet, kept as the user left it between
	// openings (T); trail is the back stack, the places the user left,
	// which esc goes back to (tui/back).
	overview *overview.Sheet
	trail    back.Trail[focus]
	// deep holds the background deep passes and their reports (deep.go).
	deep deepState
	// scoring holds the scored datasets' thresholds and high-score
	// switch (scoring.go).
	scoring *scoringState
	// follow watches a growing file (follow.go).
	follow followState
	// notes are the datasets' note stores (notes.go), opened on demand;
	// lastLabels are the labels last added, which `.` repeats.
	notes      noteStores
	lastLabels []string

	// search is the search (/) across the panes (search.go).
	search searchState
	// pressed counts the keys pressed; searchedAt is the count when the
	// search was last submitted. A search that matches nothing says "no
	// match" until the next key: after it, on another record or in the
	// other pane, "no match" was stale.
	pressed, searchedAt int

	// records caches loaded records; loadID tags the latest request.
	records *recordCache
	loadID  int
	loading bool
	spinner spin
	polling bool
	// filterChecked is set once --filter's name was looked for in every
	// complete index (trace.go).
	filterChecked bool
	// note is a transient message (a record that failed to load); flash
	// says what a tool did ("copied…", "notes saved to…") until the next
	// key.
	note, flash string
	// reloaded is the dataset a reload (r) or follow mode brought, whose
	// count the flash says while its index grows ("reloading: 468
	// records so far") and once it is complete ("reloaded 1404
	// records"); nil after the next key.
	reloaded *model.Dataset

	crash   *crash.Info
	program *tea.Program
	// trace writes EVALVIEW_TRACE timings (trace.go).
	trace *tracer
}

// New returns the browser over datasets (at least one is expected; none
// shows an empty screen). It is a tea.Model; Run runs it.
func New(datasets []*model.Dataset, opts Options) *Model {
	datasets = usable(datasets)
	st := themeStyles(opts.Theme, true)
	c := ui.NewCommon(st)
	m := &Model{
		c: c, opts: opts, datasets: datasets, notes: noteStores{open: opts.Notes},
		status: statusbar.New(c), help: help.New(), records: newRecordCache(256), trace: openTracer(),
		spinner: spin{Model: spinner.New(spinner.WithSpinner(spinner.MiniDot))},
	}
	m.help.Styles = st.Help
	m.found = model.DiscoveryLine(opts.Discovery)
	m.scoring = newScoringState(opts.Threshold)
	m.split = split.Load(opts.State)
	m.list = list.New(c, list.Sources{Notes: m.notes.lookup, Threshold: m.scoring.at, Gate: m.deep.foreground})
	m.header = header.New(c, header.Sources{
		Shown: func() (*model.Dataset, int, int, int) {
			return m.curDataset(), m.cur, len(m.datasets), m.list.FilterIndex()
		},
		Deep: m.deep.report, Threshold: m.scoring.at, Figures: m.scoring.figures,
		Shared: func() []model.Fact { return m.list.ConstantFacts() },
	})
	m.detail = detail.New(c, detail.Sources{Filter: m.list.FilterIndex, Threshold: m.scoring.at})
	m.search = searchState{list: m.list, detail: m.detail}
	m.states = list.NewStates(opts.Filter, len(datasets))
	// The command checked the key overrides (names and collisions); a
	// bad one here changes nothing.
	_ = m.c.Keys.Apply(opts.Keys)
	if len(datasets) > 0 {
		m.list.SetDataset(datasets[0], m.states.At(0))
	}
	if opts.Overview && len(datasets) > 1 {
		m.openOverview()
	}
	m.derive()
	return m
}

// usable drops nil datasets and gives an empty index to those without one,
// so a loader slip cannot crash the browser.
func usable(in []*model.Dataset) []*model.Dataset {
	out := make([]*model.Dataset, 0, len(in))
	for _, ds := range in {
		if ds == nil {
			continue
		}
		if ds.Records == nil {
			ds.Records = model.NewMemIndex(nil)
		}
		out = append(out, ds)
	}
	return out
}

// autoTheme reports whether the theme follows the terminal's background.
func autoTheme(theme string) bool {
	t := strings.ToLower(theme)
	return t == "" || t == "auto"
}

// themeStyles returns the styles for a theme name; auto uses guess until
// the terminal answers with its background color.
func themeStyles(theme string, guessDark bool) styles.Styles {
	switch strings.ToLower(theme) {
	case "light":
		return styles.New(false)
	case "dark":
		return styles.New(true)
	}
	return styles.New(guessDark)
}

// Init loads the first record, asks the terminal for its background color
// (theme auto) and starts polling indexes that are still growing.
func (m *Model) Init() tea.Cmd {
	// What Open opened while the program started shows in the first
	// frame.
	cmds := []tea.Cmd{m.takeOpened(), m.selectionChanged()}
	if autoTheme(m.opts.Theme) {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	// What the indexes learnt since New is taken in as at a poll's tick
	// (list, header, sheets), which then polls on while one grows: an
	// index that completed since New leaves nothing growing, so no tick
	// would ever bring its last records and final figures.
	m.polling = false
	cmds = append(cmds, m.takeInIndexes(), waitIndexes(m.datasets))
	if m.opts.Follow && len(m.datasets) > 0 { // --follow
		cmds = append(cmds, m.setFollow(true))
	}
	cmds = append(cmds, m.prepaint())
	warmWidths()
	return tea.Batch(cmds...)
}
