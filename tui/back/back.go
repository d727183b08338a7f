// Package back is the back stack: esc goes back along where the user
// came from. A move elsewhere (T to the overview, enter in the overview
// or the runs of a task to a dataset's list or record, a dataset chosen
// in the picker) leaves a place on the trail first; esc in the list, once
// it has nothing of its own to clear, returns to the last place left, and
// a sheet that closes (esc) shows the one under it, which is where the
// user came from. It was a toggle: list, overview, list...
//
// The root holds the Trail and goes back itself (the dataset, the sheets
// and the pane of the place Pop gives); the trail is told what it needs
// as arguments and never holds the root.
package back

import (
	"slices"
	"strings"

	"evalview/tui/text"
	"evalview/tui/ui"
)

// maxTrail bounds the trail: a user who goes back and forth a thousand
// times keeps the last places.
const maxTrail = 64

// Place is where the user was: the sheets open (as they were left), the
// dataset shown and the pane focused (the root's F).
type Place[F comparable] struct {
	Sheets  []ui.Sheet
	Dataset int
	Focus   F
}

// same reports whether p and q are one place.
func (p Place[F]) same(q Place[F]) bool {
	return p.Dataset == q.Dataset && p.Focus == q.Focus && slices.Equal(p.Sheets, q.Sheets)
}

// Trail is the places the user left, the last one last.
type Trail[F comparable] struct {
	places []Place[F]
}

// here is the place the user is at: the sheets open, the dataset shown,
// the pane focused.
func here[F comparable](sheets []ui.Sheet, dataset int, focus F) Place[F] {
	return Place[F]{Sheets: slices.Clone(sheets), Dataset: dataset, Focus: focus}
}

// Len is how many places the trail holds.
func (t *Trail[F]) Len() int { return len(t.places) }

// Leave puts the place the user is at on the trail, before a move
// elsewhere; twice the same place is kept once.
func (t *Trail[F]) Leave(sheets []ui.Sheet, dataset int, focus F) {
	p := here(sheets, dataset, focus)
	if n := len(t.places); n > 0 && t.places[n-1].same(p) {
		return
	}
	t.places = append(t.places, p)
	if len(t.places) > maxTrail {
		t.places = slices.Delete(t.places, 0, len(t.places)-maxTrail)
	}
}

// Arrived drops the last place left when the user is back at it by
// other means (a sheet closed): esc then goes further back.
func (t *Trail[F]) Arrived(sheets []ui.Sheet, dataset int, focus F) {
	if n := len(t.places); n > 0 && t.places[n-1].same(here(sheets, dataset, focus)) {
		t.places = t.places[:n-1]
	}
}

// Pop takes the last place left off the trail; false when there is none.
func (t *Trail[F]) Pop() (Place[F], bool) {
	n := len(t.places)
	if n == 0 {
		return Place[F]{}, false
	}
	p := t.places[n-1]
	t.places = t.places[:n-1]
	return p, true
}

// Forget drops the sheets of dataset i from the trail (a reload replaced
// it: they show the old one) but keep, which reads the datasets as they
// are (the overview).
func (t *Trail[F]) Forget(i int, keep ui.Sheet) {
	for k := range t.places {
		if t.places[k].Dataset != i {
			continue
		}
		t.places[k].Sheets = slices.DeleteFunc(t.places[k].Sheets, func(s ui.Sheet) bool { return s != keep })
	}
}

// Where names where esc goes from the room on screen, for the help line:
// over sheets (open), what is under the top one; in the list (inList),
// the last place left, named by its top sheet, else "list" when it is
// the dataset shown (cur), else that dataset's title (title, false when
// there is no such dataset); "" when esc goes nowhere.
func (t *Trail[F]) Where(open []ui.Sheet, inList bool, cur int, title func(i int) (string, bool)) string {
	if n := len(open); n > 0 {
		if n > 1 {
			return SheetName(open[n-2])
		}
		return "list"
	}
	n := len(t.places)
	if n == 0 || !inList {
		return ""
	}
	p := t.places[n-1]
	if k := len(p.Sheets); k > 0 {
		if name := SheetName(p.Sheets[k-1]); name != "" {
			return name
		}
	}
	if p.Dataset == cur {
		if _, ok := title(p.Dataset); ok {
			return "list"
		}
		return ""
	}
	if s, ok := title(p.Dataset); ok {
		return text.Truncate(text.OneLine(s), 24)
	}
	return ""
}

// SheetName is what a sheet is called on the help line ("overview").
func SheetName(s ui.Sheet) string {
	if d, ok := s.(ui.Describer); ok {
		return strings.ToLower(text.OneLine(d.Describe().Title))
	}
	return text.OneLine(s.Title())
}
