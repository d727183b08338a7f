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
