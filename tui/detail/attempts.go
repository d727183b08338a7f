package detail

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"evalview/model"
	"evalview/tui/content"
)

// Two attempts side by side (`|`), in the Responses tab of any record
// with two attempts or more (run attempts, lm-eval repeats, Sample
// predictions). The choice of attempts is kept from record to record, so
// attempt 1 and attempt 2 of every sample can be read in turn; each record
// clamps it to the attempts it has.

// The copy keys on Responses act on the attempt the user is looking at:
// in side by side, the side moved last (the left one until then); else
// the attempt whose heading is at or above the top of the view.

// focusedAttempt returns the position of the attempt the Responses tab
// shows at the top, or the chosen side of a side-by-side pair.
func (d *Pane) focusedAttempt() int {
	n := d.attemptCount()
	if n < 2 {
		return 0
	}
	if d.pairOn {
		l, r, _ := content.PairPositions(d.pair, n)
		if d.pairSide == 1 {
			return r
		}
		return l
	}
	heads := d.attemptHeadings()
	top := d.vp.YOffset()
	at := 0
	for pos, line := range heads {
		if line >= 0 && line <= top {
			at = pos
		}
	}
	return at
}

// attemptHeadings finds the line of each attempt's heading in the
// rendered Responses tab ("── #2 of 3 …", "── prediction #2 of 3 …"),
// -1 where none is found.
func (d *Pane) attemptHeadings() []int {
	rec := d.rec
	out := make([]int, len(rec.Attempts))
	var layout model.AttemptsLayout
	if d.ds != nil {
		layout = d.ds.Presentation.Attempts
	}
	from := 0
	for pos, a := range rec.Attempts {
		out[pos] = -1
		name := "── " + layout.Name(pos, a) + " of " + strconv.Itoa(len(rec.Attempts)) + " "
		for i := from; i < len(d.doc.Plain); i++ {
			if strings.HasPrefix(d.doc.Plain[i], name) || strings.HasPrefix(d.doc.Plain[i]+" ", name) {
				out[pos], from = i, i+1
				break
			}
		}
	}
	return out
}

// pairOff is the render key's pair when attempts show one under another.
var pairOff = [2]int{-1, -1}

// pairKey is what the render of tab t depends on of the pair state.
func (d *Pane) pairKey(t content.Tab) [2]int {
	if !d.pairOn || t.Content != model.TabAttempts || d.rec == nil || len(d.rec.Attempts) < 2 {
		return pairOff
	}
	l, r, _ := content.PairPositions(d.pair, len(d.rec.Attempts))
	return [2]int{l, r}
}

// renderTab renders the tab of k: Responses side by side when the pair
// is on, else as content.Render does.
func renderTab(k renderKey, opts content.Options) content.Doc {
	rec := k.rec
	if k.threshold >= 0 { // a scored dataset: statuses at the threshold shown
		rec = k.ds.Scoring.RecordAt(rec, k.threshold)
	}
	if k.pair != pairOff && k.tab.Content == model.TabAttempts {
		return content.RenderAttemptPair(k.ds, rec, k.pair, opts)
	}
	return content.Render(k.ds, rec, k.tab, opts)
}

// attemptCount is the number of attempts of the shown record.
func (d *Pane) attemptCount() int {
	if d.rec == nil {
		return 0
	}
	return len(d.rec.Attempts)
}

// TogglePair shows two attempts side by side, or one under another
// again. Turning it on shows the Responses tab. note says why it cannot
// be turned on.
func (d *Pane) TogglePair() (cmd tea.Cmd, note string) {
	if !d.pairOn && d.attemptCount() < 2 {
		return nil, "side by side needs two attempts"
	}
	d.pairOn = !d.pairOn
	if d.pairOn && d.pair == [2]int{} {
		d.pair = [2]int{0, 1}
	}
	if d.pairOn {
		for i, t := range d.tabs {
			if t.Content == model.TabAttempts {
				cmd = d.ChooseTab(i)
			}
		}
	}
	return tea.Batch(cmd, d.Refresh()), ""
}

// PairOn reports whether two attempts show side by side.
func (d *Pane) PairOn() bool { return d.pairOn }

// CanPair reports whether the record has two attempts to show side by
// side.
func (d *Pane) CanPair() bool { return d.attemptCount() >= 2 }

// MovePair moves one side (0 left, 1 right) of the pair by delta
// attempts, wrapping, skipping the attempt the other side shows (with two
// attempts, the sides swap).
func (d *Pane) MovePair(side, delta int) tea.Cmd {
	n := d.attemptCount()
	if !d.pairOn || n < 2 {
		return nil
	}
	l, r, _ := content.PairPositions(d.pair, n)
	cur := [2]int{l, r}
	next := ((cur[side]+delta)%n + n) % n
	if next == cur[1-side] {
		if n == 2 {
			next, cur[1-side] = cur[1-side], cur[side] // only a swap is left
		} else {
			next = ((next+delta)%n + n) % n
		}
	}
	cur[side] = next
	d.pair, d.pairSide = cur, side
	return d.Refresh()
}
