package tui

import (
	"context"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/list"
)

// TestListSearchWaitsForPause: typing a query searches the list once,
// when the typing pauses or at enter, not once per key (a 1 GB file is
// read whole by each search); a pause that an edit followed is dropped.
func TestListSearchWaitsForPause(t *testing.T) {
	ds := bigDataset(list.RecordSearchMax + 100)
	idx := &rawIndex{MemIndex: ds.Records.(*model.MemIndex)}
	ds.Records = idx
	m := newTestModel(t, []*model.Dataset{ds}, 100, 30)
	press(m, "/")
	typeText(m, "hiddenword")
	if idx.calls != 0 || m.list.Query() != "" {
		t.Fatalf("typing searched: %d searches, query %q", idx.calls, m.list.Query())
	}
	if s := screen(m); !strings.Contains(s, "0 matches…") {
		t.Errorf("the search line does not say the count is to come:\n%s", s)
	}
	send(m, searchPauseMsg{id: m.search.typed - 1, q: "hiddenwor"}) // typed on since
	if idx.calls != 0 {
		t.Fatalf("a stale pause searched")
	}
	send(m, searchPauseMsg{id: m.search.typed, q: "hiddenword"})
	want := (list.RecordSearchMax + 100 + 6) / 7
	if idx.calls != 1 || len(m.list.Hits()) != want {
		t.Fatalf("after the pause: %d searches, %d matches; want 1 and %d", idx.calls, len(m.list.Hits()), want)
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
	if idx.calls != 2 || m.list.Query() != "question 50" {
		t.Errorf("enter: %d searches, query %q", idx.calls, m.list.Query())
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
	}{{1 << 20, false}, {list.RawFirstBytes + 1, true}} {
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
		if len(m.list.Hits()) == 0 {
			t.Errorf("%d source bytes: no match for %q", c.bytes, "question 1")
		}
	}
}
