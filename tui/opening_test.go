package tui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/sheets/datasets"
	"evalview/tui/sheets/overview"
)

// openingModel starts a browser on nothing whose Options.Open is open,
// at w x h, as Run starts it (the opening before Init).
func openingModel(t *testing.T, open func(ctx context.Context, o *Opening) error, w, h int) *Model {
	t.Helper()
	t.Setenv("NO_COLOR", "1")
	m := New(nil, Options{Theme: "dark", Overview: true, Open: open})
	m.opening.Start(m.opts.Open)
	t.Cleanup(m.opening.Stop)
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// takeIn waits (with a generous guard) until the opening told the
// browser something, and hands it the message, until the browser has
// what until wants (nil: once).
func takeIn(t *testing.T, m *Model, until ...func() bool) {
	t.Helper()
	for {
		wait, told := m.opening.Wait(len(m.datasets)), make(chan tea.Msg, 1)
		go func() { told <- wait() }()
		select {
		case msg := <-told:
			send(m, msg)
		case <-time.After(30 * time.Second):
			t.Fatal("the opening told nothing")
		}
		if len(until) == 0 || until[0]() {
			return
		}
	}
}

// has is takeIn's condition of n datasets in.
func has(m *Model, n int) func() bool { return func() bool { return len(m.datasets) == n } }

// While Open reads a file that never ends (a FIFO, a silent server), the
// browser shows its screen, says it is reading, takes every key without
// a dataset, and q quits; quitting cancels Open's context.
func TestOpeningBlockedShowsAndQuits(t *testing.T) {
	cancelled := make(chan struct{})
	m := openingModel(t, func(ctx context.Context, o *Opening) error {
		o.Reading("a")
		o.Reading("b")
		<-ctx.Done()
		close(cancelled)
		return ctx.Err()
	}, 100, 30)
	takeIn(t, m, func() bool { return m.opening.Status(len(m.datasets)) == "reading… 2 files" })
	s := screen(m)
	if !strings.Contains(s, "reading… 2 files") {
		t.Fatalf("the screen does not say it is reading:\n%s", s)
	}
	checkFits(t, s, 100, 30)
	// Every key of the list, the detail and the tools, with nothing
	// open: none crashes the browser, none quits it.
	for _, k := range []string{"j", "k", "enter", "tab", "/", "esc", ":", "G", "T", "D", "c", "F", "v", "x", "y", "Y", "o", "w", "r", "l", "a", "Z", "]", "[", "?", "esc"} {
		_, cmd := m.Update(keyMsg(k))
		if quits(cmd) {
			t.Fatalf("%s quit the browser", k)
		}
		drive(m, cmd)
		if m.crash != nil {
			t.Fatalf("%s crashed the browser: %v", k, m.crash.Value)
		}
	}
	send(m, tea.MouseClickMsg{X: 10, Y: 5, Button: tea.MouseLeft})
	send(m, tea.MouseWheelMsg{X: 10, Y: 5, Button: tea.MouseWheelDown})
	if m.crash != nil {
		t.Fatalf("the mouse crashed the browser: %v", m.crash.Value)
	}
	for _, k := range []string{"q", "ctrl+c"} {
		_, cmd := m.Update(keyMsg(k))
		if !quits(cmd) {
			t.Errorf("%s does not quit while the paths are opened", k)
		}
	}
	m.opening.Stop()
	select {
	case <-cancelled:
	case <-time.After(30 * time.Second):
		t.Fatal("ending the browser does not cancel Open's context")
	}
}

// quits reports whether cmd leads to tea.Quit.
func quits(cmd tea.Cmd) bool {
	if cmd == nil || isTimer(cmd) {
		return false
	}
	msg, ok := runQuick(cmd)
	if !ok {
		return false
	}
	switch msg := msg.(type) {
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if quits(c) {
				return true
			}
		}
	}
	return false
}

// Datasets come in as they are opened: the first shows in the list; the
// second opens the overview (the first screen of several datasets) and
// the third makes it and the picker grow; the status bar counts the
// files until the opening ends.
func TestOpeningStreamsDatasets(t *testing.T) {
	next := make(chan *model.Dataset)
	m := openingModel(t, func(ctx context.Context, o *Opening) error {
		for ds := range next {
			o.Reading(ds.Path)
			o.Add(ds)
		}
		return nil
	}, 120, 40)
	fx := allFixtures()
	next <- fx[0]
	takeIn(t, m, has(m, 1))
	if len(m.datasets) != 1 || m.list.Len() == 0 || m.sheets.top() != nil {
		t.Fatalf("the first dataset is not in the list: %d datasets, %d rows, sheet %v", len(m.datasets), m.list.Len(), m.sheets.top())
	}
	if s := screen(m); !strings.Contains(s, "reading… 1 opened") {
		t.Errorf("the status bar does not count:\n%s", s)
	}
	next <- fx[1]
	takeIn(t, m, has(m, 2))
	ov, ok := m.sheets.top().(*overview.Sheet)
	if !ok {
		t.Fatalf("two datasets and no overview: %T", m.sheets.top())
	}
	cols := len(ov.Table().Columns)
	press(m, "D")
	if _, ok := m.sheets.top().(*datasets.Sheet); !ok {
		t.Fatalf("D over the overview: %T", m.sheets.top())
	}
	m.opening.Regrow() // as if a second had passed (growEvery)
	next <- fx[2]
	takeIn(t, m, has(m, 3))
	if s := screen(m); !strings.Contains(s, fx[2].Task) || !strings.Contains(s, "reading… 3 files, 3 opened") {
		t.Errorf("the picker did not grow:\n%s", s)
	}
	if len(m.overview.Table().Columns) < cols {
		t.Errorf("the overview lost columns")
	}
	close(next)
	takeIn(t, m, func() bool { return !m.opening.On() })
	if m.opening.On() || strings.Contains(screen(m), "reading…") {
		t.Errorf("the opening ended and the status bar still says it reads:\n%s", screen(m))
	}
}

// The user's key comes first: a second dataset coming in after it does
// not put the overview over the list.
func TestOpeningKeepsTheUsersScreen(t *testing.T) {
	next := make(chan *model.Dataset)
	m := openingModel(t, func(ctx context.Context, o *Opening) error {
		for ds := range next {
			o.Add(ds)
		}
		return nil
	}, 120, 40)
	fx := allFixtures()
	next <- fx[0]
	takeIn(t, m, has(m, 1))
	press(m, "j")
	next <- fx[1]
	close(next)
	takeIn(t, m, func() bool { return !m.opening.On() })
	if m.sheets.top() != nil {
		t.Errorf("a dataset coming in put %T over the list", m.sheets.top())
	}
	if len(m.datasets) != 2 {
		t.Errorf("%d datasets", len(m.datasets))
	}
}

// An opening that opened nothing ends the browser with its error; one
// marked End ends it whatever was opened; another error is said in the
// status bar.
func TestOpeningErrors(t *testing.T) {
	bad := errors.New("nope.jsonl: no such file")
	m := openingModel(t, func(context.Context, *Opening) error { return bad }, 100, 30)
	takeIn(t, m, func() bool { return !m.opening.On() })
	if m.opening.Ended() != bad {
		t.Errorf("nothing opened: ended with %v", m.opening.Ended())
	}
	m = openingModel(t, func(_ context.Context, o *Opening) error {
		o.Add(sampleFixture())
		return End(bad)
	}, 100, 30)
	takeIn(t, m, func() bool { return !m.opening.On() })
	if m.opening.Ended() != bad {
		t.Errorf("End: ended with %v", m.opening.Ended())
	}
	m = openingModel(t, func(_ context.Context, o *Opening) error {
		o.Add(sampleFixture())
		return errors.Join(bad, errors.New("other: not readable"))
	}, 100, 30)
	takeIn(t, m, func() bool { return !m.opening.On() })
	if m.opening.Ended() != nil {
		t.Errorf("a dataset opened: ended with %v", m.opening.Ended())
	}
	if s := screen(m); !strings.Contains(s, "nope.jsonl: no such file (and 1 more") {
		t.Errorf("the error is not in the status bar:\n%s", s)
	}
}

// --filter is looked for once the opening is over: a name no dataset
// has ends the browser with the command's error (FilterRequired).
func TestOpeningFilterRequired(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	m := New(nil, Options{Theme: "dark", Filter: "nosuch", FilterRequired: true, Open: func(_ context.Context, o *Opening) error {
		o.Add(lmevalFixture())
		return nil
	}})
	m.opening.Start(m.opts.Open)
	t.Cleanup(m.opening.Stop)
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	if m.opening.On() {
		takeIn(t, m, func() bool { return !m.opening.On() })
	}
	if m.opening.Ended() == nil || !strings.Contains(m.opening.Ended().Error(), `--filter "nosuch": no such filter`) {
		t.Errorf("ended with %v", m.opening.Ended())
	}
}
