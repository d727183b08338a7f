package list

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/ui"
)

// rawBatch is how long a streaming search collects hits before the list
// shows them: often enough to feel live, rarely enough to stay cheap.
const rawBatch = 150 * time.Millisecond

// rawStream collects the hits of a model.RawSearcher running in the
// background, as record indexes: the list may grow while the search runs
// (it follows a growing index), so the list maps them to its positions
// when it takes them in, and again when the list grows.
type rawStream struct {
	mu     sync.Mutex
	hits   []int
	done   bool
	notify chan struct{} // a hit arrived or the search ended
}

// rawSearchMsg carries the hits so far of a streaming list search (the
// records, ascending) and the command that waits for more; next is nil
// when the search is over.
type rawSearchMsg struct {
	searchMsg
	records []int
	ctx     context.Context
	next    tea.Cmd
}

func (rawSearchMsg) listMsg() {}

// handleRawSearch takes in the hits so far of a streaming search.
func (l *Pane) handleRawSearch(msg rawSearchMsg) tea.Cmd {
	if msg.id != l.searchID || msg.ctx.Err() != nil {
		return nil // superseded: the new search cancelled this one
	}
	st := l.st
	st.hitRecords, st.rawRunning = msg.records, msg.next != nil
	st.counting = st.rawCounting()
	msg.matches = hitPositions(st.visible, msg.records)
	return tea.Batch(l.handleSearch(msg.searchMsg), msg.next)
}

// hitPositions maps a raw search's records (ascending) to positions in the
// list's visible records.
func hitPositions(visible, records []int) []int {
	pos := positionFunc(visible)
	out := make([]int, 0, len(records))
	for _, r := range records {
		if p, ok := pos(r); ok {
			out = append(out, p)
		}
	}
	sort.Ints(out)
	return out
}

// remapHits maps the raw search's records to the list again after the
// list grew, keeping the current match on its record.
func (l *Pane) remapHits() {
	st := l.st
	if st.hitRecords == nil || st.query == "" {
		return
	}
	cur := -1
	if st.matchIdx < len(st.matches) && st.matches[st.matchIdx] < len(st.visible) {
		cur = st.visible[st.matches[st.matchIdx]]
	}
	st.matches, st.matchIdx = hitPositions(st.visible, st.hitRecords), 0
	st.counting = st.rawCounting()
	for i, p := range st.matches {
		if st.visible[p] == cur {
			st.matchIdx = i
			break
		}
	}
}

// rawSearchCmd searches ds's source bytes for q (smart case) and streams
// the records of the hits: the first as soon as it is found, then batches.
func rawSearchCmd(ctx context.Context, rs model.RawSearcher, id int, ds *model.Dataset, q string, jump bool, gate *model.Gate) tea.Cmd {
	st := &rawStream{notify: make(chan struct{}, 1)}
	poke := func() {
		select {
		case st.notify <- struct{}{}:
		default:
		}
	}
	fold := strings.ToLower(q) == q
	release := gate.Hold() // the deep pass waits while the user does
	go func() {
		defer release()
		defer func() {
			_ = recover() // a failing index ends the search, not the browser
			st.mu.Lock()
			st.done = true
			st.mu.Unlock()
			poke()
		}()
		_ = rs.SearchRaw(ctx, q, fold, func(record int) {
			st.mu.Lock()
			st.hits = append(st.hits, record)
			st.mu.Unlock()
			poke()
		})
	}()
	var wait func(first bool) tea.Cmd
	wait = func(first bool) tea.Cmd {
		return ui.SafeCmd(func() tea.Msg {
			select {
			case <-st.notify:
			case <-ctx.Done():
				return nil
			}
			// The first hit shows at once; later ones in batches.
			batch := rawBatch
			if first {
				batch = 0
			}
			t := time.NewTimer(batch)
			defer t.Stop()
			for done := first; !done; {
				st.mu.Lock()
				done = st.done
				st.mu.Unlock()
				if done {
					break
				}
				select {
				case <-st.notify:
				case <-t.C:
					done = true
				case <-ctx.Done():
					return nil
				}
			}
			st.mu.Lock()
			hits := append([]int(nil), st.hits...)
			finished := st.done
			st.mu.Unlock()
			sort.Ints(hits)
			msg := rawSearchMsg{searchMsg: searchMsg{id: id, ds: ds, query: q, jump: jump && first}, records: hits, ctx: ctx}
			if !finished {
				msg.next = wait(first && len(hits) == 0)
			}
			return msg
		})
	}
	return wait(true)
}

// positionFunc maps a record index to its list position in vis, which is
// ascending unless the list is sorted.
func positionFunc(vis []int) func(int) (int, bool) {
	if sort.IntsAreSorted(vis) {
		return func(i int) (int, bool) {
			k := sort.SearchInts(vis, i)
			return k, k < len(vis) && vis[k] == i
		}
	}
	at := make(map[int]int, len(vis))
	for p, i := range vis {
		at[i] = p
	}
	return func(i int) (int, bool) {
		p, ok := at[i]
		return p, ok
	}
}

// rawCounting reports that a raw search's count is not final: its stream
// still runs, or a hit is in a record the list has not looked at yet.
// The search places a hit as soon as the index holds its record, and the
// list takes in the index's records at its next tick: a count shown as
// final before then was short of the hits in the last records.
func (st *State) rawCounting() bool {
	n := len(st.hitRecords)
	return st.rawRunning || n > 0 && st.hitRecords[n-1] >= st.known
}
