package tui

import (
	"context"
	"testing"
	"time"

	"evalview/model"
	"evalview/tui/list"
)

// blockingSearcher is a growing index whose raw search runs until it is
// cancelled, handing its context to the test.
type blockingSearcher struct {
	growingIndex
	started chan context.Context
}

func (b *blockingSearcher) SearchRaw(ctx context.Context, _ string, _ bool, _ func(int)) error {
	b.started <- ctx
	<-ctx.Done()
	return ctx.Err()
}

func TestListSearchCancelledOnClearSwitchAndReload(t *testing.T) {
	tests := []struct {
		name string
		stop func(m *Model)
	}{
		{"clear", func(m *Model) { m.search.set(focusList, "") }},
		{"switch", func(m *Model) { m.switchDataset(m.cur + 1) }},
		{"reload", func(m *Model) { m.replaceDataset(m.cur, lmevalFixture()) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ds := lmevalFixture()
			bs := &blockingSearcher{growingIndex: growingIndex{recs: ds.Records.(*model.MemIndex).Recs, n: 3}, started: make(chan context.Context, 1)}
			ds.Records = bs
			m := newTestModel(t, []*model.Dataset{ds, lmevalFixture()}, 100, 30)
			_ = m.search.set(focusList, "answer") // the search runs off the loop
			var ctx context.Context
			select {
			case ctx = <-bs.started:
			case <-time.After(10 * time.Second):
				t.Fatal("the raw search never started")
			}
			tc.stop(m)
			select {
			case <-ctx.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("the running raw search was not cancelled")
			}
			if list.SearchRunning(ds) {
				t.Error("the dataset's search is still remembered")
			}
		})
	}
}
