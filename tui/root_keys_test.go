package tui

import (
	"strings"
	"testing"

	"evalview/model"
)

// TestWrongOnlyNeedsScores: on a dataset where nothing is scored, x is
// not offered and says why when pressed; on a scored one it filters.
func TestWrongOnlyNeedsScores(t *testing.T) {
	m := newTestModel(t, []*model.Dataset{scoredRunFixture("run-u", []float64{-1, -1})}, 100, 30)
	if s := screen(m); strings.Contains(s, "x wrong only") {
		t.Errorf("help offers x with nothing scored:\n%s", s)
	}
	press(m, "x")
	if s := screen(m); m.list.WrongOnly() || !strings.Contains(s, "no record here passes or fails") {
		t.Errorf("x on an unscored dataset: wrong only %v\n%s", m.list.WrongOnly(), s)
	}
	m = newTestModel(t, []*model.Dataset{lmevalFixture()}, 100, 30)
	if s := screen(m); !strings.Contains(s, "x wrong only") {
		t.Errorf("help lacks x on a scored dataset:\n%s", s)
	}
	if press(m, "x"); !m.list.WrongOnly() {
		t.Error("x did not turn wrong only on")
	}
}

// TestOneMeaningPerKey: h and l move across in every room, as the arrows
// do; labelling is L. Pressing l to move right then h once typed "h"
// into a label prompt.
func TestOneMeaningPerKey(t *testing.T) {
	arrows := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
	press(arrows, "right", "right", "s")
	letters := newTestModel(t, []*model.Dataset{lmevalFixture()}, 120, 30)
	press(letters, "l", "l", "s")
	if prompt(letters) != nil {
		t.Fatal("l in the list opened a prompt")
	}
	if a, l := arrows.list.SortKey(), letters.list.SortKey(); a != l || a.Column == "" {
		t.Errorf("l l s sorts by %+v, → → s by %+v", l, a)
	}
	press(letters, "h", "s")
	if a := arrows.list.SortKey(); letters.list.SortKey().Column == a.Column {
		t.Errorf("h did not move the column back: still %+v", a)
	}
	// In the detail, h and l are the tabs, as [ and ].
	press(letters, "tab", "l")
	if got, want := letters.detail.TabName(), letters.detail.Tabs()[1].Name; got != want {
		t.Errorf("l in the detail: tab %q, want %q", got, want)
	}
	press(letters, "h")
	if got, want := letters.detail.TabName(), letters.detail.Tabs()[0].Name; got != want {
		t.Errorf("h in the detail: tab %q, want %q", got, want)
	}
	// Labelling is L, in the list (this dataset has no notes file: L
	// says so, where l used to).
	press(letters, "tab", "L")
	if !strings.Contains(letters.note, "notes are off") {
		t.Errorf("L in the list: %q", letters.note)
	}
}
