package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"evalview/tui/detail"
	"evalview/tui/list"
)

// A list search (`/` in the list) is shown in the detail too: the record
// it found has the matches highlighted, and n/N in the detail move
// between them. The detail's own search (`/` in the detail) replaces it
// until the next list search.

// searchState is the search (/) that crosses the panes: which pane it
// belongs to, the latest edit of the search line, and the panes it
// searches (the root's, set once in New).
type searchState struct {
	list   *list.Pane
	detail *detail.Pane
	// in is the pane the search belongs to.
	in focus
	// typed tags the latest edit of the search line (searchPauseMsg).
	typed int
}

// set searches pane in for q ("" clears the search).
func (s *searchState) set(in focus, q string) tea.Cmd {
	if in == focusDetail {
		s.detail.Search(q)
		return nil
	}
	cmd := s.list.Search(q)
	s.syncListHits()
	return cmd
}

// next moves to the next (1) or previous (-1) match of the search, with
// the keys in pane f.
func (s *searchState) next(dir int, f focus) tea.Cmd {
	if hits, _ := s.detail.SearchHits(); s.in == focusDetail || s.detailFollows(f) && hits > 0 {
		s.detail.NextMatch(dir)
		return nil
	}
	return s.list.NextMatch(dir)
}

// searchHits reports whether n and N have somewhere to go: the search of
// the pane it was started in found something (for a list search, in the
// list or, when the detail follows it, in the detail). A search with no
// hit leaves them out of the help line. f is the pane with the keys.
func (s *searchState) hits(f focus) bool {
	detailHits, _ := s.detail.SearchHits()
	if s.in == focusDetail {
		q, _ := s.detail.SearchQuery()
		return q != "" && detailHits > 0
	}
	if s.list.Query() == "" {
		return false
	}
	hits, _, _ := s.list.Matches()
	return hits > 0 || s.detailFollows(f) && detailHits > 0
}

// syncListHits makes the detail highlight the list's search, or drops
// the highlights of a list search that ended.
func (s *searchState) syncListHits() {
	q := s.list.Query()
	s.detail.FollowList(q, list.SearchMatcher(q))
}

// detailFollows reports whether n/N and the status bar's match count
// belong to the detail's highlights of the list search, with the keys
// in pane f.
func (s *searchState) detailFollows(f focus) bool {
	_, fromList := s.detail.SearchQuery()
	return f == focusDetail && fromList && s.list.Query() != ""
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
	if msg.id != m.search.typed || m.search.in != focusList {
		return nil // typed on, or the search was closed
	}
	return m.search.now(msg.q)
}

// now searches for q at once (enter, or the typing paused), unless that
// search is the one already shown or running.
func (s *searchState) now(q string) tea.Cmd {
	s.typed++ // a pending pause is for this query or an older one
	if s.in == focusDetail || q == s.list.Query() {
		return nil // the detail searched at every change
	}
	return s.set(s.in, q)
}
