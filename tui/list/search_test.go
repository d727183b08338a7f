package list

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/styles"
	"evalview/tui/ui"
)

// growingIndex is an index that holds n of its records so far.
type growingIndex struct {
	mu   sync.Mutex
	recs []*model.Record
	n    int
	done bool
}

func (g *growingIndex) Len() int                            { g.mu.Lock(); defer g.mu.Unlock(); return g.n }
func (g *growingIndex) Summary(i int) model.Summary         { return g.recs[i].Summary }
func (g *growingIndex) Record(i int) (*model.Record, error) { return g.recs[i], nil }
func (g *growingIndex) Done() bool                          { g.mu.Lock(); defer g.mu.Unlock(); return g.done }
func (g *growingIndex) grow(n int, done bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n, g.done = n, done
}

// TestRawSearchFollowsGrowingList: a raw search's hits are records; those
// the list does not show yet count once the index brings them in, and the
// count is not final until the search ends.
func TestRawSearchFollowsGrowingList(t *testing.T) {
	var recs []*model.Record
	for i := range 6 {
		rec := &model.Record{}
		rec.ID, rec.Title = fmt.Sprint(i), fmt.Sprint("record ", i)
		recs = append(recs, rec)
	}
	idx := &growingIndex{recs: recs}
	idx.grow(3, false)
	ds := &model.Dataset{Records: idx}
	l := New(ui.NewCommon(styles.New(true)), Sources{})
	l.SetSize(40, 10)
	l.SetDataset(ds, NewState(""))
	_ = l.Search("zz") // its command is not run: the test sends the hits
	later := tea.Tick(time.Hour, func(time.Time) tea.Msg { return nil })
	hits := func(next tea.Cmd, recs ...int) rawSearchMsg {
		return rawSearchMsg{searchMsg: searchMsg{id: l.searchID, ds: ds, query: "zz", jump: true}, records: recs, ctx: context.Background(), next: next}
	}
	if n, _, counting := l.Matches(); n != 0 || !counting {
		t.Errorf("before the first hit: %d hits, counting %v; want 0, still counting", n, counting)
	}
	l.Update(hits(later, 1, 4))
	if got := l.Hits(); !reflect.DeepEqual(got, []int{1}) {
		t.Fatalf("matches %v, want [1] (record 4 is not listed yet)", got)
	}
	if n, cur, counting := l.Matches(); n != 1 || cur != 1 || !counting {
		t.Errorf("while counting: match %d of %d, counting %v; want 1 of 1, counting", cur, n, counting)
	}
	idx.grow(6, false)
	l.TakeIn(true)
	if got := l.Hits(); !reflect.DeepEqual(got, []int{1, 4}) {
		t.Fatalf("matches %v after the list grew, want [1 4]", got)
	}
	idx.grow(6, true)
	l.Update(hits(nil, 1, 4, 5))
	if n, cur, counting := l.Matches(); n != 3 || cur != 1 || counting {
		t.Errorf("once the search ended: match %d of %d, counting %v; want 1 of 3, final", cur, n, counting)
	}
}
