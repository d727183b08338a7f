package notes

import (
	"slices"
	"strings"
	"time"
)

// merge3 merges mine, an edit of a record made on base (the record's note
// as this window had read it), with cur, the record's note as the files
// hold it now, and reports whether both changed the record (a conflict).
//
// When only one of them changed it, that change is the result. When both
// did, nothing either gave is lost: the labels are merged as sets (a
// label either added is kept, one either removed is dropped), and the
// texts are both kept ("; " between, as model.AppendNote joins notes)
// unless one holds the other; a text one side cleared and the other
// changed keeps the change. The result's edit time is later than cur's,
// so that it wins over cur wherever the two files meet again.
func merge3(base, cur, mine Note) (Note, bool) {
	switch {
	case sameNote(cur, base), sameNote(mine, cur):
		return stamped(mine, cur), false
	case sameNote(mine, base): // this window changed nothing: the other's stands
		return cur, false
	}
	out := mine
	out.Labels = mergeLabels(base.Labels, cur.Labels, mine.Labels)
	out.Text = mergeText(base.Text, cur.Text, mine.Text)
	return stamped(out, cur), true
}

// sameNote reports whether a and b say the same: the same labels, in any
// order, and the same text.
func sameNote(a, b Note) bool {
	if a.Text != b.Text || len(a.Labels) != len(b.Labels) {
		return false
	}
	for _, l := range a.Labels {
		if !slices.Contains(b.Labels, l) {
			return false
		}
	}
	return true
}

// mergeLabels is cur's labels less those mine removed from base, then the
// labels mine added to base, in that order.
func mergeLabels(base, cur, mine []string) []string {
	var out []string
	for _, l := range cur {
		if !slices.Contains(base, l) || slices.Contains(mine, l) {
			out = append(out, l)
		}
	}
	for _, l := range mine {
		if !slices.Contains(base, l) && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// mergeText is the note text when both sides may have changed it.
func mergeText(base, cur, mine string) string {
	switch {
	case cur == base || mine == cur:
		return mine
	case mine == base || mine == "" || strings.Contains(cur, mine):
		return cur
	case cur == "" || strings.Contains(mine, cur):
		return mine
	}
	return cur + "; " + mine
}

// stamped is n with an edit time later than cur's: n's own when it is,
// else cur's and a nanosecond (the clocks of two machines sharing a
// folder may differ).
func stamped(n, cur Note) Note {
	if c := cur.editedTime(); !c.IsZero() && !n.editedTime().After(c) {
		n.Edited = c.Add(time.Nanosecond).UTC().Format(editedLayout)
	}
	return n
}
