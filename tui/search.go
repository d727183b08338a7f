package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/tui/list"
)

// A list search (`/` in the list) is shown in the detail too: the record
// it found has the matches highlighted, and n/N in the detail move
// between them. The detail's own search (`/` in the detail) replaces it
// until the next list search.

// setQueryIn searches pane in for q ("" clears the search).
func (m *Model) setQueryIn(in focus, q string) tea.Cmd {
	if in == focusDetail {
		m.detail.Search(q)
		return nil
	}
	cmd := m.list.Search(q)
	m.syncListHits()
	return cmd
}

// nextMatch moves to the next (1) or previous (-1) match of the search.
func (m *Model) nextMatch(dir int) tea.Cmd {
	if hits, _ := m.detail.SearchHits(); m.searchIn == focusDetail || m.detailFollowsListSearch() && hits > 0 {
		m.detail.NextMatch(dir)
		return nil
	}
	return m.list.NextMatch(dir)
}

// searchHits reports whether n and N have somewhere to go: the search of
// the pane it was started in found something (for a list search, in the
// list or, when the detail follows it, in the detail). A search with no
// hit leaves them out of the help line.
func (m *Model) searchHits() bool {
	detailHits, _ := m.detail.SearchHits()
	if m.searchIn == focusDetail {
		q, _ := m.detail.SearchQuery()
		return q != "" && detailHits > 0
	}
	if m.list.Query() == "" {
		return false
	}
	hits, _, _ := m.list.Matches()
	return hits > 0 || m.detailFollowsListSearch() && detailHits > 0
}

// syncListHits makes the detail highlight the list's search, or drops
// the highlights of a list search that ended.
func (m *Model) syncListHits() {
	q := m.list.Query()
	m.detail.FollowList(q, list.SearchMatcher(q))
}

// detailFollowsListSearch reports whether n/N and the status bar's match
// count belong to the detail's highlights of the list search.
func (m *Model) detailFollowsListSearch() bool {
	_, fromList := m.detail.SearchQuery()
	return m.focus == focusDetail && fromList && m.list.Query() != ""
}

// searchPause is how long the typing must pause before the list is
// searched: a search of a big file reads all of it, and one per key of a
// typed (or unbracketed pasted) query would run as many.
const searchPause = 200 * time.Millisecond

// searchPauseMsg fires searchPause after an edit of the search line; id
// tells whether another edit came since.
type searchPauseMsg struct {
	id int
	q  string
}

func (msg searchPauseMsg) applyTo(m *Model) tea.Cmd {
	if msg.id != m.typedID || m.searchIn != focusList {
		return nil // typed on, or the search was closed
	}
	return m.searchNow(msg.q)
}

// searchNow searches for q at once (enter, or the typing paused), unless
// that search is the one already shown or running.
func (m *Model) searchNow(q string) tea.Cmd {
	m.typedID++ // a pending pause is for this query or an older one
	if m.searchIn == focusDetail || q == m.list.Query() {
		return nil // the detail searched at every change
	}
	return m.setQueryIn(m.searchIn, q)
}
