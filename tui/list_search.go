package tui

import (
	"context"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/query"
)

// recordSearchMax is the largest complete dataset whose list search loads
// every record to match its whole text; bigger ones match id and title,
// or the source bytes when the index can search them (model.RawSearcher).
const recordSearchMax = 5000

// rawFirstBytes is the source size past which a dataset whose index can
// search its source bytes (model.RawSearcher) is searched there however
// few its records: loading every record of a 100 MB lm-eval file (2,000
// records of 50 KB) to match its text took seconds, where the raw search
// reads the file at disk speed.
const rawFirstBytes = 16 << 20

// sourceSizer is implemented by indexes that tell how many source bytes
// they indexed (lm-eval's: uncompressed).
type sourceSizer interface{ Progress() int64 }

// listSearches cancels a dataset's running list search when a newer one
// starts (the user typed another letter).
var listSearches = struct {
	sync.Mutex
	cancel map[*model.Dataset]context.CancelFunc
}{cancel: map[*model.Dataset]context.CancelFunc{}}

// listSearchCtx returns the context of a new search of ds, cancelling the
// previous one.
func listSearchCtx(ds *model.Dataset) context.Context {
	listSearches.Lock()
	defer listSearches.Unlock()
	if c := listSearches.cancel[ds]; c != nil {
		c()
	}
	ctx, cancel := context.WithCancel(context.Background())
	listSearches.cancel[ds] = cancel
	return ctx
}

// cancelListSearch stops ds's running list search, if any, and forgets
// it: the search was cleared, or the user left or reloaded the dataset
// (its results would be dropped as stale anyway).
func cancelListSearch(ds *model.Dataset) {
	listSearches.Lock()
	defer listSearches.Unlock()
	if c := listSearches.cancel[ds]; c != nil {
		c()
	}
	delete(listSearches.cancel, ds)
}

// searchMatcher compiles a list search: "~pattern" is a regex, anything
// else plain text; both smart case. A bad regex falls back to plain text.
func searchMatcher(q string) *query.Matcher {
	if p, ok := strings.CutPrefix(q, "~"); ok && p != "" {
		if m, err := query.NewMatcher(p, true); err == nil {
			return m
		}
	}
	m, _ := query.NewMatcher(q, false)
	return m
}

// listSearchCmd finds the list positions matching query, off the event
// loop: a list can hold a million rows. Small complete datasets are
// searched over the whole record text (query.RecordText); big ones over
// the source bytes when the index is a model.RawSearcher (hits stream in),
// else over id and title.
//
// gate is held while a raw search runs: background passes wait for it.
func listSearchCmd(id int, ds *model.Dataset, visible []int, q string, jump bool, gate *model.Gate) tea.Cmd {
	vis := append([]int(nil), visible...)
	ctx := listSearchCtx(ds)
	m := searchMatcher(q)
	if m == nil {
		return nil
	}
	if ds.Records.Done() && ds.Records.Len() <= recordSearchMax && !bigRaw(ds.Records) {
		return safeCmd(func() tea.Msg {
			rows, _ := query.Search(ctx, ds, vis, m)
			if ctx.Err() != nil {
				return nil
			}
			return listSearchMsg{id: id, ds: ds, query: q, matches: positionsOf(vis, rows), jump: jump}
		})
	}
	if rs, ok := ds.Records.(model.RawSearcher); ok && !m.Regex() {
		return rawSearchCmd(ctx, rs, id, ds, q, jump, gate)
	}
	return safeCmd(func() tea.Msg {
		var out []int
		for pos, i := range vis {
			if pos%4096 == 0 && ctx.Err() != nil {
				return nil
			}
			s := ds.Records.Summary(i)
			if m.Match(s.ID) || m.Match(s.Title) {
				out = append(out, pos)
			}
		}
		return listSearchMsg{id: id, ds: ds, query: q, matches: out, jump: jump}
	})
}

// positionsOf returns the list positions of rows, which are in the order
// of vis (a subsequence of it).
func positionsOf(vis, rows []int) []int {
	out := make([]int, 0, len(rows))
	k := 0
	for pos, i := range vis {
		if k < len(rows) && rows[k] == i {
			out = append(out, pos)
			k++
		}
	}
	return out
}

// bigRaw reports an index that searches its source bytes and has more of
// them than rawFirstBytes.
func bigRaw(x model.Index) bool {
	_, raw := x.(model.RawSearcher)
	sz, ok := x.(sourceSizer)
	return raw && ok && sz.Progress() > rawFirstBytes
}
