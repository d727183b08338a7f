package detail

import (
	"strings"

	"charm.land/lipgloss/v2"

	"evalview/model/query"
	"evalview/tui/styles"
	"evalview/tui/text"
)

// detailSearch is a search inside the rendered tab.
type detailSearch struct {
	query string
	// re, when set, finds the matches instead of query as plain text: a
	// list search shown in the detail (FollowList), regex or plain.
	re *query.Matcher
	// fromList marks a search that follows the list's `/` search.
	fromList bool
	// matches are (line, start cell, end cell) of each hit.
	matches []match
	cur     int
}

type match struct{ line, start, end int }

// find recomputes the matches over the plain lines.
func (s *detailSearch) find(plain []string) {
	s.matches = s.matches[:0]
	if s.query == "" {
		s.cur = -1
		return
	}
	if s.re != nil {
		s.findMatcher(plain)
		return
	}
	fold := strings.ToLower(s.query) == s.query
	for i, l := range plain {
		hay := l
		if fold {
			if low := strings.ToLower(l); len(low) == len(l) {
				hay = low
			}
		}
		for off := 0; ; {
			j := strings.Index(hay[off:], s.query)
			if j < 0 {
				break
			}
			start := text.Width(l[:off+j])
			end := start + text.Width(l[off+j:off+j+len(s.query)])
			s.matches = append(s.matches, match{i, start, end})
			off += j + len(s.query)
		}
	}
	if s.cur >= len(s.matches) {
		s.cur = len(s.matches) - 1
	}
}

// highlight styles the matches in lines (which it changes in place).
func (s *detailSearch) highlight(lines []string, st *styles.Styles) {
	if len(s.matches) == 0 {
		return
	}
	byLine := map[int][]lipgloss.Range{}
	for i, m := range s.matches {
		style := st.Detail.Match
		if i == s.cur {
			style = st.Detail.CurrentMatch
		}
		byLine[m.line] = append(byLine[m.line], lipgloss.NewRange(m.start, m.end, style))
	}
	for ln, rs := range byLine {
		if ln < len(lines) {
			lines[ln] = lipgloss.StyleRanges(lines[ln], rs...)
		}
	}
}

// setQuery starts a search for q and shows the first match at or below
// the top of the view.
func (d *Pane) setQuery(q string) {
	d.search.query = q
	d.search.cur = -1
	d.search.find(d.doc.Plain)
	top := d.vp.YOffset()
	for i, m := range d.search.matches {
		if m.line >= top {
			d.search.cur = i
			break
		}
	}
	if d.search.cur < 0 && len(d.search.matches) > 0 {
		d.search.cur = 0
	}
	d.showMatch()
}

// NextMatch moves to the next (dir 1) or previous (-1) match, wrapping.
func (d *Pane) NextMatch(dir int) {
	n := len(d.search.matches)
	if n == 0 {
		return
	}
	d.search.cur = ((d.search.cur+dir)%n + n) % n
	d.showMatch()
}

// showMatch highlights and scrolls to the current match.
func (d *Pane) showMatch() {
	y := d.vp.YOffset()
	d.setContent()
	d.vp.SetYOffset(y)
	if d.search.cur < 0 || d.search.cur >= len(d.search.matches) {
		return
	}
	line := d.search.matches[d.search.cur].line
	if line < y || line >= y+d.vp.Height() {
		d.vp.SetYOffset(line - d.vp.Height()/3)
	}
}

// ClearSearch drops the query and its highlights.
func (d *Pane) ClearSearch() {
	d.search = detailSearch{cur: -1}
	y := d.vp.YOffset()
	d.setContent()
	d.vp.SetYOffset(y)
}

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

// Search searches the tab shown for q, the detail's own search ("":
// none), which replaces the list's until its next search.
func (d *Pane) Search(q string) {
	d.search.re, d.search.fromList = nil, false
	d.setQuery(q)
}

// FollowList highlights the list's search (re matching q) in the tab
// shown, as the user reads the records it found; q "" drops the
// highlights of a list search that ended.
func (d *Pane) FollowList(q string, re *query.Matcher) {
	if q == "" {
		if d.search.fromList {
			d.ClearSearch()
		}
		return
	}
	if re == nil || d.search.fromList && d.search.query == q {
		return
	}
	d.search = detailSearch{query: q, re: re, fromList: true, cur: -1}
	y := d.vp.YOffset()
	d.search.find(d.doc.Plain)
	d.setContent()
	d.vp.SetYOffset(y)
}

// ShowFirstHit scrolls to the first match of the list's search when the
// user opens a record it found.
func (d *Pane) ShowFirstHit() {
	if !d.search.fromList || len(d.search.matches) == 0 || d.search.cur >= 0 {
		return
	}
	d.search.cur = 0
	d.showMatch()
}

// SearchQuery is the search the detail highlights ("" for none), and
// whether it follows the list's search.
func (d *Pane) SearchQuery() (q string, fromList bool) { return d.search.query, d.search.fromList }

// SearchHits are the matches in the tab shown and the current one
// (1-based; 0 before n or N).
func (d *Pane) SearchHits() (hits, cur int) { return len(d.search.matches), d.search.cur + 1 }
