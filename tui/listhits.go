package tui

import "evalview/tui/text"

// A list search (`/` in the list) is shown in the detail too: the record
// it found has the matches highlighted, and n/N in the detail move
// between them. The detail's own search (`/` in the detail) replaces it
// until the next list search.

// findMatcher fills s.matches with the matcher's hits in the plain lines.
func (s *detailSearch) findMatcher(plain []string) {
	for i, l := range plain {
		for _, r := range s.re.FindAll(l) {
			start := text.Width(l[:r[0]])
			s.matches = append(s.matches, match{i, start, start + text.Width(l[r[0]:r[1]])})
		}
	}
	if s.cur >= len(s.matches) {
		s.cur = len(s.matches) - 1
	}
}

// syncListHits makes the detail highlight the list's search, or drops
// the highlights of a list search that ended.
func (m *Model) syncListHits() {
	d := &m.detail
	q := m.list.st.query
	if q == "" {
		if d.search.fromList {
			d.clearSearch()
		}
		return
	}
	re := searchMatcher(q)
	if re == nil {
		return
	}
	if d.search.fromList && d.search.query == q {
		return
	}
	d.search = detailSearch{query: q, re: re, fromList: true, cur: -1}
	y := d.vp.YOffset()
	d.search.find(d.doc.Plain)
	d.setContent()
	d.vp.SetYOffset(y)
}

// showFirstListHit scrolls the detail to the first match of the list's
// search when the user opens a record it found.
func (m *Model) showFirstListHit() {
	d := &m.detail
	if !d.search.fromList || len(d.search.matches) == 0 || d.search.cur >= 0 {
		return
	}
	d.search.cur = 0
	d.showMatch()
}

// detailFollowsListSearch reports whether n/N and the status bar's match
// count belong to the detail's highlights of the list search.
func (m *Model) detailFollowsListSearch() bool {
	return m.focus == focusDetail && m.detail.search.fromList && m.list.st.query != ""
}
