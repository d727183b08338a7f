package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestUnhandledMessagesKeepTheFrame: Bubble Tea asks for the view after
// every message; after one that no handler takes (terminal reports, mouse
// motion, key releases) the browser hands back the frame it built, and a
// message that is handled builds a new one.
func TestUnhandledMessagesKeepTheFrame(t *testing.T) {
	m := newTestModel(t, allFixtures(), 100, 30)
	first := m.View()
	kept := m.kept
	for _, msg := range []tea.Msg{
		tea.EnvMsg{}, tea.ColorProfileMsg{}, tea.ModeReportMsg{}, tea.PasteStartMsg{}, tea.PasteEndMsg{},
		tea.MouseMotionMsg{X: 3, Y: 9}, tea.KeyReleaseMsg{Code: 'j', Text: "j"},
	} {
		send(m, msg)
		if v := m.View(); m.kept != kept || v.Content != first.Content {
			t.Fatalf("after %T the frame was built again", msg)
		}
	}
	press(m, "j")
	if v := m.View(); m.kept == kept || v.Content == first.Content {
		t.Fatal("after j the frame was not built again")
	}
}
