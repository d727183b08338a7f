// Package opening is the browser's side of opening the paths: the
// browser starts before they are opened, Options.Open opens them on a
// goroutine of its own while the first frame shows what is known so far
// ("reading… N files"), and the datasets come in as they are opened. The
// event loop never waits for it, so q and ctrl+c end the browser at once
// whatever it is reading (a FIFO, a server that sends nothing, a file of
// gigabytes); quitting cancels Open's context, and the process does not
// wait for a read that cannot be cancelled.
//
// The root holds a State: it starts the opening, takes in what it told a
// batch at a time (Take, after Msg), puts the datasets in and says in
// the status bar what is being read (Status).
package opening

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
	"evalview/tui/crash"
	"evalview/tui/text"
)

// Opening is what Options.Open tells the browser as it opens the paths:
// each dataset once it is opened, what each folder held, and each file
// it comes to. Its methods may be called from any goroutine; the browser
// takes in what they told it a batch at a time, on its own.
type Opening struct {
	mu sync.Mutex
	// t is what was told since the browser last took it in (its
	// datasets and folders; the rest as it stands).
	t told
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
	o.t.datasets = append(o.t.datasets, ds)
	o.mu.Unlock()
	o.poke()
}

// Found tells what a folder opened held (loaders.Options.Found).
func (o *Opening) Found(d model.Discovery) {
	o.mu.Lock()
	o.t.found = append(o.t.found, d)
	o.mu.Unlock()
	o.poke()
}

// Reading tells that the opening came to another path (the status bar
// names it, and counts them).
func (o *Opening) Reading(path string) {
	o.mu.Lock()
	o.t.files++
	o.t.path = path
	o.mu.Unlock()
	o.poke()
}

// finish records Open's end.
func (o *Opening) finish(err error, crash *crash.Info) {
	o.mu.Lock()
	o.t.done, o.t.err, o.t.crash = true, err, crash
	o.mu.Unlock()
	o.poke()
}

// told is what the browser takes in at once.
type told struct {
	datasets []*model.Dataset
	found    []model.Discovery
	files    int
	path     string
	done     bool
	err      error
	crash    *crash.Info
}

// take hands over what was told since the last take.
func (o *Opening) take() told {
	o.mu.Lock()
	defer o.mu.Unlock()
	t := o.t
	o.t.datasets, o.t.found = nil, nil
	return t
}

// endError is an error of Open that ends the browser (End).
type endError struct{ err error }

func (e endError) Error() string { return e.err.Error() }
func (e endError) Unwrap() error { return e.err }

// End marks an error of Options.Open that ends the browser, whatever was
// opened: Run returns err.
func End(err error) error { return endError{err} }

// State is the root's side of the opening.
type State struct {
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
	// taken is when the last batch was taken in, and cost how long
	// taking it in took: the next batch waits a multiple of it, so that
	// a folder of 200,000 files opening leaves the event loop free most
	// of the time.
	taken time.Time
	cost  time.Duration
	// touched is set by the user's first key or click: datasets coming
	// in no longer change the screen (the overview is the first screen
	// only while nothing was done).
	touched bool
	// grown is when the overview and the picker last took in datasets.
	grown time.Time
}

// pause is the least time between two batches taken in.
const pause = 40 * time.Millisecond

// growEvery is how often the overview and the picker take in the
// datasets opened while more come: each growth builds the overview's table
// again, over every dataset (200,000 of them, a file each).
const growEvery = time.Second

// Start starts open (Options.Open) on its own goroutine, before the
// program: what it opens in the program's own start-up is in the first
// frame. Nil or started already, it does nothing.
func (s *State) Start(open func(ctx context.Context, o *Opening) error) {
	if open == nil || s.o != nil {
		return
	}
	o := newOpening()
	ctx, cancel := context.WithCancel(context.Background())
	s.o, s.cancel, s.on = o, cancel, true
	go func() {
		var err error
		defer func() {
			if r := recover(); r != nil {
				o.finish(nil, &crash.Info{Value: r, Stack: debug.Stack()})
				return
			}
			o.finish(err, nil)
		}()
		err = open(ctx, o)
	}()
}

// Stop cancels Open's context (the browser ends).
func (s *State) Stop() {
	if s.cancel != nil {
		s.cancel()
	}
}

// Msg says that Open told the browser something: the root takes it in
// (Take).
type Msg struct{}

// Wait waits, off the event loop, for Open to tell something, after a
// pause a multiple of what taking in the last batch cost; with opened
// datasets in.
func (s *State) Wait(opened int) tea.Cmd {
	s.cost = time.Since(s.taken)
	o := s.o
	pause := max(pause, 4*s.cost)
	if opened == 0 {
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
		return Msg{}
	}
}

// Batch is what Open told since the last batch, for the root to take in.
type Batch struct {
	// Datasets are the datasets opened since.
	Datasets []*model.Dataset
	// Found is the status bar's line of what the folders held, when
	// FoundNew: a folder said more and no other dataset was shown yet.
	Found    string
	FoundNew bool
	// Crash is a panic of Open: the browser ends with it.
	Crash *crash.Info
	// Done says that Open ended with this batch, with Err.
	Done bool
	Err  error
}

// Take hands over what Open told since the last time; ok is false when
// there is no opening.
func (s *State) Take() (b Batch, ok bool) {
	if s.o == nil {
		return Batch{}, false
	}
	s.taken = time.Now()
	t := s.o.take()
	b.Crash = t.crash
	if t.crash != nil {
		return b, true
	}
	s.files, s.path = t.files, t.path
	if len(t.found) > 0 {
		s.found = append(s.found, t.found...)
		if !s.foundGone {
			b.Found, b.FoundNew = model.DiscoveryLine(s.found), true
		}
	}
	b.Datasets = t.datasets
	b.Done, b.Err = t.done && s.on, t.err
	return b, true
}

// Close records Open's end (a batch that is Done) with err, when opened
// datasets were opened in all; quit says the browser ends (Ended: End,
// or nothing opened).
func (s *State) Close(err error, opened int) (quit bool) {
	s.on = false
	var end endError
	switch {
	case errors.As(err, &end):
		s.ended = end.err
		return true
	case err != nil && opened == 0:
		s.ended = err
		return true
	case err != nil:
		s.failed = firstLine(err.Error())
	case opened == 0:
		s.ended = errors.New("nothing to show: no dataset was opened")
		return true
	}
	return false
}

// On reports whether Open still runs.
func (s *State) On() bool { return s.on }

// Ended is the error that ends the browser, for Run to return.
func (s *State) Ended() error { return s.ended }

// EndWith ends the browser with err (--filter found nowhere).
func (s *State) EndWith(err error) { s.ended = err }

// Touch records the user's key or click: datasets coming in no longer
// change the screen. Touched reports one.
func (s *State) Touch()        { s.touched = true }
func (s *State) Touched() bool { return s.touched }

// Shown records that another dataset than the first was shown: the
// status bar no longer says what the folders held nor what failed.
func (s *State) Shown() { s.foundGone = true }

// Failed is what Open could not open, for the status bar, until another
// dataset is shown.
func (s *State) Failed() string {
	if s.foundGone {
		return ""
	}
	return s.failed
}

// Grow reports whether the overview and the picker take in the datasets
// opened since they last did: now, or once growEvery passed while the
// opening goes on.
func (s *State) Grow(now bool) bool {
	if !now && s.on && time.Since(s.grown) < growEvery {
		return false
	}
	s.grown = time.Now()
	return true
}

// Regrow forgets when the sheets last grew: the next batch grows them
// whatever the time (as if growEvery had passed).
func (s *State) Regrow() { s.grown = time.Time{} }

// Status is the status bar's word on the opening with opened datasets
// in, "" when it is over.
func (s *State) Status(opened int) string {
	if !s.on {
		return ""
	}
	n := s.files
	if n == 1 && opened == 0 {
		// One path, not open yet (a big file, a slow server): named.
		return "reading " + text.OneLine(s.path) + "…"
	}
	var said []string
	if n > 1 {
		said = append(said, groupThousands(n)+" files")
	}
	if opened > 0 {
		said = append(said, groupThousands(opened)+" opened")
	}
	return strings.TrimSpace("reading… " + strings.Join(said, ", "))
}

// firstLine is s up to its first line break, with how many lines follow.
func firstLine(s string) string {
	first, rest, ok := strings.Cut(s, "\n")
	if !ok {
		return s
	}
	return first + " (and " + strconv.Itoa(strings.Count(rest, "\n")+1) + " more: see after quitting)"
}

// groupThousands writes n with commas between thousands (200,000).
func groupThousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
