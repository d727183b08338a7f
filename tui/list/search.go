package list

import (
	"context"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/model/query"
	"evalview/tui/ui"
)

// RecordSearchMax is the largest complete dataset whose list search loads
// every record to match its whole text; bigger ones match id and title,
// or the source bytes when the index can search them (model.RawSearcher).
const RecordSearchMax = 5000

// RawFirstBytes is the source size past which a dataset whose index can
// search its source bytes (model.RawSearcher) is searched there however
// few its records: loading every record of a 100 MB lm-eval file (2,000
// records of 50 KB) to match its text took seconds, where the raw search
// reads the file at disk speed.
const RawFirstBytes = 16 << 20

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

// CancelSearch stops ds's running list search, if any, and forgets
// it: the search was cleared, or the user left or reloaded the dataset
// (its results would be dropped as stale anyway).
func CancelSearch(ds *model.Dataset) {
	listSearches.Lock()
	defer listSearches.Unlock()
	if c := listSearches.cancel[ds]; c != nil {
		c()
	}
	delete(listSearches.cancel, ds)
}

// SearchMatcher compiles a list search: "~pattern" is a regex, anything
// else plain text; both smart case. A bad regex falls back to plain text.
// The detail highlights the list's search with it.
func SearchMatcher(q string) *query.Matcher {
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
	m := SearchMatcher(q)
	if m == nil {
		return nil
	}
	if ds.Records.Done() && ds.Records.Len() <= RecordSearchMax && !bigRaw(ds.Records) {
		return ui.SafeCmd(func() tea.Msg {
			rows, _ := query.Search(ctx, ds, vis, m)
			if ctx.Err() != nil {
				return nil
			}
			return searchMsg{id: id, ds: ds, query: q, matches: positionsOf(vis, rows), jump: jump}
		})
	}
	if rs, ok := ds.Records.(model.RawSearcher); ok && !m.Regex() {
		return rawSearchCmd(ctx, rs, id, ds, q, jump, gate)
	}
	return ui.SafeCmd(func() tea.Msg {
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
		return searchMsg{id: id, ds: ds, query: q, matches: out, jump: jump}
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
// them than RawFirstBytes.
func bigRaw(x model.Index) bool {
	_, raw := x.(model.RawSearcher)
	sz, ok := x.(sourceSizer)
	return raw && ok && sz.Progress() > RawFirstBytes
}

// searchMsg carries the list positions whose id or title matches a
// query.
type searchMsg struct {
	id      int
	ds      *model.Dataset
	query   string
	matches []int
	// jump moves the cursor to the first match (while typing), unlike a
	// search rerun after the list changed.
	jump bool
}

func (searchMsg) listMsg() {}

// Search searches the list for q ("" clears the search), jumping to the
// first match at or after the cursor as matches come.
func (l *Pane) Search(q string) tea.Cmd {
	l.st.query = q
	l.st.matches, l.st.matchIdx = nil, 0
	l.st.hitRecords, l.st.counting = nil, q != ""
	l.searchID++
	if q == "" {
		l.cancelSearch()
		return nil
	}
	return listSearchCmd(l.searchID, l.ds, l.st.visible, q, true, l.src.Gate())
}

// cancelSearch stops the current dataset's running list search.
func (l *Pane) cancelSearch() {
	if l.ds != nil {
		CancelSearch(l.ds)
	}
}

// Research runs the list search again after the visible records
// changed, without moving the cursor.
func (l *Pane) Research() tea.Cmd {
	l.st.matches, l.st.matchIdx = nil, 0
	l.st.hitRecords, l.st.counting = nil, l.st.query != ""
	if l.st.query == "" {
		l.cancelSearch()
		return nil
	}
	l.searchID++
	return listSearchCmd(l.searchID, l.ds, l.st.visible, l.st.query, false, l.src.Gate())
}

// handleSearchDone takes in the matches of a search that ran in one go.
func (l *Pane) handleSearchDone(msg searchMsg) tea.Cmd {
	if msg.id == l.searchID {
		l.st.hitRecords, l.st.counting = nil, false
	}
	return l.handleSearch(msg)
}

// handleSearch takes in list matches, dropping stale ones, and jumps
// to the first match at or after the cursor when asked to.
func (l *Pane) handleSearch(msg searchMsg) tea.Cmd {
	if msg.id != l.searchID || msg.ds != l.ds {
		return nil
	}
	st := l.st
	st.matches, st.matchIdx = msg.matches, 0
	for i, pos := range st.matches {
		if pos >= st.cursor {
			st.matchIdx = i
			break
		}
	}
	if !msg.jump || len(st.matches) == 0 || st.matches[st.matchIdx] == st.cursor {
		return nil
	}
	l.moveTo(st.matches[st.matchIdx])
	l.center()
	return cursorMoved()
}

// NextMatch moves to the next (1) or previous (-1) match of the search.
func (l *Pane) NextMatch(dir int) tea.Cmd {
	st := l.st
	n := len(st.matches)
	if n == 0 {
		return nil
	}
	// Start from the cursor: the user may have moved since the last match.
	if st.matches[st.matchIdx] != st.cursor {
		st.matchIdx = -1
		for i, pos := range st.matches {
			if pos > st.cursor {
				st.matchIdx = i
				break
			}
		}
		if dir > 0 && st.matchIdx >= 0 {
			dir = 0
		} else if st.matchIdx < 0 {
			st.matchIdx = 0
			if dir > 0 {
				dir = 0
			}
		}
	}
	st.matchIdx = ((st.matchIdx+dir)%n + n) % n
	l.moveTo(st.matches[st.matchIdx])
	l.center()
	return cursorMoved()
}

// Query is the list's search ("" when none).
func (l *Pane) Query() string { return l.st.query }

// Matches are the search's matches so far: how many, the current one
// (1-based), and whether more may come (the search still runs).
func (l *Pane) Matches() (hits, cur int, counting bool) {
	return len(l.st.matches), l.st.matchIdx + 1, l.st.counting
}

// SearchRunning reports whether a search of ds runs (or ran and was not
// cancelled): a search that was cleared, or whose dataset was left or
// reloaded, is cancelled and forgotten.
func SearchRunning(ds *model.Dataset) bool {
	listSearches.Lock()
	defer listSearches.Unlock()
	_, ok := listSearches.cancel[ds]
	return ok
}

// Counting reports that the search's count is not final: it still runs.
func (l *Pane) Counting() bool { return l.st.counting }
