package tui

import "evalview/tui/split"

// Minimum terminal size the browser lays out; smaller shows a notice.
const (
	MinWidth  = 60
	MinHeight = 15
)

// sideBySideWidth is the narrowest terminal that puts the list and the
// detail side by side; narrower ones stack them.
const sideBySideWidth = 96

// Rect is a pane's rectangle in cells.
type Rect struct {
	X, Y, W, H int
}

// Contains reports whether the cell (x, y) lies inside r.
func (r Rect) Contains(x, y int) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// Layout is where every pane goes for one window size.
type Layout struct {
	Width, Height int
	// TooSmall is set below MinWidth x MinHeight; no pane is placed then.
	TooSmall bool
	// Stacked puts the detail under the list instead of beside it.
	Stacked bool
	// Header holds HeaderLines lines of text, then a rule when HeaderRule.
	Header      Rect
	HeaderLines int
	HeaderRule  bool
	// List and Detail each start with one heading line (the column heads,
	// the tab bar) followed by their rows.
	List   Rect
	Detail Rect
	// Divider is the one-column line between the panes side by side.
	Divider Rect
	// Body is the union of list, divider and detail (where overlays go).
	Body   Rect
	Status Rect
	Help   Rect
}

// ComputeLayout places the panes in a w x h terminal, the list and the
// detail split as by default. It is pure so that it can be tested for
// every size, tiny ones included.
func ComputeLayout(w, h int) Layout { return ComputeLayoutSplit(w, h, 0) }

// minPaneWidth is the least width of a pane side by side, whatever the
// split (tui/split).
const minPaneWidth = 20

// StatePath is the file the browser remembers its layout in:
// $XDG_STATE_HOME/evalview/layout.json (~/.local/state/...); "" when the
// home folder is unknown.
func StatePath() string { return split.StatePath() }

// ComputeLayoutSplit is ComputeLayout with the list given share percent
// of the body's width (side by side) or height (stacked); 0 is the
// default split. Each pane keeps some room whatever the split.
func ComputeLayoutSplit(w, h, share int) Layout {
	l := Layout{Width: w, Height: h}
	if w < MinWidth || h < MinHeight {
		l.TooSmall = true
		return l
	}
	switch {
	case h >= 40:
		l.HeaderLines = 4
	case h >= 20:
		l.HeaderLines = 3
	default:
		l.HeaderLines = 2
	}
	l.HeaderRule = h >= 24
	hh := l.HeaderLines
	if l.HeaderRule {
		hh++
	}
	l.Header = Rect{0, 0, w, hh}
	l.Help = Rect{0, h - 1, w, 1}
	l.Status = Rect{0, h - 2, w, 1}
	body := h - hh - 2
	l.Body = Rect{0, hh, w, body}
	share = split.Clamp(share)
	if w >= sideBySideWidth {
		lw := min(max(w*2/5, 36), 90)
		if share > 0 {
			lw = max(minPaneWidth, min(w*share/100, w-1-minPaneWidth))
		}
		l.List = Rect{0, hh, lw, body}
		l.Divider = Rect{lw, hh, 1, body}
		l.Detail = Rect{lw + 1, hh, w - lw - 1, body}
		return l
	}
	l.Stacked = true
	lh := max(4, body*2/5)
	if share > 0 {
		lh = max(3, min(body*share/100, body-3))
	}
	l.List = Rect{0, hh, w, lh}
	l.Detail = Rect{0, hh + lh, w, body - lh}
	return l
}

// Zoomed is l with the focused pane (the detail when detail is true, else
// the list) given the whole body and the other none (Z): a long response
// or a wide list read without the other pane.
func (l Layout) Zoomed(detail bool) Layout {
	if l.TooSmall {
		return l
	}
	l.Divider = Rect{}
	if detail {
		l.Detail, l.List = l.Body, Rect{X: l.Body.X, Y: l.Body.Y}
	} else {
		l.List, l.Detail = l.Body, Rect{X: l.Body.X, Y: l.Body.Y}
	}
	l.Stacked = true // one pane over the other, the other of no height
	return l
}

// defaultShare is the list's share of the body in percent at l's size
// under the default split, for the split keys to move from.
func (l Layout) defaultShare() int {
	d := ComputeLayout(l.Width, l.Height)
	if d.Stacked {
		return max(1, d.List.H*100/max(1, d.Body.H))
	}
	return max(1, d.List.W*100/max(1, d.Width))
}

// onDivider reports whether the cell (x, y) is on the border between
// the panes side by side, where a drag moves the split.
func (l Layout) onDivider(x, y int) bool {
	return !l.Stacked && l.Divider.W > 0 && x == l.Divider.X && y >= l.Body.Y && y < l.Body.Y+l.Body.H
}
