package tui

import (
	"context"
	"errors"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/list"
	"evalview/tui/sheets/datasets"
	"evalview/tui/text"
)

// The browser starts before the paths are opened: Options.Open opens them
// on a goroutine of its own while the first frame shows what is known so
// far ("reading… N files"), and the datasets come in as they are opened.
// The event loop never waits for it, so q and ctrl+c end the browser at
// once whatever it is reading (a FIFO, a server that sends nothing, a
// file of gigabytes); quitting cancels Open's context, and the process
// does not wait for a read that cannot be cancelled.

// Opening is what Options.Open tells the browser as it opens the paths:
// each dataset once it is opened, what each folder held, and each file
// it comes to. Its methods may be called from any goroutine; the browser
// takes in what they told it a batch at a time, on its own.
type Opening struct {
	mu       sync.Mutex
	datasets []*model.Dataset
	found    []model.Discovery
	files    int
	path     string
	done     bool
	err      error
	crash    *crashInfo
	// wake holds a token while something is told that the browser has
	// not taken in.
	wake chan struct{}
}

func newOpening() *Opening { return &Opening{wake: make(chan struct{}, 1)} }

// poke wakes the browser's wait, unless a token waits already.
func (o *Opening) poke() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Add hands the browser a dataset that is opened (its index may still
// grow).
func (o *Opening) Add(ds *model.Dataset) {
	o.mu.Lock()
	o.datasets = append(o.datasets, ds)
	o.mu.Unlock()
	o.poke()
}

// Found tells what a folder opened held (loaders.Options.Found).
func (o *Opening) Found(d model.Discovery) {
	o.mu.Lock()
	o.found = append(o.found, d)
	o.mu.Unlock()
	o.poke()
}

// Reading tells that the opening came to another path (the status bar
// names it, and counts them).
func (o *Opening) Reading(path string) {
	o.mu.Lock()
	o.files++
	o.path = path
	o.mu.Unlock()
	o.poke()
}

// finish records Open's end.
func (o *Opening) finish(err error, crash *crashInfo) {
	o.mu.Lock()
	o.done, o.err, o.crash = true, err, crash
	o.mu.Unlock()
	o.poke()
}

// opened is what the browser takes in at once.
type opened struct {
	datasets []*model.Dataset
	found    []model.Discovery
	files    int
	path     string
	done     bool
	err      error
	crash    *crashInfo
}

// take hands over what was told since the last take.
func (o *Opening) take() opened {
	o.mu.Lock()
	defer o.mu.Unlock()
	t := opened{datasets: o.datasets, found: o.found, files: o.files, path: o.path, done: o.done, err: o.err, crash: o.crash}
	o.datasets, o.found = nil, nil
	return t
}

// endError is an error of Open that ends the browser (End).
type endError struct{ err error }

func (e endError) Error() string { return e.err.Error() }
func (e endError) Unwrap() error { return e.err }

// End marks an error of Options.Open that ends the browser, whatever was
// opened: Run returns err.
func End(err error) error { return endError{err} }

// openState is the root's side of the opening.
type openState struct {
	o      *Opening
	cancel context.CancelFunc
	// on while Open runs; files is how many files it came to.
	on    bool
	files int
	path  string
	// found is every folder's discovery so far; foundGone is set once
	// another dataset than the first was shown (the status bar's line
	// of them goes then).
	found     []model.Discovery
	foundGone bool
	// failed is what Open could not open, said in the status bar with
	// the discovery.
	failed string
	// ended is the error that ended the browser, for Run to return.
	ended error
	// cost is how long taking in the last batch took: the next batch
	// waits a multiple of it, so that a folder of 200,000 files opening
	// leaves the event loop free most of the time.
	cost time.Duration
	// touched is set by the user's first key or click: datasets coming
	// in no longer change the screen (the overview is the first screen
	// only while nothing was done).
	touched bool
	// grown is when the overview and the picker last took in datasets.
	grown time.Time
}

// openPause is the least time between two batches taken in.
const openPause = 40 * time.Millisecond

// startOpening starts Options.Open on its own goroutine, before the
// program: what it opens in the program's own start-up is in the first
// frame.
func (m *Model) startOpening() {
	if m.opts.Open == nil || m.opening.o != nil {
		return
	}
	o := newOpening()
	ctx, cancel := context.WithCancel(context.Background())
	m.opening.o, m.opening.cancel, m.opening.on = o, cancel, true
	open := m.opts.Open
	go func() {
		var err error
		defer func() {
			if r := recover(); r != nil {
				o.finish(nil, &crashInfo{value: r, stack: debug.Stack()})
				return
			}
			o.finish(err, nil)
		}()
		err = open(ctx, o)
	}()
}

// stopOpening cancels Open's context (the browser ends).
func (m *Model) stopOpening() {
	if m.opening.cancel != nil {
		m.opening.cancel()
	}
}

// openedMsg says that Open told the browser something.
type openedMsg struct{}

func (openedMsg) applyTo(m *Model) tea.Cmd { return m.takeOpened() }

// waitOpened waits, off the event loop, for Open to tell something, after
// a pause.
func (m *Model) waitOpened() tea.Cmd {
	o := m.opening.o
	pause := max(openPause, 4*m.opening.cost)
	if len(m.datasets) == 0 {
		// Nothing on screen yet: the first dataset is shown the moment
		// it is opened, not a pause later (the first screen of a
		// 100 MB file waited up to 40 ms more for it).
		pause = 0
	}
	return func() tea.Msg {
		if pause > 0 {
			time.Sleep(pause)
		}
		<-o.wake
		return openedMsg{}
	}
}

// takeOpened takes in what Open told since the last time, and waits for
// more while it runs.
func (m *Model) takeOpened() tea.Cmd {
	if m.opening.o == nil {
		return nil
	}
	start := time.Now()
	t := m.opening.o.take()
	if t.crash != nil {
		m.crash = t.crash
		return tea.Quit
	}
	m.opening.files, m.opening.path = t.files, t.path
	if len(t.found) > 0 {
		m.opening.found = append(m.opening.found, t.found...)
		if !m.opening.foundGone {
			m.found = model.DiscoveryLine(m.opening.found)
		}
	}
	cmd := m.addDatasets(t.datasets)
	if t.done && m.opening.on {
		m.opening.on = false
		m.growSheets(true)
		var end endError
		switch {
		case errors.As(t.err, &end):
			m.opening.ended = end.err
			return tea.Quit
		case t.err != nil && len(m.datasets) == 0:
			m.opening.ended = t.err
			return tea.Quit
		case t.err != nil:
			m.opening.failed = firstLine(t.err.Error())
		case len(m.datasets) == 0:
			m.opening.ended = errors.New("nothing to show: no dataset was opened")
			return tea.Quit
		}
		// --filter is looked for once nothing more comes.
		m.syncIndexes()
		if m.opening.ended != nil {
			return tea.Quit
		}
		return cmd
	}
	m.opening.cost = time.Since(start)
	return tea.Batch(cmd, m.waitOpened())
}

// firstLine is s up to its first line break, with how many lines follow.
func firstLine(s string) string {
	first, rest, ok := strings.Cut(s, "\n")
	if !ok {
		return s
	}
	return first + " (and " + strconv.Itoa(strings.Count(rest, "\n")+1) + " more: see after quitting)"
}

// addDatasets puts datasets that came in after the others: the first one
// shows in the list, the overview and the picker grow, and the overview
// opens when a second one comes before the user did anything.
func (m *Model) addDatasets(dss []*model.Dataset) tea.Cmd {
	dss = usable(dss)
	if len(dss) == 0 {
		return nil
	}
	first := len(m.datasets) == 0
	m.datasets = append(m.datasets, dss...)
	for range dss {
		m.states = append(m.states, list.NewState(m.opts.Filter))
	}
	var cmds []tea.Cmd
	if first {
		m.cur = 0
		m.list.SetDataset(m.datasets[0], m.states[0])
		cmds = append(cmds, m.selectionChanged())
		if m.opts.Follow {
			cmds = append(cmds, m.setFollow(true))
		}
	}
	m.growSheets(false)
	if m.opts.Overview && len(m.datasets) > 1 && !m.opening.touched && m.sheets.top() == nil && m.input == nil {
		cmds = append(cmds, m.openOverview())
	}
	cmds = append(cmds, m.takeInIndexes(), waitIndexes(dss))
	return tea.Batch(cmds...)
}

// growEvery is how often the overview and the picker take in the
// datasets opened while more come: each growth builds the overview's table
// again, over every dataset (200,000 of them, a file each).
const growEvery = time.Second

// growSheets makes the overview and the picker take in the datasets
// opened since they last did, unless they did less than growEvery ago
// and the opening goes on (now: whatever the time).
func (m *Model) growSheets(now bool) {
	if !now && m.opening.on && time.Since(m.opening.grown) < growEvery {
		return
	}
	m.opening.grown = time.Now()
	if m.overview != nil {
		m.overview.Grow(m.datasets)
	}
	for _, s := range m.sheets.list {
		if p, ok := s.(*datasets.Sheet); ok {
			p.Grow(m.datasets)
		}
	}
}

// openingStatus is the status bar's word on the opening, "" when it is
// over.
func (m *Model) openingStatus() string {
	if !m.opening.on {
		return ""
	}
	n := m.opening.files
	if n == 1 && len(m.datasets) == 0 {
		// One path, not open yet (a big file, a slow server): named.
		return "reading " + text.OneLine(m.opening.path) + "…"
	}
	var said []string
	if n > 1 {
		said = append(said, groupThousands(n)+" files")
	}
	if k := len(m.datasets); k > 0 {
		said = append(said, groupThousands(k)+" opened")
	}
	return strings.TrimSpace("reading… " + strings.Join(said, ", "))
}

// groupThousands writes n with commas between thousands (200,000).
func groupThousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
