package ui

import (
	"math"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"evalview/tui/keys"
)

// Action is a key a room offers, as lazygit's controllers declare their
// bindings: the binding (from the shared key map, so the config's
// overrides and the help follow it), what it does, whether it is offered
// now and why not, and how the help line shows it. Every room returns
// its actions (Actor): key handling, the help line and the keys offered
// are read from them, so they cannot disagree.
type Action struct {
	Binding *key.Binding
	// Do does it; DoKey, for a binding whose keys mean different things
	// (1-9: go to that tab), is given the key. With neither, the action
	// only places another room's action on this room's help line (the
	// browser's tools on the list's line): that room runs and offers it.
	Do    func() tea.Cmd
	DoKey func(tea.KeyPressMsg) tea.Cmd
	// Enabled says whether it is offered now; nil: always. One not
	// offered does not run, and drops out of the help line (and, for the
	// browser's panes, of `?`: Offer).
	Enabled func() bool
	// Why says why it is not offered, when its key is pressed anyway;
	// nil: the key goes on to the next action, silently.
	Why func() string
	// When says whether it applies now; nil: always. One that does not
	// apply lets its key go on to the next action and stays offered: esc
	// in the list clears the search, else the pin, else the selection.
	When func() bool
	// Line puts it on the help line, described by Help ("" for the
	// binding's own description).
	Line bool
	Help string
}

// Actor is a room that offers actions: the panes, the sheets, the
// overlays. The root asks the focused room for them after every message.
type Actor interface {
	Actions() []Action
}

// offered reports whether a is offered now: its binding is on (Offer,
// the config) and it is enabled.
func (a Action) offered() bool {
	return a.Binding.Enabled() && (a.Enabled == nil || a.Enabled())
}

// runs reports whether a does something itself (it is no mere place on
// a help line).
func (a Action) runs() bool { return a.Do != nil || a.DoKey != nil }

// Run runs the first action of actions that k is a key of, that is
// offered and that applies. When none runs, why is what an action of
// k's that is not offered says about it, if one does. handled reports
// that an action ran or said why: the key goes no further.
func Run(actions []Action, k tea.KeyPressMsg) (cmd tea.Cmd, handled bool, why string) {
	for _, a := range actions {
		if !a.runs() || !key.Matches(k, *a.Binding) || a.Enabled != nil && !a.Enabled() || a.When != nil && !a.When() {
			continue
		}
		if a.DoKey != nil {
			return a.DoKey(k), true, ""
		}
		return a.Do(), true, ""
	}
	for _, a := range actions {
		if a.Why != nil && !a.offered() && keys.Has(*a.Binding, k) {
			return nil, true, a.Why()
		}
	}
	return nil, false, ""
}

// Offer turns the binding of each action that says when it is offered
// (Enabled) on or off: on when one of its actions offers it. The help
// line and the `?` overlay read the bindings, so a binding not offered
// drops out of both and does not match. The root offers the browser's
// actions once per message, from the state.
func Offer(actions []Action) {
	on := map[*key.Binding]bool{}
	for _, a := range actions {
		if a.Enabled != nil {
			on[a.Binding] = on[a.Binding] || a.Enabled()
		}
	}
	for b, v := range on {
		b.SetEnabled(v)
	}
}

// ShortHelp is the help line of actions: those on it (Line), in their
// order, each described by its Help and shown only while offered.
func ShortHelp(actions []Action) []key.Binding {
	var out []key.Binding
	for _, a := range actions {
		if !a.Line {
			continue
		}
		b := *a.Binding
		if a.Help != "" {
			b.SetHelp(b.Help().Key, a.Help)
		}
		b.SetEnabled(a.offered())
		out = append(out, b)
	}
	return out
}

// OnLine places b on this room's help line, described by help ("" for
// the binding's own description), for an action done elsewhere: another
// room's (the browser's tools on the list's line), or this room's own
// further down its list (the moving keys).
func OnLine(b *key.Binding, help string) Action {
	return Action{Binding: b, Line: true, Help: help}
}

// CursorActions are the moving keys of a cursor over n rows, page rows
// at a time for the page and half-page keys, each kept on a row; after runs once the cursor moved (nil: nothing).
func CursorActions(nav *keys.Nav, cursor *int, n, page func() int, after func()) []Action {
	move := func(f func(c int) int) func() tea.Cmd {
		return func() tea.Cmd {
			*cursor = max(0, min(f(*cursor), n()-1))
			if after != nil {
				after()
			}
			return nil
		}
	}
	return []Action{
		{Binding: &nav.Down, Do: move(func(c int) int { return c + 1 })},
		{Binding: &nav.Up, Do: move(func(c int) int { return c - 1 })},
		{Binding: &nav.PageDown, Do: move(func(c int) int { return c + max(1, page()) })},
		{Binding: &nav.HalfDown, Do: move(func(c int) int { return c + max(1, page()) })},
		{Binding: &nav.PageUp, Do: move(func(c int) int { return c - max(1, page()) })},
		{Binding: &nav.HalfUp, Do: move(func(c int) int { return c - max(1, page()) })},
		{Binding: &nav.Top, Do: move(func(int) int { return 0 })},
		{Binding: &nav.Bottom, Do: move(func(int) int { return n() - 1 })},
	}
}

// ScrollActions are the moving keys of a sheet without a cursor
// (Scroll.Key): they move its offset, which View keeps in range.
func ScrollActions(nav *keys.Nav, sc *Scroll) []Action {
	move := func(f func(o int) int) func() tea.Cmd {
		return func() tea.Cmd {
			sc.Offset = f(sc.Offset)
			return nil
		}
	}
	page := func() int { return max(1, sc.H-1) }
	return []Action{
		{Binding: &nav.Down, Do: move(func(o int) int { return o + 1 })},
		{Binding: &nav.Up, Do: move(func(o int) int { return o - 1 })},
		{Binding: &nav.PageDown, Do: move(func(o int) int { return o + page() })},
		{Binding: &nav.HalfDown, Do: move(func(o int) int { return o + page() })},
		{Binding: &nav.PageUp, Do: move(func(o int) int { return o - page() })},
		{Binding: &nav.HalfUp, Do: move(func(o int) int { return o - page() })},
		{Binding: &nav.Top, Do: move(func(int) int { return 0 })},
		{Binding: &nav.Bottom, Do: move(func(int) int { return math.MaxInt32 })},
	}
}

// ViewportActions are the moving keys of a viewport: by line, page and
// half page, to the top and the bottom.
func ViewportActions(nav *keys.Nav, vp *viewport.Model) []Action {
	do := func(f func()) func() tea.Cmd { return func() tea.Cmd { f(); return nil } }
	return []Action{
		{Binding: &nav.Top, Do: do(func() { vp.GotoTop() })},
		{Binding: &nav.Bottom, Do: do(func() { vp.GotoBottom() })},
		{Binding: &nav.PageDown, Do: do(vp.PageDown)},
		{Binding: &nav.PageUp, Do: do(vp.PageUp)},
		{Binding: &nav.HalfDown, Do: do(vp.HalfPageDown)},
		{Binding: &nav.HalfUp, Do: do(vp.HalfPageUp)},
		{Binding: &nav.Down, Do: do(func() { vp.ScrollDown(1) })},
		{Binding: &nav.Up, Do: do(func() { vp.ScrollUp(1) })},
	}
}
