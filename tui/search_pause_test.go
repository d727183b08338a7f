package tui

import (
	"context"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
)

// TestListSearchWaitsForPause: typing a query searches the list once,
// when the typing pauses or at enter, not once per key (a 1 GB file is
// read whole by each search); a pause that an edit followed is dropped.
func TestListSearchWaitsForPause(t *testing.T) {
	ds := bigDataset(recordSearchMax + 100)
	idx := &rawIndex{MemIndex: ds.Records.(*model.MemIndex)}
	ds.Records = idx
	m := newTestModel(t, []*model.Dataset{ds}, 100, 30)
	press(m, "/")
	typeText(m, "hiddenword")
	if idx.calls != 0 || m.list.st.query != "" {
		t.Fatalf("typing searched: %d searches, query %q", idx.calls, m.list.st.query)
	}
	if s := screen(m); !strings.Contains(s, "0 matches…") {
		t.Errorf("the search line does not say the count is to come:\n%s", s)
	}
	send(m, searchPauseMsg{id: m.typedID - 1, q: "hiddenwor"}) // typed on since
	if idx.calls != 0 {
		t.Fatalf("a stale pause searched")
	}
	send(m, searchPauseMsg{id: m.typedID, q: "hiddenword"})
	want := (recordSearchMax + 100 + 6) / 7
	if idx.calls != 1 || len(m.list.st.matches) != want {
		t.Fatalf("after the pause: %d searches, %d matches; want 1 and %d", idx.calls, len(m.list.st.matches), want)
	}
	press(m, "enter")
	if idx.calls != 1 {
		t.Errorf("enter searched again for the same query: %d searches", idx.calls)
	}
	if s := screen(m); !strings.Contains(s, "/hiddenword 1/"+strconv.Itoa(want)+" in list") {
		t.Errorf("status lacks the final count:\n%s", s)
	}
	// Typed then enter before the pause: one search, at once.
	press(m, "/", "ctrl+u")
	typeText(m, "question 50")
	press(m, "enter")
	if idx.calls != 2 || m.list.st.query != "question 50" {
		t.Errorf("enter: %d searches, query %q", idx.calls, m.list.st.query)
	}
}

// TestRawSearchFollowsGrowingList: a raw search's hits are records; those
// the list does not show yet count once the index brings them in, and the
// status says the count is not final until the search ends.
func TestRawSearchFollowsGrowingList(t *testing.T) {
	base := lmevalFixture()
	idx := &growingIndex{recs: base.Records.(*model.MemIndex).Recs}
	base.Records = idx
	idx.grow(3, false)
	m := newTestModel(t, []*model.Dataset{base}, 100, 30)
	m.searchIn = focusList
	_ = m.setQueryIn(focusList, "zz") // its command is not run: the test sends the hits
	later := tea.Tick(time.Hour, func(time.Time) tea.Msg { return nil })
	hits := func(next tea.Cmd, recs ...int) rawSearchMsg {
		return rawSearchMsg{listSearchMsg: listSearchMsg{id: m.searchID, ds: base, query: "zz", jump: true}, records: recs, ctx: context.Background(), next: next}
	}
	if s := screen(m); !strings.Contains(s, "/zz searching…") {
		t.Errorf("no searching mark before the first hit:\n%s", s)
	}
	send(m, hits(later, 1, 4))
	if got := m.list.st.matches; !reflect.DeepEqual(got, []int{1}) {
		t.Fatalf("matches %v, want [1] (record 4 is not listed yet)", got)
	}
	if s := screen(m); !strings.Contains(s, "/zz 1/1… in list") {
		t.Errorf("status while counting:\n%s", s)
	}
	idx.grow(6, false)
	send(m, indexTickMsg{})
	if got := m.list.st.matches; !reflect.DeepEqual(got, []int{1, 4}) {
		t.Fatalf("matches %v after the list grew, want [1 4]", got)
	}
	idx.grow(6, true)
	send(m, hits(nil, 1, 4, 5))
	if s := screen(m); !strings.Contains(s, "/zz 1/3 in list") {
		t.Errorf("status once the search ended:\n%s", s)
	}
}

// TestHoldingPausesDeepPasses: a command the user waits on (a record
// load) holds the gate the deep passes pause at, and lets go after.
func TestHoldingPausesDeepPasses(t *testing.T) {
	g := model.NewGate()
	ctx := model.WithGate(context.Background(), g)
	paused := false
	holding(g, func() tea.Msg {
		done := make(chan error, 1)
		go func() { done <- model.Pause(ctx) }()
		select {
		case <-done:
		case <-time.After(20 * time.Millisecond):
			paused = true
		}
		return nil
	})()
	if !paused {
		t.Error("the deep pass was not paused while the command ran")
	}
	if err := model.Pause(ctx); err != nil {
		t.Errorf("after the command: %v", err)
	}
}

// TestPrewarmRestoresGC: the collector's rate Prewarm lowers for the start
// is the user's again after the first frame.
func TestPrewarmRestoresGC(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	Prewarm()
	if got := debug.SetGCPercent(500); got != 500 {
		t.Fatalf("GOGC during the start: %d, want 500", got)
	}
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 30)
	_ = m.View()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC after the first frame: %d, want 100", got)
	}
}

// sizedRawIndex is a raw-searchable index that says its source is big.
type sizedRawIndex struct {
	rawIndex
	bytes int64
}

func (s *sizedRawIndex) Progress() int64 { return s.bytes }

// TestBigSourceSearchedRaw: a complete dataset of few records is searched
// in its source bytes when its source is big, not by loading every record.
func TestBigSourceSearchedRaw(t *testing.T) {
	for _, c := range []struct {
		bytes int64
		raw   bool
	}{{1 << 20, false}, {rawFirstBytes + 1, true}} {
		ds := bigDataset(50)
		idx := &sizedRawIndex{rawIndex: rawIndex{MemIndex: ds.Records.(*model.MemIndex)}, bytes: c.bytes}
		ds.Records = idx
		m := newTestModel(t, []*model.Dataset{ds}, 100, 30)
		press(m, "/")
		typeText(m, "question 1")
		press(m, "enter")
		if got := idx.calls > 0; got != c.raw {
			t.Errorf("%d source bytes: raw search used %v, want %v", c.bytes, got, c.raw)
		}
		if len(m.list.st.matches) == 0 {
			t.Errorf("%d source bytes: no match for %q", c.bytes, "question 1")
		}
	}
}
