package tui

import (
	"strings"
	"testing"

	"evalview/model"
)

// A list search highlights its matches in the detail of the record it
// found; n/N in the detail move between them; esc in the list drops them.
func TestListSearchHighlightsDetail(t *testing.T) {
	tests := []struct {
		query string
		min   int // matches in record 0's Prompt tab, at least
	}{
		{"duck", 2},    // "ducks" and "duck egg", few-shot folded
		{"~d[u]ck", 2}, // a regex
		{"Janet", 1},   // smart case
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
			press(m, "/")
			typeText(m, tc.query)
			press(m, "enter")
			d := m.detail
			hits, _ := d.SearchHits()
			if _, fromList := d.SearchQuery(); !fromList || hits < tc.min {
				t.Fatalf("detail matches %d (fromList %v), want at least %d", hits, fromList, tc.min)
			}
			press(m, "enter") // open the record: the first match is current
			if _, cur := d.SearchHits(); cur != 1 {
				t.Fatalf("opening the record: current match %d, want 1", cur)
			}
			if s := screen(m); !strings.Contains(s, "/"+tc.query+" 1/") {
				t.Errorf("status bar lacks the detail's match count:\n%s", s)
			}
			sel, _ := m.list.Selected()
			press(m, "n")
			if n, cur := d.SearchHits(); n > 1 && cur != 2 {
				t.Errorf("n in the detail: current match %d, want 2", cur)
			}
			if now, _ := m.list.Selected(); now != sel {
				t.Errorf("n in the detail moved the list from %d to %d", sel, now)
			}
			press(m, "N")
			if _, cur := d.SearchHits(); cur != 1 {
				t.Errorf("N: current match %d, want 1", cur)
			}
			press(m, "esc", "esc") // clear the detail's highlights, back to the list; then the search
			press(m, "esc")
			if hits, _ := d.SearchHits(); m.list.Query() != "" || hits != 0 {
				t.Errorf("after esc: list query %q, detail matches %d", m.list.Query(), hits)
			}
		})
	}
}

// The detail's own search replaces the list's highlights.
func TestDetailSearchReplacesListHits(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
	press(m, "/")
	typeText(m, "duck")
	press(m, "enter", "enter", "/")
	typeText(m, "eggs")
	press(m, "enter")
	q, fromList := m.detail.SearchQuery()
	if hits, _ := m.detail.SearchHits(); fromList || q != "eggs" || hits == 0 {
		t.Fatalf("detail search %q fromList %v matches %d", q, fromList, hits)
	}
}

// TestSearchWithoutHitsHidesNextMatch: n and N leave the help line (and
// do nothing) when the search found nothing; a search with hits offers
// them again.
func TestSearchWithoutHitsHidesNextMatch(t *testing.T) {
	for _, c := range []struct {
		name, query string
		detail      bool
		want        bool
	}{
		{"list, no hit", "zzqqxx", false, false},
		{"list, hits", "ducks", false, true},
		{"detail, no hit", "zzqqxx", true, false},
		{"detail, hits", "ducks", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 30)
			if c.detail {
				press(m, "tab")
			}
			press(m, "/")
			typeText(m, c.query)
			press(m, "enter")
			km := m.c.Keys
			if km.Search.Next.Enabled() != c.want || km.Search.Prev.Enabled() != c.want {
				t.Errorf("n enabled %v, N enabled %v; want %v", km.Search.Next.Enabled(), km.Search.Prev.Enabled(), c.want)
			}
			lines := strings.Split(screen(m), "\n")
			help := lines[len(lines)-1]
			if !c.want && strings.Contains(help, "next match") {
				t.Errorf("help line offers n without hits: %q", help)
			}
		})
	}
}

// TestNoMatchIsSaidOnce: a search that matches nothing says so, and the
// next key (a move, the other pane) takes "no match" off the status bar,
// where it stayed, stale, whatever the user did next.
func TestNoMatchIsSaidOnce(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 30)
	press(m, "/")
	typeText(m, "zzzq")
	press(m, "enter")
	if s := screen(m); !strings.Contains(s, "/zzzq no match in list") {
		t.Fatalf("no match not said:\n%s", s)
	}
	press(m, "j")
	if s := screen(m); strings.Contains(s, "no match") {
		t.Errorf("no match stays after a move:\n%s", s)
	}
	press(m, "tab")
	if s := screen(m); strings.Contains(s, "no match") {
		t.Errorf("no match stays in the detail:\n%s", s)
	}
	// A search that matches keeps its count.
	press(m, "tab", "/")
	typeText(m, "question")
	press(m, "enter", "j")
	if s := screen(m); !strings.Contains(s, "/question") {
		t.Errorf("a matching search left the status bar after a key:\n%s", s)
	}
}
