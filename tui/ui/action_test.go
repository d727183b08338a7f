package ui

import (
	"slices"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func press(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

// TestRunFirstOfferedThatApplies: a key runs the first action of it that
// is offered and applies; one not offered says why, when it can; a key
// no action has goes on.
func TestRunFirstOfferedThatApplies(t *testing.T) {
	x := key.NewBinding(key.WithKeys("x"))
	y := key.NewBinding(key.WithKeys("y"))
	z := key.NewBinding(key.WithKeys("z"))
	var ran []string
	do := func(name string) func() tea.Cmd { return func() tea.Cmd { ran = append(ran, name); return nil } }
	on, applies := false, false
	acts := []Action{
		OnLine(&x, "placed"), // no handler: skipped
		{Binding: &x, When: func() bool { return applies }, Do: do("x when")},
		{Binding: &x, Do: do("x")},
		{Binding: &y, Enabled: func() bool { return on }, Do: do("y"), Why: func() string { return "y: not now" }},
		{Binding: &z, DoKey: func(k tea.KeyPressMsg) tea.Cmd { ran = append(ran, "z "+k.String()); return nil }},
	}
	steps := []struct {
		k       rune
		handled bool
		why     string
		ran     []string
	}{
		{'x', true, "", []string{"x"}},
		{'y', true, "y: not now", nil},
		{'z', true, "", []string{"z z"}},
		{'w', false, "", nil},
	}
	for _, st := range steps {
		ran = nil
		_, handled, why := Run(acts, press(st.k))
		if handled != st.handled || why != st.why || !slices.Equal(ran, st.ran) {
			t.Errorf("%c: handled %v why %q ran %v; want %v %q %v", st.k, handled, why, ran, st.handled, st.why, st.ran)
		}
	}
	on, applies = true, true
	ran = nil
	Run(acts, press('x'))
	Run(acts, press('y'))
	if want := []string{"x when", "y"}; !slices.Equal(ran, want) {
		t.Errorf("applying and offered: ran %v, want %v", ran, want)
	}
}

// TestOfferAndShortHelp: a binding is on while one of its actions offers
// it; the help line lists the actions on it, in order, with their short
// descriptions, and leaves out those not offered.
func TestOfferAndShortHelp(t *testing.T) {
	a := key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "the a action"))
	b := key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "the b action"))
	c := key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "the c action"))
	no := func() bool { return false }
	yes := func() bool { return true }
	acts := []Action{
		{Binding: &b, Enabled: no, Do: func() tea.Cmd { return nil }, Line: true},
		{Binding: &b, Enabled: yes}, // another room offers b
		{Binding: &c, Enabled: no, Line: true, Help: "c"},
		{Binding: &a, Line: true, Help: "a"},
	}
	Offer(acts)
	if !b.Enabled() || c.Enabled() || !a.Enabled() {
		t.Fatalf("offered a %v b %v c %v; want a and b", a.Enabled(), b.Enabled(), c.Enabled())
	}
	var got []string
	for _, h := range ShortHelp(acts) {
		if h.Enabled() {
			got = append(got, h.Help().Key+" "+h.Help().Desc)
		}
	}
	if want := []string{"a a"}; !slices.Equal(got, want) {
		t.Errorf("help line %q, want %q (b's own action is off, c is not offered)", got, want)
	}
	if a.Help().Desc != "the a action" {
		t.Errorf("the help line changed the binding's own description: %q", a.Help().Desc)
	}
}
