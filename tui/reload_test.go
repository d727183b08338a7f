package tui

import (
	"context"
	"math"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/runstats"
)

func TestRunThresholdPromptRejectsNonFinite(t *testing.T) {
	for _, typed := range []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "1e400"} {
		m := newTestModel(t, []*model.Dataset{runValidFixture()}, 100, 30)
		press(m, "t", "backspace", "backspace", "backspace")
		typeText(m, typed)
		press(m, "enter")
		if prompt(m) == nil || !strings.Contains(screen(m), "a number from 0 to 10") {
			t.Errorf("%q: the prompt should stay open with a hint:\n%s", typed, screen(m))
		}
		press(m, "esc")
		if got := m.scoring.threshold(m.datasets[0]); got != 8.5 {
			t.Errorf("%q: threshold %v, want 8.5 kept", typed, got)
		}
	}
	// set, the one way into the map, never stores NaN.
	r := newScoringState(0)
	ds := runValidFixture()
	if got := r.set(ds, math.NaN()); got != runstats.DefaultThreshold || r.threshold(ds) != runstats.DefaultThreshold {
		t.Errorf("set(NaN) = %v, threshold %v; want the default %v", got, r.threshold(ds), runstats.DefaultThreshold)
	}
}

func TestReloadKeepsRunThresholdAndHighScoreFilter(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	m := New([]*model.Dataset{runValidFixture()}, Options{Theme: "dark", Reopen: func(*model.Dataset) (*model.Dataset, error) {
		return runValidFixture(), nil
	}})
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	press(m, "+", "+", "H") // 9.5, high scores only
	old := m.datasets[0]
	press(m, "r")
	ds := m.datasets[0]
	if ds == old {
		t.Fatal("r did not reload")
	}
	if got := m.scoring.threshold(ds); got != 9.5 {
		t.Errorf("threshold after reload %v, want 9.5", got)
	}
	if m.list.Where() != "score>=9.5" || !m.highActive(ds) {
		t.Errorf("after reload: where %q, H active %v", m.list.Where(), m.highActive(ds))
	}
	if _, ok := m.scoring.thresholds[old]; ok {
		t.Error("the old dataset's threshold is still kept")
	}
	// H now turns the filter off rather than adding a second term.
	press(m, "H")
	if m.list.Where() != "" {
		t.Errorf("H after reload: where %q, want the filter off", m.list.Where())
	}
	if s := screen(m); !strings.Contains(s, "≥ 9.5") {
		t.Errorf("header lacks the 9.5 threshold:\n%s", s)
	}
}

// ticks counts the index-poll timers cmd would start (tea.Tick; the spinner
// is not counted), expanding batches.
func ticks(t *testing.T, cmd tea.Cmd) int {
	t.Helper()
	return countTicks(cmd, nil)
}

// countTicks counts the tea.Tick timers cmd would start, expanding
// batches and, when feed takes a message (it returns true), following the
// command the model answers it with.
func countTicks(cmd tea.Cmd, feed func(tea.Msg) (tea.Cmd, bool)) int {
	if cmd == nil {
		return 0
	}
	if isTimer(cmd) {
		if strings.Contains(funcName(cmd), "bubbletea/v2.Tick") {
			return 1
		}
		return 0
	}
	msg, ok := runQuick(cmd)
	if !ok || msg == nil {
		return 0
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		n := 0
		for _, c := range b {
			n += countTicks(c, feed)
		}
		return n
	}
	if feed != nil {
		if next, ok := feed(msg); ok {
			return countTicks(next, feed)
		}
	}
	return 0
}

func TestReloadStartsNoSecondPollLoop(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	grow := func() *model.Dataset {
		ds := lmevalFixture()
		ds.Records = &growingIndex{recs: ds.Records.(*model.MemIndex).Recs, n: 2}
		return ds
	}
	m := New([]*model.Dataset{grow()}, Options{Theme: "dark"})
	send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	if n := ticks(t, m.Init()); n != 1 || !m.polling {
		t.Fatalf("a growing index starts %d poll loops (polling %v), want 1", n, m.polling)
	}
	// A tick is in flight: reloading must not start another loop.
	_, cmd := m.Update(reloadedMsg{old: m.datasets[0], ds: grow()})
	if n := ticks(t, cmd); n != 0 {
		t.Errorf("reload while polling started %d more poll loops", n)
	}
	// The tick in flight keeps polling the new index.
	_, cmd = m.Update(indexTickMsg{})
	if n := ticks(t, cmd); n != 1 {
		t.Errorf("the in-flight tick scheduled %d ticks, want 1", n)
	}
}

// funcName is the name of the function behind cmd.
func funcName(cmd tea.Cmd) string {
	return runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()).Name()
}

// stopIndex is an index that records Stop.
type stopIndex struct {
	model.Index
	stopped bool
}

func (s *stopIndex) Stop() { s.stopped = true }

// TestReloadStopsOldWork: a reload stops the replaced index's background
// scan and cancels its deep pass, which would otherwise go on competing
// with the new dataset's for the cores.
func TestReloadStopsOldWork(t *testing.T) {
	old := runValidFixture()
	idx := &stopIndex{Index: old.Records}
	old.Records = idx
	m := New([]*model.Dataset{old}, Options{Theme: "dark", Reopen: func(*model.Dataset) (*model.Dataset, error) {
		return runValidFixture(), nil
	}})
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	started := make(chan context.Context, 1)
	old.Deep = func(ctx context.Context, _ func(int, int)) (*model.DeepReport, error) {
		started <- ctx
		<-ctx.Done()
		return nil, ctx.Err()
	}
	cmd := m.deep.start(m.datasets, m.cur, anyGrowing(m.datasets))
	if cmd == nil {
		t.Fatal("no deep pass started")
	}
	batch, _ := cmd().(tea.BatchMsg)
	for _, c := range batch {
		if c != nil && !isTimer(c) {
			go c()
		}
	}
	var ctx context.Context
	select {
	case ctx = <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the deep pass did not start")
	}
	press(m, "r")
	if m.datasets[0] == old {
		t.Fatal("r did not reload")
	}
	if !idx.stopped {
		t.Error("the old index's scan was not stopped")
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Error("the old dataset's deep pass was not cancelled")
	}
	if _, ok := m.deep.runs[old]; ok {
		t.Error("the old dataset's deep run is still kept")
	}
}

// TestOverlappingReloadStopsTheLoser: of two reloads of one dataset (r
// twice, or r during a follow reload), the one that arrives second is not
// shown, and its index's scan is stopped.
func TestOverlappingReloadStopsTheLoser(t *testing.T) {
	old := runValidFixture()
	m := New([]*model.Dataset{old}, Options{Theme: "dark", Reopen: func(*model.Dataset) (*model.Dataset, error) {
		return runValidFixture(), nil
	}})
	drive(m, m.Init())
	send(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	first, second := runValidFixture(), runValidFixture()
	idx := &stopIndex{Index: second.Records}
	second.Records = idx
	send(m, reloadedMsg{old: old, ds: first})
	send(m, reloadedMsg{old: old, ds: second})
	if m.datasets[0] != first {
		t.Fatal("the first reload to arrive is not the one shown")
	}
	if !idx.stopped {
		t.Error("the discarded reload's index was not stopped")
	}
}

// TestReloadCountIsNotFinalWhileIndexing: r said "reloaded 468 records",
// then 906, of 1,404, as if each were the count; while the new index
// grows it says so, and the count is final once it is complete.
func TestReloadCountIsNotFinalWhileIndexing(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 30)
	fresh := lmevalFixture()
	idx := &growingIndex{recs: fresh.Records.(*model.MemIndex).Recs, n: 2}
	fresh.Records = idx
	send(m, reloadedMsg{old: m.datasets[0], ds: fresh})
	if s := screen(m); !strings.Contains(s, "reloading: 2 records so far") || strings.Contains(s, "reloaded") {
		t.Errorf("reload while the index grows:\n%s", s)
	}
	idx.grow(len(idx.recs), true)
	send(m, indexTickMsg{})
	want := "reloaded " + strconv.Itoa(len(idx.recs)) + " records"
	if s := screen(m); !strings.Contains(s, want) {
		t.Errorf("reload complete: want %q\n%s", want, s)
	}
	press(m, "j")
	if s := screen(m); strings.Contains(s, "reloaded") {
		t.Errorf("the reload's count stays after a key:\n%s", s)
	}
}
